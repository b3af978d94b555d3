#include "token_display.h"

#include <algorithm>

namespace logitlab::ui {

QString shownTokenName(std::string_view name)
{
    // A UTF-8 character is at most 4 bytes: this prefix holds every character that is shown,
    // and one more to tell whether anything was cut.
    constexpr std::size_t kPrefixBytes = 4 * (kShownTokenChars + 1);
    const std::string_view prefix = name.substr(0, kPrefixBytes);
    QString text = QString::fromUtf8(prefix.data(), static_cast<qsizetype>(prefix.size()));
    if (name.size() > kPrefixBytes)
        text += QChar(u'\u2026');  // make sure the result is elided even if the prefix alone fits
    return shownTokenName(text);
}

QString shownTokenName(const QString& name)
{
    if (name.size() <= kShownTokenChars)
        return name;
    qsizetype keep = kShownTokenChars - 1;
    if (name[keep - 1].isHighSurrogate())  // never split a character made of two UTF-16 units
        --keep;
    return name.left(keep) + QChar(u'\u2026');
}

}  // namespace logitlab::ui
