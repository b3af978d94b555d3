#include "app/text/step_range.h"

#include <QJsonObject>
#include <QObject>
#include <QRegularExpression>

namespace logitlab::app {

namespace {

// Generous: the file's shape is what really limits a range (checked by resolveStepRange).
constexpr qint64 kMaxStepIndex = qint64{1} << 40;

}  // namespace

StepRange readStepRange(JsonObjectReader& r, const QString& key)
{
    const QJsonValue value = r.value(key);
    if (value.isString()) {
        if (value.toString() != QLatin1String("all"))
            throw JsonFieldError{
                r.keyPath(key),
                QStringLiteral("must be \"all\" or {\"from\": F, \"to\": T}, got \"%1\"").arg(value.toString())};
        return StepRange{};
    }
    if (!value.isObject())
        throw JsonFieldError{r.keyPath(key), QStringLiteral("must be \"all\" or {\"from\": F, \"to\": T}")};
    JsonObjectReader range(value.toObject(), r.keyPath(key));
    StepRange s;
    s.from = range.integer(QStringLiteral("from"), {}, -kMaxStepIndex, kMaxStepIndex);
    s.to = range.integer(QStringLiteral("to"), s.to, -kMaxStepIndex, kMaxStepIndex);
    range.finish();
    // Same-signed ends can be ordered without the file; mixed signs wait for its length.
    if ((s.from >= 0) == (s.to >= 0) && s.from > s.to)
        throw JsonFieldError{range.keyPath(QStringLiteral("to")),
                             QStringLiteral("%1 is before from (%2)").arg(s.to).arg(s.from)};
    return s;
}

QJsonValue stepRangeToJson(const StepRange& range)
{
    if (range.isAll())
        return QStringLiteral("all");
    return QJsonObject{{QStringLiteral("from"), range.from}, {QStringLiteral("to"), range.to}};
}

QString describeStepRange(const StepRange& range)
{
    return range.isAll() ? QStringLiteral("all") : QStringLiteral("%1..%2").arg(range.from).arg(range.to);
}

engine::Result<StepRange> parseStepRangeText(const QString& text)
{
    const QString t = text.trimmed();
    if (t.isEmpty() || t == QLatin1String("all"))
        return StepRange{};
    static const QRegularExpression range(QStringLiteral("^(-?\\d+)\\s*(?:\\.\\.\\s*(-?\\d+))?$"));
    const auto m = range.match(t);
    if (!m.hasMatch())
        return engine::Error{QObject::tr("Steps: '%1' is not \"all\", FROM..TO or FROM (negative counts from the end)")
                                 .arg(t)
                                 .toStdString()};
    StepRange r;
    r.from = m.captured(1).toLongLong();
    r.to = m.captured(2).isEmpty() ? -1 : m.captured(2).toLongLong();
    return r;
}

engine::Result<std::pair<std::uint64_t, std::uint64_t>>
resolveStepRange(const StepRange& range, std::uint64_t steps, const std::string& what, const std::string& key)
{
    const std::string where = what + ": " + key + ": ";
    if (steps < 2)
        return engine::Error{where + "the array holds one step, a single distribution; give \"row\" (or no key) "
                                     "instead of a range of steps"};
    const auto n = static_cast<qint64>(steps);
    const auto resolve = [n](qint64 i) { return i < 0 ? n + i : i; };
    const qint64 first = resolve(range.from);
    const qint64 last = resolve(range.to);
    const auto outside = [&](const char* end, qint64 given) {
        return engine::Error{where + end + " " + std::to_string(given) + " is outside the array's " +
                             std::to_string(n) + " steps (0.." + std::to_string(n - 1) + ", or -" + std::to_string(n) +
                             "..-1 from the end)"};
    };
    if (first < 0 || first >= n)
        return outside("from", range.from);
    if (last < 0 || last >= n)
        return outside("to", range.to);
    if (first > last)
        return engine::Error{where + "from " + std::to_string(range.from) + " (step " + std::to_string(first) +
                             ") is after to " + std::to_string(range.to) + " (step " + std::to_string(last) + ")"};
    return std::pair{static_cast<std::uint64_t>(first), static_cast<std::uint64_t>(last)};
}

}  // namespace logitlab::app
