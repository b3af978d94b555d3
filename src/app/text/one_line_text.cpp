#include "app/text/one_line_text.h"

namespace logitlab::app {

namespace {

QString escaped(QChar c)
{
    switch (c.unicode()) {
    case u'\n':
        return QStringLiteral("\\n");
    case u'\r':
        return QStringLiteral("\\r");
    case u'\t':
        return QStringLiteral("\\t");
    case u'\0':
        return QStringLiteral("\\0");
    default:
        break;
    }
    if (c.unicode() < 0x100)
        return QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
    return QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
}

// C0 and C1 controls, DEL, the line and paragraph separators, and the byte order mark: none of
// them shows as itself on one line. Lone surrogates (from UTF-16 read as UTF-8) are printable
// as U+FFFD already, because QString::fromUtf8 replaced them.
bool needsEscape(QChar c)
{
    const char16_t u = c.unicode();
    return u < 0x20 || (u >= 0x7F && u < 0xA0) || u == 0x2028 || u == 0x2029 || u == 0xFEFF;
}

}  // namespace

QString oneLineText(const QString& text, qsizetype maxChars)
{
    QString out;
    out.reserve(std::min(text.size(), maxChars) + 16);
    qsizetype used = 0;
    for (; used < text.size() && out.size() < maxChars; ++used) {
        const QChar c = text[used];
        if (needsEscape(c))
            out += escaped(c);
        else
            out += c;
    }
    if (used < text.size())
        out += QStringLiteral("... (%1 more characters)").arg(text.size() - used);
    return out;
}

}  // namespace logitlab::app
