#include "app/kinds/summation_job.h"

#include "engine/core/work_limits.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QObject>

#include <cmath>

namespace logitlab::app {

engine::WorkEstimate summationEstimate(const engine::SummationParameters& p, int threads)
{
    const bool listed = p.distribution == engine::TermDistribution::List;
    const double n = listed ? static_cast<double>(p.listed.size()) : static_cast<double>(p.n);
    const double methods = static_cast<double>(p.methods.size());
    const double shuffles = static_cast<double>(p.shuffles);
    engine::WorkEstimate e;
    e.unit = "terms summed";
    e.workLimit = engine::kMaxSummationTerms;
    e.work = n * (methods + shuffles);
    // The terms (wide and narrow), one shuffle buffer per worker, a result and a table row per sum.
    e.memoryBytes = n * (12.0 + 8.0 * std::max(1, threads)) + (methods + shuffles) * 160.0;
    e.outputRows = methods + shuffles + 64.0;
    e.chartPoints = 0.0;
    if (!listed && p.spreadMaxN > 0) {
        for (std::int64_t size = 100; size <= p.spreadMaxN; size *= 10) {
            const double k = static_cast<double>(engine::spreadShuffles(size, p.spreadTerms));
            e.work += static_cast<double>(size) * k;
            e.memoryBytes += static_cast<double>(size) * 12.0 + k * 16.0;
            e.outputRows += 1.0;
            e.chartPoints += k;
        }
    }
    return e;
}

SummationOutcome runSummation(const SummationSpec& spec, const QString& baseDir, const QString& source, int threads,
                              const WorkControl& control)
{
    QElapsedTimer timer;
    timer.start();
    SummationOutcome outcome;
    outcome.lesson = engine::lessonSums();
    auto parameters = toParameters(spec, baseDir);
    if (!parameters) {
        outcome.status = {RunStatus::State::Failed,
                          source + QStringLiteral(": ") + QString::fromStdString(parameters.error())};
        return outcome;
    }
    if (auto problem =
            engine::checkEstimate("shuffles", summationEstimate(parameters.value(), threads),
                                  "use fewer terms, fewer shuffles or fewer methods (terms x (methods + shuffles) "
                                  "are summed)")) {
        outcome.status = {RunStatus::State::Failed, source + QStringLiteral(": ") + QString::fromStdString(*problem)};
        return outcome;
    }
    const auto cancelled = [&control] { return control.isCancelled && control.isCancelled(); };
    auto prepared = engine::SummationExperiment::prepare(std::move(parameters).value(), cancelled);
    if (cancelled()) {
        outcome.status = {RunStatus::State::Cancelled, QStringLiteral("cancelled")};
        return outcome;
    }
    if (!prepared) {
        outcome.status = {RunStatus::State::Failed,
                          source + QStringLiteral(": ") + QString::fromStdString(prepared.error())};
        return outcome;
    }
    const engine::SummationExperiment& experiment = prepared.value();
    const int workers = std::max(1, threads);
    std::vector<engine::SummationExperiment::Scratch> scratch(static_cast<std::size_t>(workers));
    std::vector<double> results(experiment.itemCount());
    outcome.status = runWorkItems(
        experiment.itemCount(), workers,
        [&](int worker, std::size_t item) {
            results[item] = experiment.runItem(item, scratch[static_cast<std::size_t>(worker)]);
        },
        control);
    if (!outcome.status.finished())
        return outcome;
    outcome.summary = experiment.summarize(results);
    outcome.draws = experiment.itemCount();
    outcome.seconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    return outcome;
}

Provenance summationProvenance(const SummationSpec& spec, const QString& baseDir)
{
    Provenance p(summationKind().id());
    p.add(QStringLiteral("name"), spec.name)
        .add(QStringLiteral("terms"), describeTerms(spec, baseDir))
        .add(QStringLiteral("storage"), spec.storage)
        .add(QStringLiteral("accumulator"), spec.accumulator)
        .add(QStringLiteral("methods"), spec.methods.join(QLatin1Char(',')))
        .add(QStringLiteral("shuffles"), QString::number(spec.shuffles))
        .add(QStringLiteral("seed"), QString::number(spec.seed))
        .add(QStringLiteral("rng"), QStringLiteral("splitmix64 per term set and per shuffle, Lemire bounded integers"))
        .add(QStringLiteral("shape"),
             QStringLiteral("split=%1 lanes=%2 threads=%3").arg(spec.split).arg(spec.lanes).arg(spec.threads))
        .add(QStringLiteral("spread"),
             spec.spreadMaxN == 0
                 ? QStringLiteral("none")
                 : QStringLiteral("N=100..%1, %2 terms per N").arg(spec.spreadMaxN).arg(spec.spreadTerms))
        .add(QStringLiteral("reference"),
             QStringLiteral("exact sum (fixed-point superaccumulator), rounded once to nearest even"))
        .add(QStringLiteral("experiment-file"),
             QString::fromUtf8(QJsonDocument(toJson(spec)).toJson(QJsonDocument::Compact)));
    return p;
}

namespace {

using Kind = ResultColumn::Kind;

// No number for a result that overflowed (its result reads inf) or became NaN.
QVariant ulpsCell(bool finite, std::int64_t ulps) { return finite ? QVariant(qint64(ulps)) : QVariant(); }

ResultTable methodsTable(const engine::SummationSummary& s)
{
    using Row = engine::SumMethodRow;
    const auto rows = sharedRows(s.methods);
    ResultTable t;
    t.title = QObject::tr("Methods");
    t.rows = rows->size();
    t.columns = {
        columnOf(
            rows, QStringLiteral("method"), QObject::tr("method"), Kind::Text,
            [](const Row& r) { return textCell(r.method); }, QObject::tr("The summation order.")),
        columnOf(
            rows, QStringLiteral("result"), QObject::tr("result"), Kind::Real,
            [](const Row& r) { return std::isnan(r.value) ? QVariant() : QVariant(r.value); },
            QObject::tr("The sum in the accumulator's format."), ResultColumn::kEveryDigit),
        columnOf(
            rows, QStringLiteral("bits"), QObject::tr("bits"), Kind::Text,
            [](const Row& r) { return textCell(r.bits); },
            QObject::tr("The result's bit pattern in the accumulator's format.")),
        columnOf(
            rows, QStringLiteral("error_ulps"), QObject::tr("error (ULPs)"), Kind::Integer,
            [](const Row& r) { return ulpsCell(r.finite, r.ulps); },
            QObject::tr("Representable numbers between the result and the exact sum, in the accumulator's format.")),
        columnOf(
            rows, QStringLiteral("error"), QObject::tr("error"), Kind::Real,
            [](const Row& r) { return r.finite ? QVariant(r.error) : QVariant(); },
            QObject::tr("result - exact sum (in float64).")),
        columnOf(
            rows, QStringLiteral("order"), QObject::tr("order"), Kind::Text,
            [](const Row& r) { return textCell(r.description); }, QObject::tr("What the order is.")),
    };
    return t;
}

ResultTable shufflesTable(const engine::SummationSummary& s)
{
    using Row = engine::ShuffleRow;
    const auto rows = sharedRows(s.shuffles);
    ResultTable t;
    t.suffix = QStringLiteral("-shuffles");
    t.title = QObject::tr("Shuffles");
    t.rows = rows->size();
    t.columns = {
        columnOf(
            rows, QStringLiteral("shuffle"), QObject::tr("shuffle"), Kind::Integer,
            [](const Row& r) { return qint64(r.index); }, QObject::tr("The shuffle's number k.")),
        columnOf(
            rows, QStringLiteral("seed"), QObject::tr("seed"), Kind::Text,
            [](const Row& r) { return QString::number(r.seed); }, QObject::tr("The shuffle's own stream seed.")),
        columnOf(
            rows, QStringLiteral("result"), QObject::tr("result"), Kind::Real,
            [](const Row& r) { return std::isnan(r.value) ? QVariant() : QVariant(r.value); },
            QObject::tr("The sum in this random order."), ResultColumn::kEveryDigit),
        columnOf(
            rows, QStringLiteral("bits"), QObject::tr("bits"), Kind::Text,
            [](const Row& r) { return textCell(r.bits); }, QObject::tr("The result's bits.")),
        columnOf(
            rows, QStringLiteral("error_ulps"), QObject::tr("error (ULPs)"), Kind::Integer,
            [](const Row& r) { return ulpsCell(r.finite, r.ulps); },
            QObject::tr("Distance from the exact sum in ULPs.")),
    };
    return t;
}

ResultTable histogramTable(const engine::SummationSummary& s)
{
    using Row = engine::UlpBin;
    const auto rows = sharedRows(s.histogram);
    ResultTable t;
    t.suffix = QStringLiteral("-histogram");
    t.title = QObject::tr("Histogram");
    t.rows = rows->size();
    t.columns = {
        columnOf(
            rows, QStringLiteral("ulps_low"), QObject::tr("from (ULPs)"), Kind::Integer,
            [](const Row& r) { return qint64(r.low); }, QObject::tr("The bin's lowest error in ULPs.")),
        columnOf(
            rows, QStringLiteral("ulps_high"), QObject::tr("to (ULPs)"), Kind::Integer,
            [](const Row& r) { return qint64(r.high); }, QObject::tr("The bin's highest error in ULPs.")),
        columnOf(
            rows, QStringLiteral("shuffles"), QObject::tr("shuffles"), Kind::Integer,
            [](const Row& r) { return qint64(r.count); }, QObject::tr("Random orders whose result lies in the bin.")),
    };
    return t;
}

ResultTable spreadTable(const engine::SummationSummary& s)
{
    using Row = engine::SpreadRow;
    const auto rows = sharedRows(s.spread);
    ResultTable t;
    t.suffix = QStringLiteral("-spread");
    t.title = QObject::tr("Spread vs N");
    t.rows = rows->size();
    t.columns = {
        columnOf(
            rows, QStringLiteral("n"), QObject::tr("N"), Kind::Integer, [](const Row& r) { return qint64(r.n); },
            QObject::tr("Terms summed.")),
        columnOf(
            rows, QStringLiteral("shuffles"), QObject::tr("shuffles"), Kind::Integer,
            [](const Row& r) { return qint64(r.shuffles); }, QObject::tr("Random orders tried at this N.")),
        columnOf(
            rows, QStringLiteral("distinct"), QObject::tr("distinct results"), Kind::Integer,
            [](const Row& r) { return qint64(r.distinct); }, QObject::tr("Different results over the orders.")),
        columnOf(
            rows, QStringLiteral("min_ulps"), QObject::tr("min (ULPs)"), Kind::Integer,
            [](const Row& r) { return qint64(r.minUlps); }, QObject::tr("The lowest result's error in ULPs.")),
        columnOf(
            rows, QStringLiteral("max_ulps"), QObject::tr("max (ULPs)"), Kind::Integer,
            [](const Row& r) { return qint64(r.maxUlps); }, QObject::tr("The highest result's error in ULPs.")),
        columnOf(
            rows, QStringLiteral("spread_ulps"), QObject::tr("spread (ULPs)"), Kind::Integer,
            [](const Row& r) { return qint64(r.spreadUlps); }, QObject::tr("max - min, in ULPs.")),
        columnOf(
            rows, QStringLiteral("relative_spread"), QObject::tr("relative spread"), Kind::Real,
            [](const Row& r) { return r.relativeSpread; }, QObject::tr("(max - min) / |exact sum|.")),
        columnOf(
            rows, QStringLiteral("exact"), QObject::tr("exact sum"), Kind::Real, [](const Row& r) { return r.exact; },
            QObject::tr("The exact sum of this N's terms (in float64).")),
    };
    return t;
}

ResultTable lessonTable(const std::vector<engine::LessonSum>& lesson)
{
    using Row = engine::LessonSum;
    const auto rows = sharedRows(lesson);
    ResultTable t;
    t.suffix = QStringLiteral("-lesson");
    t.title = QObject::tr("Lesson");
    t.rows = rows->size();
    t.columns = {
        columnOf(
            rows, QStringLiteral("expression"), QObject::tr("expression"), Kind::Text,
            [](const Row& r) { return textCell(r.expression); },
            QObject::tr("Evaluated in float64, in the order written.")),
        columnOf(
            rows, QStringLiteral("value"), QObject::tr("value"), Kind::Text,
            [](const Row& r) { return textCell(r.shortest); },
            QObject::tr("The shortest decimal that reads back to the result.")),
        columnOf(
            rows, QStringLiteral("bits"), QObject::tr("bits"), Kind::Text,
            [](const Row& r) { return textCell(r.bits); }, QObject::tr("The result's float64 bits.")),
        columnOf(
            rows, QStringLiteral("why"), QObject::tr("why"), Kind::Text,
            [](const Row& r) { return textCell(r.explanation); }, QObject::tr("What the rounding did.")),
    };
    return t;
}

}  // namespace

std::vector<ResultTable> summationTables(const SummationOutcome& outcome)
{
    // Tables without rows are left out: no shuffles (K = 0), no spread asked for.
    std::vector<ResultTable> tables{methodsTable(outcome.summary)};
    if (!outcome.summary.shuffles.empty())
        tables.push_back(shufflesTable(outcome.summary));
    if (!outcome.summary.histogram.empty())
        tables.push_back(histogramTable(outcome.summary));
    if (!outcome.summary.spread.empty())
        tables.push_back(spreadTable(outcome.summary));
    tables.push_back(lessonTable(outcome.lesson));
    return tables;
}

ExperimentResult summationResult(const SummationSpec& spec, const QString& baseDir, SummationOutcome outcome,
                                 int threads)
{
    ExperimentResult result = resultOf(summationKind().id(), spec.name, outcome.status);
    if (!result.status.finished())
        return result;
    result.provenance = summationProvenance(spec, baseDir);
    result.tables = summationTables(outcome);
    const auto& s = outcome.summary;
    result.summary = QObject::tr("%1: %2 terms in %3 summed in %4: %5 distinct results over %6 shuffles "
                                 "(%7 over every order); %8 orders in %9 s on %10 threads")
                         .arg(spec.name)
                         .arg(s.terms)
                         .arg(spec.storage, spec.accumulator)
                         .arg(s.distinctShuffles)
                         .arg(spec.shuffles)
                         .arg(s.distinctAll)
                         .arg(outcome.draws)
                         .arg(outcome.seconds, 0, 'f', 2)
                         .arg(threads);
    if (s.nonFiniteShuffles > 0)
        result.summary += QObject::tr("; %1 of the %2 shuffles are not finite (overflow) and outside the histogram")
                              .arg(s.nonFiniteShuffles)
                              .arg(spec.shuffles);
    result.details = std::make_shared<const SummationRun>(SummationRun{spec, std::move(outcome)});
    return result;
}

}  // namespace logitlab::app
