// Token names as the GUI shows them: in table cells, chart axes and legends, and readouts. A
// name is cut to kShownTokenChars characters with an ellipsis in the middle (its start and end
// stay readable), so a long name (up to the
// 1,024-character read limit of engine/core/input_limits.h) costs the layout no more than a short
// one; the full name stays in the model for editing and in the cell's tooltip.
#pragma once

#include <QString>
#include <QStringList>

#include <string>
#include <string_view>

namespace logitlab::ui {

inline constexpr qsizetype kShownTokenChars = 40;

// A name of whitespace only is shown visibly: each space as U+2423, "\n", "\t", "\r" escaped.
// Converts only the bytes it shows: the middle of a long name is never decoded.
QString shownTokenName(std::string_view name);
QString shownTokenName(const QString& name);
// A token of a model's vocabulary in the Loop's texts and readouts: the paragraph break (a
// token of the built-in model) as the pilcrow, any other name as shownTokenName shows it.
QString shownLoopToken(const std::string& token);
// The same, cut to `chars` characters (at least 3): for a chart's turned bar names, where Qt
// would cut a long one at its end to "...".
QString shortTokenName(const QString& name, qsizetype chars);

// Text for a chart's axis label or title that may hold token names: Qt Charts draws both as
// HTML, so "<s>", "<unk>", "<|im_end|>" and "<0x0A>" (common in real vocabularies) read as tags
// and vanish, and "&amp;" as "&". Escaped, they show as they are. A name ending in "...", U+2026
// or U+22EE (how Qt marks a cut label) is put in quotes: the token "..." is not a cut name.
QString chartLabel(const QString& text);
QStringList chartLabels(const QStringList& texts);

}  // namespace logitlab::ui
