// The batch-invariance result tables (declared in batch_invariance_job.h): the one-step
// study's flip map and its gap-vs-error points; the decode study's runs, divergences,
// completions and steps.
#include "app/kinds/batch_invariance_job.h"

#include "app/kinds/result_table.h"

#include <QObject>

namespace logitlab::app {

namespace {

using Kind = ResultColumn::Kind;

ResultTable flipTable(const std::vector<engine::FlipBatchRow>& rows)
{
    using Row = engine::FlipBatchRow;
    const auto data = sharedRows(rows);
    ResultTable t;
    t.title = QObject::tr("Flip map");
    t.rows = data->size();
    t.columns = {
        columnOf(
            data, QStringLiteral("precision"), QObject::tr("precision"), Kind::Text,
            [](const Row& r) { return textCell(r.precision); },
            QObject::tr("Storage precision of weights and states.")),
        columnOf(
            data, QStringLiteral("batch"), QObject::tr("batch"), Kind::Integer,
            [](const Row& r) { return qint64(r.batch); }, QObject::tr("Requests in the batch.")),
        columnOf(
            data, QStringLiteral("kernel"), QObject::tr("kernel"), Kind::Text,
            [](const Row& r) { return textCell(r.kernel); },
            QObject::tr("The kernel the plan uses for this batch size.")),
        columnOf(
            data, QStringLiteral("token"), QObject::tr("argmax"), Kind::Integer,
            [](const Row& r) { return qint64(r.token); }, QObject::tr("The greedy token under this kernel.")),
        columnOf(
            data, QStringLiteral("flipped"), QObject::tr("flipped"), Kind::Integer,
            [](const Row& r) { return qint64(r.flipped); },
            QObject::tr("1 when the argmax differs from batch size 1's.")),
        columnOf(
            data, QStringLiteral("differs_from_invariant"), QObject::tr("≠ invariant"), Kind::Integer,
            [](const Row& r) { return qint64(r.differsFromInvariant); },
            QObject::tr("1 when the argmax differs from the batch-invariant kernel's.")),
        columnOf(
            data, QStringLiteral("gap"), QObject::tr("gap"), Kind::Real, [](const Row& r) { return r.gap; },
            QObject::tr("Top-two logit gap under this kernel.")),
        columnOf(
            data, QStringLiteral("max_abs_difference"), QObject::tr("max |Δ| vs invariant"), Kind::Real,
            [](const Row& r) { return r.maxDifference; },
            QObject::tr("Largest |logit - invariant kernel's logit| over the vocabulary.")),
        columnOf(
            data, QStringLiteral("prompt"), QObject::tr("prompt"), Kind::Integer,
            [](const Row& r) { return qint64(r.prompt); }, QObject::tr("The searched prompt holding the near tie.")),
        columnOf(
            data, QStringLiteral("step"), QObject::tr("step"), Kind::Integer,
            [](const Row& r) { return qint64(r.step); }, QObject::tr("The decode step of that prompt.")),
    };
    return t;
}

ResultTable pointTable(const std::vector<engine::FlipPoint>& rows)
{
    using Row = engine::FlipPoint;
    const auto data = sharedRows(rows);
    ResultTable t;
    t.suffix = QStringLiteral("-points");
    t.title = QObject::tr("Gap vs error");
    t.rows = data->size();
    t.columns = {
        columnOf(data, QStringLiteral("precision"), QObject::tr("precision"), Kind::Text,
                 [](const Row& r) { return textCell(r.precision); }),
        columnOf(data, QStringLiteral("prompt"), QObject::tr("prompt"), Kind::Integer,
                 [](const Row& r) { return qint64(r.prompt); }),
        columnOf(data, QStringLiteral("step"), QObject::tr("step"), Kind::Integer,
                 [](const Row& r) { return qint64(r.step); }),
        columnOf(
            data, QStringLiteral("gap"), QObject::tr("gap"), Kind::Real, [](const Row& r) { return r.gap; },
            QObject::tr("Top-two logit gap under the invariant kernel.")),
        columnOf(
            data, QStringLiteral("error"), QObject::tr("reduction error"), Kind::Real,
            [](const Row& r) { return r.error; },
            QObject::tr("Largest spread of one logit across the kernels (max - min).")),
        columnOf(
            data, QStringLiteral("flipped"), QObject::tr("flipped"), Kind::Integer,
            [](const Row& r) { return qint64(r.flipped); }, QObject::tr("1 when the kernels disagree on the argmax.")),
        columnOf(data, QStringLiteral("token"), QObject::tr("argmax"), Kind::Integer,
                 [](const Row& r) { return qint64(r.token); }),
        columnOf(data, QStringLiteral("runner_up"), QObject::tr("runner-up"), Kind::Integer,
                 [](const Row& r) { return qint64(r.second); }),
    };
    return t;
}

ResultTable runTable(const std::vector<engine::DecodeRunRow>& rows, qint64 steps)
{
    using Row = engine::DecodeRunRow;
    const auto data = sharedRows(rows);
    ResultTable t;
    t.title = QObject::tr("Runs");
    t.rows = data->size();
    t.columns = {
        columnOf(data, QStringLiteral("run"), QObject::tr("run"), Kind::Integer,
                 [](const Row& r) { return qint64(r.run); }),
        columnOf(
            data, QStringLiteral("completion"), QObject::tr("completion"), Kind::Integer,
            [](const Row& r) { return qint64(r.completion); },
            QObject::tr("Which distinct completion the run gave (numbered by first run).")),
        columnOf(
            data, QStringLiteral("diverged"), QObject::tr("diverged"), Kind::Integer,
            [](const Row& r) { return qint64(r.firstDivergent >= 0); },
            QObject::tr("1 when the run's text differs from the batch-invariant completion.")),
        columnOf(
            data, QStringLiteral("prefix_with_reference"), QObject::tr("prefix with invariant"), Kind::Integer,
            [steps](const Row& r) { return r.firstDivergent >= 0 ? qint64(r.firstDivergent) : steps; },
            QObject::tr("Tokens shared with the batch-invariant completion (the first divergent step).")),
    };
    return t;
}

ResultTable divergenceTable(const std::vector<engine::DecodeRunRow>& all)
{
    using Row = engine::DecodeRunRow;
    std::vector<Row> rows;
    for (const Row& r : all)
        if (r.firstDivergent >= 0)
            rows.push_back(r);
    const auto data = sharedRows(rows);
    ResultTable t;
    t.suffix = QStringLiteral("-divergences");
    t.title = QObject::tr("Divergences");
    t.rows = data->size();
    t.columns = {
        columnOf(data, QStringLiteral("run"), QObject::tr("run"), Kind::Integer,
                 [](const Row& r) { return qint64(r.run); }),
        columnOf(
            data, QStringLiteral("step"), QObject::tr("step"), Kind::Integer,
            [](const Row& r) { return qint64(r.firstDivergent); },
            QObject::tr("First step whose token differs from the batch-invariant completion.")),
        columnOf(
            data, QStringLiteral("batch"), QObject::tr("batch"), Kind::Integer,
            [](const Row& r) { return qint64(r.batch); }, QObject::tr("The run's batch size at that step.")),
        columnOf(
            data, QStringLiteral("kernel"), QObject::tr("kernel"), Kind::Text,
            [](const Row& r) { return textCell(r.kernel); }, QObject::tr("The kernel that produced the run's token.")),
        columnOf(data, QStringLiteral("invariant_token"), QObject::tr("invariant token"), Kind::Integer,
                 [](const Row& r) { return qint64(r.referenceToken); }),
        columnOf(data, QStringLiteral("token"), QObject::tr("run's token"), Kind::Integer,
                 [](const Row& r) { return qint64(r.token); }),
        columnOf(
            data, QStringLiteral("invariant_gap"), QObject::tr("invariant gap"), Kind::Real,
            [](const Row& r) { return r.referenceGap; },
            QObject::tr("Top-two logit gap there under the invariant kernel.")),
        columnOf(
            data, QStringLiteral("kernel_gap"), QObject::tr("kernel gap"), Kind::Real,
            [](const Row& r) { return r.kernelGap; }, QObject::tr("Top-two logit gap there under the run's kernel.")),
    };
    return t;
}

ResultTable completionTable(const std::vector<engine::DecodeCompletionRow>& rows)
{
    using Row = engine::DecodeCompletionRow;
    const auto data = sharedRows(rows);
    ResultTable t;
    t.suffix = QStringLiteral("-completions");
    t.title = QObject::tr("Completions");
    t.rows = data->size();
    const auto tokens = [](const Row& r) {
        QStringList ids;
        for (const auto token : r.tokens)
            ids << QString::number(token);
        return ids.join(QLatin1Char(' '));
    };
    t.columns = {
        columnOf(data, QStringLiteral("completion"), QObject::tr("completion"), Kind::Integer,
                 [](const Row& r) { return qint64(r.completion); }),
        columnOf(
            data, QStringLiteral("runs"), QObject::tr("runs"), Kind::Integer,
            [](const Row& r) { return qint64(r.runs); }, QObject::tr("Runs that gave this completion.")),
        columnOf(
            data, QStringLiteral("prefix_with_reference"), QObject::tr("prefix with invariant"), Kind::Integer,
            [n = rows.empty() ? 0 : rows.front().tokens.size()](const Row& r) {
                return r.firstDivergent >= 0 ? qint64(r.firstDivergent) : qint64(n);
            },
            QObject::tr("Tokens shared with the batch-invariant completion.")),
        columnOf(data, QStringLiteral("tokens"), QObject::tr("token ids"), Kind::Text, tokens,
                 QObject::tr("The completion's token ids.")),
    };
    return t;
}

ResultTable stepTable(const std::vector<engine::DecodeStepRow>& rows)
{
    using Row = engine::DecodeStepRow;
    const auto data = sharedRows(rows);
    ResultTable t;
    t.suffix = QStringLiteral("-steps");
    t.title = QObject::tr("Steps");
    t.rows = data->size();
    t.columns = {
        columnOf(data, QStringLiteral("step"), QObject::tr("step"), Kind::Integer,
                 [](const Row& r) { return qint64(r.step); }),
        columnOf(
            data, QStringLiteral("distinct_states"), QObject::tr("distinct states"), Kind::Integer,
            [](const Row& r) { return qint64(r.distinctStates); },
            QObject::tr("Distinct prefixes the runs occupy before the step.")),
        columnOf(
            data, QStringLiteral("evaluations"), QObject::tr("evaluations"), Kind::Integer,
            [](const Row& r) { return qint64(r.evaluations); },
            QObject::tr("(prefix, kernel) pairs whose logits were computed: what the runs cost.")),
        columnOf(
            data, QStringLiteral("runs_diverged"), QObject::tr("runs diverged"), Kind::Integer,
            [](const Row& r) { return qint64(r.runsDiverged); },
            QObject::tr("Runs off the invariant completion after the step.")),
        columnOf(
            data, QStringLiteral("first_divergences"), QObject::tr("divergences here"), Kind::Integer,
            [](const Row& r) { return qint64(r.firstDivergences); },
            QObject::tr("Runs whose first divergent step is this one.")),
        columnOf(data, QStringLiteral("mean_batch"), QObject::tr("mean batch"), Kind::Real,
                 [](const Row& r) { return r.meanBatch; }),
        columnOf(data, QStringLiteral("invariant_token"), QObject::tr("invariant token"), Kind::Integer,
                 [](const Row& r) { return qint64(r.referenceToken); }),
        columnOf(
            data, QStringLiteral("invariant_gap"), QObject::tr("invariant gap"), Kind::Real,
            [](const Row& r) { return r.referenceGap; },
            QObject::tr("Top-two logit gap of the invariant completion at the step.")),
    };
    return t;
}

ResultTable modelDecodeTable(const std::vector<ModelDecodeRow>& rows)
{
    using Row = ModelDecodeRow;
    const auto data = sharedRows(rows);
    ResultTable t;
    t.title = QObject::tr("Batch sizes");
    t.rows = data->size();
    t.columns = {
        columnOf(
            data, QStringLiteral("batch"), QObject::tr("batch"), Kind::Integer, [](const Row& r) { return r.batch; },
            QObject::tr("Requests in the batch.")),
        columnOf(
            data, QStringLiteral("kernel"), QObject::tr("kernel"), Kind::Text, [](const Row& r) { return r.kernel; },
            QObject::tr("The kernel the plan uses for this batch size.")),
        columnOf(
            data, QStringLiteral("split_k"), QObject::tr("split-K"), Kind::Integer,
            [](const Row& r) { return qint64(r.splitK); },
            QObject::tr("Slices each row of every product is cut into, added in order.")),
        columnOf(
            data, QStringLiteral("quantised_rows"), QObject::tr("quantised rows"), Kind::Text,
            [](const Row& r) {
                return r.blockKernels ? QStringLiteral("block by block") : QStringLiteral("dequantised");
            },
            QObject::tr("How quantised weights are multiplied: block by block as one request's decode step does, "
                        "or dequantised first as a batched kernel does.")),
        columnOf(
            data, QStringLiteral("diverged"), QObject::tr("diverged"), Kind::Integer,
            [](const Row& r) { return qint64(r.firstDivergent >= 0); },
            QObject::tr("1 when the greedy reply differs from the invariant kernel's.")),
        columnOf(
            data, QStringLiteral("first_divergent_step"), QObject::tr("first divergent step"), Kind::Integer,
            [](const Row& r) { return r.firstDivergent; },
            QObject::tr("First step whose token differs from the invariant kernel's; -1: none.")),
        columnOf(data, QStringLiteral("invariant_token"), QObject::tr("invariant token"), Kind::Integer,
                 [](const Row& r) { return qint64(r.referenceToken); }),
        columnOf(data, QStringLiteral("token"), QObject::tr("token"), Kind::Integer,
                 [](const Row& r) { return qint64(r.token); }),
        columnOf(
            data, QStringLiteral("invariant_gap"), QObject::tr("invariant gap"), Kind::Real,
            [](const Row& r) { return r.referenceGap; },
            QObject::tr("Top-two logit gap of the invariant reply at the divergent step.")),
        columnOf(
            data, QStringLiteral("max_abs_difference"), QObject::tr("max |Δ| after the prompt"), Kind::Real,
            [](const Row& r) { return r.maxDifference; },
            QObject::tr("Largest |logit - invariant kernel's logit| over the vocabulary after the prompt.")),
        columnOf(
            data, QStringLiteral("reply"), QObject::tr("reply"), Kind::Text, [](const Row& r) { return r.reply; },
            QObject::tr("The greedy reply's text under this kernel.")),
    };
    return t;
}

}  // namespace

std::vector<ResultTable> batchInvarianceTables(const BatchInvarianceOutcome& outcome)
{
    if (outcome.spec.study == BatchInvarianceSpec::Study::ModelDecode)
        return {modelDecodeTable(outcome.model.rows)};
    if (outcome.spec.study == BatchInvarianceSpec::Study::OneStep)
        return {flipTable(outcome.flips), pointTable(outcome.points)};
    const auto& d = outcome.decode;
    return {runTable(d.runs, outcome.spec.steps), divergenceTable(d.runs), completionTable(d.completions),
            stepTable(d.steps)};
}

}  // namespace logitlab::app
