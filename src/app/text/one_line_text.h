// Error text made safe for one line: a message may quote a file's contents (a token name, a
// field of a malformed file), and a NUL, a newline, an escape sequence or UTF-16 bytes quoted
// raw would break the CLI's one-line errors or a label. Used by the CLI's error printer and the
// GUI's error labels.
#pragma once

#include <QString>

#include <limits>

namespace logitlab::app {

inline constexpr qsizetype kMaxErrorTextChars = 2000;

// Control characters become visible escapes (\n, \r, \t, \0, \x1b, \u2028), and text longer
// than `maxChars` is cut with a note of how much was left out. Printable text is unchanged.
QString oneLineText(const QString& text, qsizetype maxChars = kMaxErrorTextChars);

// A token name (or other text from a file) for a terminal's normal output: the same escapes,
// never cut (names are at most engine::kMaxTokenNameChars), so a name cannot move the cursor,
// ring the bell, clear the screen or split a table row.
inline QString terminalText(const QString& text)
{
    return oneLineText(text, std::numeric_limits<qsizetype>::max() / 8);
}

}  // namespace logitlab::app
