#include "app/kinds/step_sweep_job.h"

#include "app/io/input_file.h"
#include "app/io/logits_array.h"
#include "app/text/counted.h"
#include "engine/core/work_limits.h"
#include "engine/experiments/step_entropy.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QObject>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace logitlab::app {

namespace {

QVariant optionalReal(const std::optional<double>& value) { return value ? QVariant(*value) : QVariant(); }

}  // namespace

SeedSweepSpec stepSpec(const SeedSweepSpec& spec, std::uint64_t step)
{
    SeedSweepSpec one = spec;
    one.distribution.steps.reset();
    one.distribution.row = static_cast<qint64>(step);
    return one;
}

StepSweepRow stepSweepRow(std::uint64_t step, double entropyBits, const SeedSweepOutcome& outcome)
{
    const auto& s = outcome.summary;
    StepSweepRow row;
    row.step = step;
    row.entropyBits = entropyBits;
    row.outcomes = s.tokens.size();
    row.distinctDrawn = static_cast<std::uint64_t>(
        std::count_if(s.tokens.begin(), s.tokens.end(), [](const engine::TokenSpread& t) { return t.pooled > 0; }));
    row.pooledBins = s.pooledBins;
    if (s.tested() && s.chiSquareUniformity.tested)
        row.ksP = s.chiSquareUniformity.pValue;
    if (s.tested() && s.pooledChiSquare.tested)
        row.pooledP = s.pooledChiSquare.pValue;
    row.noTest = QString::fromStdString(s.noTest);
    const auto most = std::max_element(
        s.tokens.begin(), s.tokens.end(),
        [](const engine::TokenSpread& a, const engine::TokenSpread& b) { return a.pooled < b.pooled; });
    if (most != s.tokens.end())
        row.mostDrawn = outcome.tokenNames.value(static_cast<qsizetype>(most - s.tokens.begin()));
    row.consistent = seedSweepConsistent(s);
    return row;
}

engine::WorkEstimate stepSweepEstimate(const SeedSweepSpec& spec, std::uint64_t steps, std::size_t vocabulary)
{
    const double n = static_cast<double>(steps);
    const double seeds = static_cast<double>(spec.seeds().size());
    engine::WorkEstimate e;
    e.unit = "draws";
    e.workLimit = engine::kMaxSeedSweepDraws;
    e.work = n * seeds * static_cast<double>(spec.draws);
    // One step's sweep at a time: its counts (seeds x tokens) and a row per step.
    e.memoryBytes = seeds * static_cast<double>(vocabulary) * 8.0 + n * 256.0;
    e.outputRows = n;
    e.chartPoints = n;
    return e;
}

StepSweepOutcome runStepSweep(const SeedSweepSpec& spec, const QString& baseDir, const QString& source, int threads,
                              const WorkControl& control)
{
    QElapsedTimer timer;
    timer.start();
    StepSweepOutcome outcome;
    const auto fail = [&outcome](const QString& message) {
        outcome.status = {RunStatus::State::Failed, message};
        return outcome;
    };
    const DistributionSpec& d = spec.distribution;
    if (d.kind != DistributionSpec::Kind::File || !d.steps)
        return fail(source +
                    QStringLiteral(": distribution.steps: a sweep over steps needs a logits file with \"steps\""));
    const QString path = resolvedPath(d.path, baseDir);
    // Opened once for the shape and each step's entropy: the rows are read from the mapping
    // one at a time, never the whole array.
    auto array = LogitsArray::open(path, d.array);
    if (!array)
        return fail(source + QStringLiteral(": distribution: ") + QString::fromStdString(array.error()));
    const auto range =
        resolveStepRange(*d.steps, array->layout().steps(), (source + QStringLiteral(": distribution")).toStdString());
    if (!range)
        return fail(QString::fromStdString(range.error()));
    const auto batch = engine::resolveRow(array->layout(), {d.batch, static_cast<std::int64_t>(range->first)});
    if (!batch)
        return fail(source + QStringLiteral(": distribution.batch: ") + QString::fromStdString(batch.error()));
    const std::uint64_t first = range->first;
    const std::uint64_t count = range->second - range->first + 1;
    // Every step is a whole seed sweep: the limits hold for the steps together, not per step.
    if (auto problem =
            engine::checkEstimate((source + QStringLiteral(": distribution.steps")).toStdString(),
                                  stepSweepEstimate(spec, count, array->layout().vocabulary()),
                                  "sweep fewer steps (a range such as \"0-99\"), fewer seeds or fewer draws"))
        return fail(QString::fromStdString(*problem));
    if (control.started)
        control.started(static_cast<std::size_t>(count));
    WorkControl inner;
    inner.isCancelled = control.isCancelled;
    for (std::uint64_t i = 0; i < count; ++i) {
        if (control.isCancelled && control.isCancelled()) {
            outcome.status = {RunStatus::State::Cancelled, QStringLiteral("cancelled")};
            return outcome;
        }
        const std::uint64_t step = first + i;
        const auto logits = array->row(batch->first, step);
        if (!logits)
            return fail(source + QStringLiteral(": distribution: ") + QString::fromStdString(logits.error()));
        const double entropyBits = engine::logitsEntropy(*logits) / std::numbers::ln2;
        const SeedSweepOutcome one = runSeedSweep(stepSpec(spec, step), baseDir, source, threads, inner);
        if (!one.status.finished()) {
            outcome.status = one.status;
            return outcome;
        }
        outcome.rows.push_back(stepSweepRow(step, entropyBits, one));
        outcome.draws += one.draws;
        if (control.progress)
            control.progress(static_cast<std::size_t>(i + 1));
    }
    outcome.seconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    return outcome;
}

ExperimentResult stepSweepResult(const SeedSweepSpec& spec, const QString& baseDir, StepSweepOutcome outcome,
                                 int threads)
{
    ExperimentResult result = resultOf(seedSweepKind().id(), spec.name, outcome.status);
    if (!result.status.finished())
        return result;
    Provenance p = seedSweepProvenance(spec, baseDir);
    const auto tested = std::count_if(outcome.rows.begin(), outcome.rows.end(),
                                      [](const StepSweepRow& r) { return r.ksP.has_value(); });
    const auto consistent =
        std::count_if(outcome.rows.begin(), outcome.rows.end(), [](const StepSweepRow& r) { return r.consistent; });
    p.add(QStringLiteral("result: steps swept"), QString::number(outcome.rows.size()))
        .add(QStringLiteral("result: steps with a valid test"), QString::number(tested))
        .add(QStringLiteral("result: steps consistent with a correct sampler (KS p >= %1)").arg(kSeedSweepAlpha),
             QString::number(consistent));
    result.provenance = p;
    result.summary = QObject::tr("%1: %2 x %3 x %4 in %5 s on %6; %7 of %8 tested steps consistent")
                         .arg(spec.name)
                         .arg(counted(qint64(outcome.rows.size()), "step", "steps"))
                         .arg(counted(qint64(spec.seeds().size()), "seed", "seeds"))
                         .arg(counted(qint64(spec.draws), "draw", "draws"))
                         .arg(outcome.seconds, 0, 'f', 2)
                         .arg(counted(threads, "thread", "threads"))
                         .arg(consistent)
                         .arg(tested);
    auto run = std::make_shared<const StepSweepRun>(StepSweepRun{spec, std::move(outcome)});
    result.tables = {stepSweepTable(std::shared_ptr<const StepSweepOutcome>(run, &run->outcome))};
    result.details = run;
    return result;
}

ResultTable stepSweepTable(std::shared_ptr<const StepSweepOutcome> outcome)
{
    using Kind = ResultColumn::Kind;
    const auto rows = std::shared_ptr<const std::vector<StepSweepRow>>(outcome, &outcome->rows);
    ResultTable table;
    table.title = QObject::tr("Per step");
    table.rows = outcome->rows.size();
    table.columns = {
        columnOf(
            rows, QStringLiteral("step"), QObject::tr("step"), Kind::Integer,
            [](const StepSweepRow& r) { return qint64(r.step); }, QObject::tr("0-based step of the file's array.")),
        columnOf(
            rows, QStringLiteral("entropy_bits"), QObject::tr("entropy (bits)"), Kind::Real,
            [](const StepSweepRow& r) { return r.entropyBits; },
            QObject::tr("Entropy of the step's logits at T = 1, before the chain."), 3),
        columnOf(
            rows, QStringLiteral("outcomes"), QObject::tr("tokens left"), Kind::Integer,
            [](const StepSweepRow& r) { return qint64(r.outcomes); },
            QObject::tr("Tokens the chain leaves with p > 0 at this step.")),
        columnOf(
            rows, QStringLiteral("distinct_drawn"), QObject::tr("distinct drawn"), Kind::Integer,
            [](const StepSweepRow& r) { return qint64(r.distinctDrawn); },
            QObject::tr("Of those, the tokens drawn at least once over every seed.")),
        columnOf(
            rows, QStringLiteral("pooled_bins"), QObject::tr("bins"), Kind::Integer,
            [](const StepSweepRow& r) { return qint64(r.pooledBins); },
            QObject::tr("Bins of the per-seed tests after pooling tokens expecting fewer than 5 draws.")),
        columnOf(
            rows, QStringLiteral("ks_p"), QObject::tr("KS p"), Kind::Real,
            [](const StepSweepRow& r) { return optionalReal(r.ksP); },
            QObject::tr("KS test of the per-seed chi-square p-values; empty where no test is valid."), 4),
        columnOf(
            rows, QStringLiteral("pooled_chi_square_p"), QObject::tr("pooled chi-square p"), Kind::Real,
            [](const StepSweepRow& r) { return optionalReal(r.pooledP); },
            QObject::tr("All seeds' draws against the claimed probabilities; empty where no test is valid."), 4),
        columnOf(
            rows, QStringLiteral("no_test"), QObject::tr("why no test"), Kind::Text,
            [](const StepSweepRow& r) { return r.noTest; },
            QObject::tr("Why the step has no valid test (empty when it has one).")),
        columnOf(
            rows, QStringLiteral("most_drawn"), QObject::tr("most drawn"), Kind::Text,
            [](const StepSweepRow& r) { return r.mostDrawn; },
            QObject::tr("The token drawn most often over every seed.")),
    };
    return table;
}

}  // namespace logitlab::app
