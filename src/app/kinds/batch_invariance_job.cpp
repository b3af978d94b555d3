#include "app/kinds/batch_invariance_job.h"

#include "app/io/gguf_model_file.h"

#include "app/kinds/result_table.h"
#include "app/text/counted.h"
#include "engine/core/work_limits.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QObject>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>

namespace logitlab::app {

namespace {

using engine::BatchDecode;
using engine::TopTwo;

RunStatus cancelledStatus() { return {RunStatus::State::Cancelled, QStringLiteral("cancelled")}; }

// A step's runner calls: one progress bar over every step of both plans.
struct StepProgress {
    const WorkControl& outer;
    std::size_t before = 0;  // items done in earlier steps

    WorkControl forStep() const
    {
        WorkControl c;
        c.isCancelled = outer.isCancelled;
        if (outer.progress)
            c.progress = [this](std::size_t done) { outer.progress(before + done); };
        return c;
    }
};

RunStatus runDecode(BatchDecode::Decode& decode, int threads, StepProgress& progress)
{
    while (!decode.done()) {
        std::vector<std::vector<TopTwo>> results(decode.itemCount());
        const RunStatus status = runWorkItems(
            results.size(), threads, [&](int, std::size_t item) { results[item] = decode.evaluate(item); },
            progress.forStep());
        if (!status.finished())
            return status;
        decode.advance(results);
        progress.before += results.size();
    }
    return {};
}

double millisecondsOf(const std::function<void()>& work)
{
    // The faster of two runs: the first may pay for page faults and a cold cache.
    double best = INFINITY;
    for (int i = 0; i < 2; ++i) {
        QElapsedTimer timer;
        timer.start();
        work();
        best = std::min(best, static_cast<double>(timer.nsecsElapsed()) / 1e6);
    }
    return best;
}

// The whole LM head for full batches of the powers of two up to the trace's largest batch,
// under each plan; the ratio weights each measured size by the trace steps it stands for
// (sizes in (b/2, b]).
void measureCost(const BatchDecode& decode, const engine::KernelPlan& plan, BatchInvarianceOutcome& outcome,
                 const std::function<bool()>& cancelled)
{
    const auto& p = decode.parameters();
    std::map<qint64, qint64> counts;
    for (std::int64_t r = 0; r < p.runs; ++r)
        for (std::int64_t t = 0; t < p.steps; ++t)
            ++counts[decode.batchAt(r, t)];
    const qint64 largest = counts.rbegin()->first;
    std::vector<qint64> sizes;
    for (qint64 b = 1; b < largest; b *= 2)
        sizes.push_back(b);
    sizes.push_back(largest);
    const engine::ToyLanguageModel& model = decode.model();
    double variableTotal = 0.0;
    double invariantTotal = 0.0;
    qint64 below = 0;
    for (const qint64 b : sizes) {
        if (cancelled())
            return;
        engine::HeadMatrix H(model.hidden(), b);
        for (qint64 j = 0; j < b; ++j)
            H.col(j) = model.next(model.initialState(), static_cast<std::int32_t>(j % model.vocabulary()), j);
        const engine::HeadKernel kernel = plan.kernelFor(b);
        BatchCostRow row;
        row.batch = b;
        row.variableKernel = QString::fromStdString(kernel.name());
        row.variableMs = millisecondsOf([&] { (void)engine::applyHeadKernel(model.head(), H, kernel); });
        row.invariantMs = millisecondsOf([&] {
            (void)engine::applyHeadKernel(model.head(), H, {engine::HeadKernel::Kind::Invariant, 1});
        });
        qint64 steps = 0;
        for (auto it = counts.upper_bound(below); it != counts.end() && it->first <= b; ++it)
            steps += it->second;
        below = b;
        variableTotal += static_cast<double>(steps) * row.variableMs;
        invariantTotal += static_cast<double>(steps) * row.invariantMs;
        outcome.costs.push_back(row);
    }
    outcome.costRatio = variableTotal > 0.0 ? invariantTotal / variableTotal : 0.0;
}

void runOneStep(const BatchInvarianceSpec& spec, int threads, const WorkControl& control,
                BatchInvarianceOutcome& outcome)
{
    const auto parameters = toFlipParameters(spec);
    auto prepared = engine::BatchFlip::prepare(parameters.value());
    if (!prepared) {
        outcome.status = {RunStatus::State::Failed, QString::fromStdString(prepared.error())};
        return;
    }
    const engine::BatchFlip& flip = prepared.value();
    const auto cancelled = [&control] { return control.isCancelled && control.isCancelled(); };
    std::vector<std::vector<engine::FlipPoint>> items(flip.searchItemCount());
    outcome.status = runWorkItems(
        items.size(), threads, [&](int, std::size_t item) { items[item] = flip.runSearchItem(item, cancelled); },
        control);
    if (!outcome.status.finished())
        return;
    if (cancelled()) {
        outcome.status = cancelledStatus();
        return;
    }
    for (auto& points : items)
        outcome.points.insert(outcome.points.end(), points.begin(), points.end());
    for (std::size_t precision = 0; precision < parameters.value().precisions.size(); ++precision) {
        const auto rows = flip.flipMap(precision, outcome.points, cancelled);
        outcome.flips.insert(outcome.flips.end(), rows.begin(), rows.end());
        for (const std::string& pair : flip.equalKernels(precision, outcome.points))
            outcome.equalKernels << spec.precisions.value(static_cast<qsizetype>(precision)) + QStringLiteral(": ") +
                                        QString::fromStdString(pair);
    }
    if (cancelled()) {
        outcome.status = cancelledStatus();
        return;
    }
    const auto kernels = static_cast<std::uint64_t>(parameters.value().plan.kernels(spec.maxBatch).size() + 1);
    outcome.draws = static_cast<std::uint64_t>(outcome.points.size()) * kernels;
}

void runDecodeStudy(const BatchInvarianceSpec& spec, const QString& baseDir, const QString& source, int threads,
                    const WorkControl& control, BatchInvarianceOutcome& outcome)
{
    const auto parameters = toDecodeParameters(spec, baseDir, source);
    if (!parameters) {
        outcome.status = {RunStatus::State::Failed, QString::fromStdString(parameters.error())};
        return;
    }
    auto prepared = BatchDecode::prepare(parameters.value());
    if (!prepared) {
        outcome.status = {RunStatus::State::Failed,
                          source + QStringLiteral(": ") + QString::fromStdString(prepared.error())};
        return;
    }
    const BatchDecode& decode = prepared.value();
    const auto cancelled = [&control] { return control.isCancelled && control.isCancelled(); };
    BatchDecode::Decode variable(decode, parameters.value().plan);
    BatchDecode::Decode invariant(decode, engine::KernelPlan::invariant());
    if (control.started)
        control.started(2 * static_cast<std::size_t>(spec.steps) * variable.itemCount());
    StepProgress progress{control};
    QElapsedTimer timer;
    timer.start();
    outcome.status = runDecode(variable, threads, progress);
    if (!outcome.status.finished())
        return;
    outcome.variableSeconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    timer.restart();
    outcome.status = runDecode(invariant, threads, progress);
    if (!outcome.status.finished())
        return;
    outcome.invariantSeconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    outcome.decode = decode.rows(variable, invariant);
    outcome.plan = QString::fromStdString(parameters.value().plan.describe());
    outcome.draws = static_cast<std::uint64_t>(variable.evaluations() + invariant.evaluations());
    if (spec.measureCost)
        measureCost(decode, parameters.value().plan, outcome, cancelled);
    if (cancelled())
        outcome.status = cancelledStatus();
}

}  // namespace

engine::WorkEstimate batchInvarianceEstimate(const BatchInvarianceSpec& spec, int threads)
{
    const double v = static_cast<double>(spec.vocabulary);
    const double h = static_cast<double>(spec.hidden);
    const double head = v * h;  // multiply-adds of one state's logits
    const double kernels = static_cast<double>(toKernelPlan(spec).kernels(spec.maxBatch).size() + 1);
    engine::WorkEstimate e;
    e.unit = "multiply-adds";
    e.workLimit = engine::kMaxBatchInvarianceMultiplyAdds;
    if (spec.study == BatchInvarianceSpec::Study::OneStep) {
        const double precisions = static_cast<double>(std::max<qsizetype>(1, spec.precisions.size()));
        const double points =
            precisions * static_cast<double>(spec.searchPrompts) * static_cast<double>(spec.searchSteps);
        // Every kernel at every state of the search, then each precision's walk to its near tie
        // and the batch sizes there.
        e.work = points * kernels * head +
                 precisions * (static_cast<double>(spec.searchSteps) + static_cast<double>(spec.maxBatch)) * head;
        e.memoryBytes =
            precisions * head * 4.0 + points * 128.0 + static_cast<double>(std::max(1, threads)) * kernels * v * 4.0;
        e.outputRows = points + precisions * static_cast<double>(spec.maxBatch);
        e.chartPoints = points;
    } else {
        const double runs = static_cast<double>(spec.runs);
        const double steps = static_cast<double>(spec.steps);
        // As if every run left the others at its first step: each run's state evaluated at every
        // step under both plans (runs that share a prefix share the work, so this is the most).
        e.work = 2.0 * runs * steps * head;
        if (spec.measureCost)
            e.work += 4.0 * 2.0 * static_cast<double>(spec.maxBatch) * head;  // each plan twice, sizes summing to 2 B
        // The head, a state per trie node (at most one per run and step), the per-step node and
        // trace tables, the logits of a step's states.
        e.memoryBytes =
            head * 4.0 + runs * steps * (h * 4.0 + 96.0) + static_cast<double>(std::max(1, threads)) * v * 64.0;
        e.outputRows = runs * 2.0 + steps;
        e.chartPoints = std::max(runs, steps) * 2.0;
    }
    return e;
}

BatchInvarianceOutcome runBatchInvariance(const BatchInvarianceSpec& spec, const QString& baseDir,
                                          const QString& source, int threads, const WorkControl& control)
{
    QElapsedTimer timer;
    timer.start();
    BatchInvarianceOutcome outcome;
    outcome.spec = spec;
    outcome.plan = QString::fromStdString(toKernelPlan(spec).describe());
    if (spec.study == BatchInvarianceSpec::Study::ModelDecode) {
        // Bounded by the model's passes (runModelDecode checks them before the first).
        outcome.model = runModelDecode(spec, baseDir, std::max(1, threads), control);
        outcome.status = outcome.model.status;
        outcome.draws = outcome.model.passes;
        outcome.seconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
        return outcome;
    }
    if (auto problem = engine::checkEstimate(
            (source + QStringLiteral(": model")).toStdString(), batchInvarianceEstimate(spec, threads),
            spec.study == BatchInvarianceSpec::Study::OneStep
                ? "use a smaller model (vocabulary x hidden), fewer prompts or steps, or fewer precisions"
                : "use a smaller model (vocabulary x hidden), fewer runs or fewer steps")) {
        outcome.status = {RunStatus::State::Failed, QString::fromStdString(*problem)};
        return outcome;
    }
    if (spec.study == BatchInvarianceSpec::Study::OneStep)
        runOneStep(spec, std::max(1, threads), control, outcome);
    else
        runDecodeStudy(spec, baseDir, source, std::max(1, threads), control, outcome);
    outcome.seconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    return outcome;
}

Provenance batchInvarianceProvenance(const BatchInvarianceSpec& spec, const QString& baseDir)
{
    Provenance p(batchInvarianceKind().id());
    p.add(QStringLiteral("name"), spec.name).add(QStringLiteral("study"), spec.studyName());
    if (spec.study == BatchInvarianceSpec::Study::ModelDecode) {
        p.add(QStringLiteral("model-file"), ggufFileProvenance(spec.modelFile, baseDir))
            .add(QStringLiteral("prompt"), spec.promptText)
            .add(QStringLiteral("steps"), QString::number(spec.steps))
            .add(QStringLiteral("plan"), QString::fromStdString(toKernelPlan(spec).describe()))
            .add(QStringLiteral("kernels"),
                 QStringLiteral("eigen-gemv, invariant: one pass a row, quantised rows block by block; eigen-gemm: "
                                "quantised rows dequantised first; split-k-S: S slices a row (batch_model_decode.h)"))
            .add(QStringLiteral("decoding"), QStringLiteral("greedy (argmax, ties to the lower id)"))
            .add(QStringLiteral("max-batch"), QString::number(spec.maxBatch))
            .add(QStringLiteral("experiment-file"),
                 QString::fromUtf8(QJsonDocument(toJson(spec)).toJson(QJsonDocument::Compact)));
        return p;
    }
    p.add(QStringLiteral("model"),
          QStringLiteral("toy LM, V = %1, d = %2, seed %3, twin share %4, twin distance %5, logit scale %6")
              .arg(spec.vocabulary)
              .arg(spec.hidden)
              .arg(spec.modelSeed)
              .arg(spec.twinShare)
              .arg(spec.twinDistance)
              .arg(spec.logitScale))
        .add(QStringLiteral("plan"), QString::fromStdString(toKernelPlan(spec).describe()))
        .add(QStringLiteral("kernel-tile-rows"), QString::number(engine::kHeadTileRows))
        .add(QStringLiteral("max-batch"), QString::number(spec.maxBatch));
    if (spec.study == BatchInvarianceSpec::Study::OneStep) {
        p.add(QStringLiteral("precisions"), spec.precisions.join(QLatin1Char(',')))
            .add(QStringLiteral("search"), QStringLiteral("seed %1, %2 prompts of %3 tokens, %4 steps each")
                                               .arg(spec.searchSeed)
                                               .arg(spec.searchPrompts)
                                               .arg(spec.promptLength)
                                               .arg(spec.searchSteps));
    } else {
        QString trace = QStringLiteral("seeded, seed %1").arg(spec.traceSeed);
        if (!spec.traceFile.isEmpty())
            trace = QStringLiteral("file %1 (run r starts at line r)").arg(spec.traceFile);
        else if (!spec.traceSizes.isEmpty())
            trace = QStringLiteral("%1 inline sizes (run r starts at size r)").arg(spec.traceSizes.size());
        p.add(QStringLiteral("precision"), spec.precision)
            .add(QStringLiteral("prompt"),
                 QStringLiteral("seed %1, %2 tokens").arg(spec.promptSeed).arg(spec.promptLength))
            .add(QStringLiteral("runs"), QString::number(spec.runs))
            .add(QStringLiteral("steps"), QString::number(spec.steps))
            .add(QStringLiteral("trace"), trace);
    }
    p.add(QStringLiteral("experiment-file"),
          QString::fromUtf8(QJsonDocument(toJson(spec)).toJson(QJsonDocument::Compact)));
    return p;
}

QString batchInvarianceSummary(const BatchInvarianceOutcome& outcome)
{
    const auto& spec = outcome.spec;
    if (spec.study == BatchInvarianceSpec::Study::ModelDecode) {
        QStringList diverged;
        for (const auto& row : outcome.model.rows)
            if (row.firstDivergent >= 0)
                diverged << QObject::tr("%1 (step %2)").arg(row.batch).arg(row.firstDivergent);
        return QObject::tr("%1: %2 greedy steps after a prompt of %3 tokens; %4")
            .arg(spec.name)
            .arg(spec.steps)
            .arg(outcome.model.promptTokens)
            .arg(diverged.isEmpty()
                     ? QObject::tr("every batch size gives the invariant kernel's reply")
                     : QObject::tr("batch sizes leaving the invariant kernel's reply: %1").arg(diverged.join(", ")));
    }
    if (spec.study == BatchInvarianceSpec::Study::OneStep) {
        QStringList parts;
        for (const QString& precision : spec.precisions) {
            QStringList flipped;
            for (const auto& row : outcome.flips)
                if (QString::fromStdString(row.precision) == precision && row.flipped)
                    flipped << QString::number(row.batch);
            parts << QObject::tr("%1: %2").arg(
                precision, flipped.isEmpty() ? QObject::tr("no batch size flips")
                                             : QObject::tr("batch sizes %1 flip").arg(flipped.join(QLatin1Char(','))));
        }
        QString equal;
        if (!outcome.equalKernels.isEmpty())
            equal = QObject::tr("; kernels giving equal bits on this build (choosing between them changes nothing): %1")
                        .arg(outcome.equalKernels.join(QStringLiteral(", ")));
        return QObject::tr("%1: nearest tie per precision; %2%3")
            .arg(spec.name, parts.join(QStringLiteral("; ")), equal);
    }
    const auto& s = outcome.decode.summary;
    QString cost;
    if (!outcome.costs.empty())
        cost = QObject::tr("; the invariant kernel costs %1x the variable plan on this load")
                   .arg(outcome.costRatio, 0, 'f', 2);
    return QObject::tr(
               "%1: %2 runs x %3 steps: %4 distinct completions under the variable plan (common prefix %5 tokens), "
               "%6 under the invariant plan%7")
        .arg(spec.name)
        .arg(spec.runs)
        .arg(spec.steps)
        .arg(s.distinctVariable)
        .arg(s.commonPrefix)
        .arg(s.distinctInvariant)
        .arg(cost);
}

ExperimentResult batchInvarianceResult(const BatchInvarianceSpec& spec, const QString& baseDir,
                                       BatchInvarianceOutcome outcome, int threads)
{
    ExperimentResult result = resultOf(batchInvarianceKind().id(), spec.name, outcome.status);
    if (!result.status.finished())
        return result;
    result.provenance = batchInvarianceProvenance(spec, baseDir);
    result.tables = batchInvarianceTables(outcome);
    result.summary =
        batchInvarianceSummary(outcome) +
        QObject::tr(" (%1 s on %2)").arg(outcome.seconds, 0, 'f', 2).arg(counted(threads, "thread", "threads"));
    result.details = std::make_shared<const BatchInvarianceOutcome>(std::move(outcome));
    return result;
}

}  // namespace logitlab::app
