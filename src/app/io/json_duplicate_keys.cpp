#include "app/io/json_duplicate_keys.h"

#include <QSet>
#include <QStringList>

#include <vector>

namespace logitlab::app {

namespace {

struct Frame {
    bool isObject = false;
    QSet<QString> keys;   // objects: the keys seen so far
    QString key;          // objects: the key whose value is being read
    qsizetype index = 0;  // arrays: the element being read
};

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// Decodes the string starting after the opening quote at `i`; leaves `i` after the closing quote.
std::optional<QString> readString(const QByteArray& json, qsizetype& i)
{
    QString text;
    qsizetype runStart = i;
    while (i < json.size()) {
        const char c = json[i];
        if (c == '"') {
            text += QString::fromUtf8(json.constData() + runStart, i - runStart);
            ++i;
            return text;
        }
        if (c != '\\') {
            ++i;
            continue;
        }
        text += QString::fromUtf8(json.constData() + runStart, i - runStart);
        if (i + 1 >= json.size())
            return std::nullopt;
        const char e = json[i + 1];
        i += 2;
        switch (e) {
        case 'b':
            text += QLatin1Char('\b');
            break;
        case 'f':
            text += QLatin1Char('\f');
            break;
        case 'n':
            text += QLatin1Char('\n');
            break;
        case 'r':
            text += QLatin1Char('\r');
            break;
        case 't':
            text += QLatin1Char('\t');
            break;
        case 'u': {
            if (i + 4 > json.size())
                return std::nullopt;
            int code = 0;
            for (int k = 0; k < 4; ++k) {
                const int h = hexValue(json[i + k]);
                if (h < 0)
                    return std::nullopt;
                code = code * 16 + h;
            }
            text += QChar(static_cast<char16_t>(code));  // surrogate pairs join as two units
            i += 4;
            break;
        }
        default:
            text += QLatin1Char(e);
            break;  // \" \\ \/
        }
        runStart = i;
    }
    return std::nullopt;
}

QString pathOf(const std::vector<Frame>& stack, const QString& last)
{
    QStringList parts;
    for (std::size_t f = 0; f + 1 < stack.size(); ++f)
        parts << (stack[f].isObject ? stack[f].key : QString::number(stack[f].index));
    parts << last;
    return parts.join(QLatin1Char('.'));
}

}  // namespace

std::optional<QString> duplicateJsonKey(const QByteArray& json)
{
    std::vector<Frame> stack;
    bool expectKey = false;
    qsizetype i = 0;
    while (i < json.size()) {
        const char c = json[i];
        switch (c) {
        case '{':
            stack.push_back(Frame{true, {}, {}, 0});
            expectKey = true;
            ++i;
            break;
        case '[':
            stack.push_back(Frame{false, {}, {}, 0});
            expectKey = false;
            ++i;
            break;
        case '}':
        case ']':
            if (!stack.empty())
                stack.pop_back();
            expectKey = false;
            ++i;
            break;
        case ',':
            if (!stack.empty()) {
                if (stack.back().isObject)
                    expectKey = true;
                else
                    ++stack.back().index;
            }
            ++i;
            break;
        case ':':
            expectKey = false;
            ++i;
            break;
        case '"': {
            ++i;
            const auto text = readString(json, i);
            if (!text)
                return std::nullopt;
            if (expectKey && !stack.empty() && stack.back().isObject) {
                Frame& frame = stack.back();
                if (frame.keys.contains(*text))
                    return pathOf(stack, *text);
                frame.keys.insert(*text);
                frame.key = *text;
            }
            break;
        }
        default:
            ++i;  // whitespace, numbers, true, false, null
            break;
        }
    }
    return std::nullopt;
}

std::optional<QString> duplicateJsonKeyProblem(const QByteArray& json)
{
    if (const auto key = duplicateJsonKey(json))
        return QStringLiteral("%1: appears twice in one object (JSON keys must be unique)").arg(*key);
    return std::nullopt;
}

}  // namespace logitlab::app
