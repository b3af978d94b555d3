#include "charts/token_display.h"

#include "engine/models/word_tokens.h"

#include <algorithm>

namespace logitlab::ui {

QString shownTokenName(std::string_view name)
{
    // A UTF-8 character is at most 4 bytes: a prefix and a suffix of these sizes hold every
    // character that is shown, and one more on each side to tell whether anything was cut.
    constexpr std::size_t kEndBytes = 4 * (kShownTokenChars / 2 + 1);
    if (name.size() <= 2 * kEndBytes)
        return shownTokenName(QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())));
    const std::string_view prefix = name.substr(0, kEndBytes);
    std::string_view suffix = name.substr(name.size() - kEndBytes);
    while (!suffix.empty() && (static_cast<unsigned char>(suffix.front()) & 0xC0) == 0x80)
        suffix.remove_prefix(1);  // start on a character, not inside one
    return shownTokenName(QString::fromUtf8(prefix.data(), static_cast<qsizetype>(prefix.size())) + QChar(u'\u2026') +
                          QString::fromUtf8(suffix.data(), static_cast<qsizetype>(suffix.size())));
}

QString shownTokenName(const QString& name)
{
    // A name of whitespace only (a real vocabulary's " ", "\n", "\t\t") would show as nothing:
    // spaces as U+2423 (open box), the rest as their escapes.
    if (!name.isEmpty() && std::all_of(name.begin(), name.end(), [](QChar c) { return c.isSpace(); })) {
        QString shown;
        for (const QChar c : name)
            shown += c == u'\n'   ? QStringLiteral("\\n")
                     : c == u'\t' ? QStringLiteral("\\t")
                     : c == u'\r' ? QStringLiteral("\\r")
                                  : QString(QChar(u'\u2423'));
        return shortTokenName(shown, kShownTokenChars);
    }
    return shortTokenName(name, kShownTokenChars);
}

QString shownLoopToken(const std::string& token)
{
    return token == engine::kParagraphToken ? QStringLiteral("\u00B6") : shownTokenName(token);
}

QString shortTokenName(const QString& name, qsizetype chars)
{
    chars = std::max<qsizetype>(chars, 3);
    if (name.size() <= chars)
        return name;
    // The middle goes: a long token's end ("...Handler", "...ing") tells as much as its start.
    qsizetype head = chars / 2;
    qsizetype tail = chars - head - 1;
    if (name[head - 1].isHighSurrogate())  // never split a character made of two UTF-16 units
        --head;
    if (name[name.size() - tail].isLowSurrogate())
        --tail;
    return name.left(head) + QChar(u'\u2026') + name.right(tail);
}

QString chartLabel(const QString& text)
{
    // A name that ends as Qt marks a cut label ("...", U+2026, U+22EE: "..." is a word of the
    // built-in model's vocabulary) is shown in quotes, so nobody reads it as a cut name.
    const bool looksCut =
        text.endsWith(QStringLiteral("...")) || text.endsWith(QChar(0x2026)) || text.endsWith(QChar(0x22EE));
    return looksCut ? QStringLiteral("\u201C%1\u201D").arg(text.toHtmlEscaped()) : text.toHtmlEscaped();
}

QStringList chartLabels(const QStringList& texts)
{
    QStringList out;
    out.reserve(texts.size());
    for (const QString& t : texts)
        out << chartLabel(t);
    return out;
}

}  // namespace logitlab::ui
