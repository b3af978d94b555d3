// A count with its noun, for summaries and status lines: "1 seed", "2 seeds", "1 thread".
// English only; the summaries are not translated.
#pragma once

#include <QString>

namespace logitlab::app {

inline QString counted(qint64 n, const char* one, const char* many)
{
    return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
}

}  // namespace logitlab::app
