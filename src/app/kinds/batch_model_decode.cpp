#include "app/kinds/batch_model_decode.h"

#include "app/io/gguf_model_file.h"
#include "app/io/input_file.h"
#include "engine/experiments/head_logits.h"
#include "engine/transformer/gguf_model.h"
#include "engine/transformer/transformer.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace logitlab::app {

namespace {

using engine::HeadKernel;

// One kernel's greedy reply: its tokens, each step's top-two gap, the logits after the prompt.
struct Reply {
    std::vector<std::int32_t> tokens;
    std::vector<double> gaps;
    std::vector<float> first;
};

}  // namespace

engine::transformer::ReductionPlan modelReductionPlan(const HeadKernel& kernel)
{
    switch (kernel.kind) {
    case HeadKernel::Kind::EigenGemm:
        return {1, false};
    case HeadKernel::Kind::SplitK:
        return {kernel.splits, true};
    case HeadKernel::Kind::EigenGemv:
    case HeadKernel::Kind::Invariant:
        break;
    }
    return {1, true};
}

ModelDecodeOutcome runModelDecode(const BatchInvarianceSpec& spec, const QString& baseDir, int threads,
                                  const WorkControl& control)
{
    ModelDecodeOutcome outcome;
    const auto failed = [&outcome](const std::string& message) {
        outcome.status = {RunStatus::State::Failed, QString::fromStdString(message)};
        return outcome;
    };
    auto model = openGgufModel(resolvedPath(spec.modelFile, baseDir));
    if (!model)
        return failed("model-file: " + model.error());
    const engine::transformer::GgufModel& m = *model.value();
    const QByteArray promptText = spec.promptText.toUtf8();
    const std::vector<std::int32_t> prompt =
        m.encode(std::string_view(promptText.constData(), static_cast<std::size_t>(promptText.size())));
    if (prompt.empty())
        return failed("prompt: the model's tokenizer reads no tokens in it (give some text)");
    const auto positions = static_cast<std::int64_t>(prompt.size()) + spec.steps;
    if (positions > m.maxPositions())
        return failed("steps: the prompt's " + std::to_string(prompt.size()) + " tokens and " +
                      std::to_string(spec.steps) + " steps are more than the " + std::to_string(m.maxPositions()) +
                      " positions this model runs");

    // The kernels the batch sizes use, each decoded once, and the invariant reference first.
    const engine::KernelPlan plan = toKernelPlan(spec);
    std::vector<HeadKernel> kernels{HeadKernel{}};
    for (const HeadKernel& k : plan.kernels(spec.maxBatch))
        if (std::find(kernels.begin(), kernels.end(), k) == kernels.end())
            kernels.push_back(k);
    // Kernels with the same arithmetic on this model share a decode.
    std::map<std::pair<int, bool>, std::size_t> decodeOf;
    std::vector<engine::transformer::ReductionPlan> decodes;
    for (const HeadKernel& k : kernels) {
        const auto p = modelReductionPlan(k);
        if (decodeOf.emplace(std::make_pair(p.splitK, p.blockKernels), decodes.size()).second)
            decodes.push_back(p);
    }
    const double passes = static_cast<double>(decodes.size()) * static_cast<double>(positions);
    if (auto problem =
            modelWorkProblem(m.parameterCount(), passes, "steps",
                             "fewer steps, a plan of fewer kernels or a smaller model (one decode per kernel)"))
        return failed(*problem);

    if (control.started)
        control.started(decodes.size() * static_cast<std::size_t>(spec.steps));
    std::size_t done = 0;
    std::vector<Reply> replies(decodes.size());
    for (std::size_t d = 0; d < decodes.size(); ++d) {
        engine::transformer::TransformerOptions options;
        options.threads = std::max(1, threads);
        options.context = positions;
        options.plan = decodes[d];
        auto transformer = engine::transformer::Transformer::load(m.file(), options);
        if (!transformer)
            return failed("model-file: " + transformer.error());
        Reply& reply = replies[d];
        auto logits = transformer.value().evaluate(prompt);
        for (qint64 step = 0; step < spec.steps; ++step) {
            if (control.isCancelled && control.isCancelled()) {
                outcome.status = {RunStatus::State::Cancelled, QStringLiteral("cancelled")};
                return outcome;
            }
            if (!logits)
                return failed("model-file: " + logits.error());
            const std::span<const float> row = logits.value();
            if (auto problem = engine::transformer::nonFiniteLogitsProblem(row, prompt.size() + step))
                return failed("model-file: " + *problem);
            if (step == 0)
                reply.first.assign(row.begin(), row.end());
            const engine::TopTwo top =
                engine::topTwo(Eigen::Map<const Eigen::VectorXf>(row.data(), static_cast<Eigen::Index>(row.size())));
            reply.tokens.push_back(top.token);
            reply.gaps.push_back(top.gap);
            if (control.progress)
                control.progress(++done);
            if (step + 1 < spec.steps)
                logits = transformer.value().evaluate(std::span<const std::int32_t>(&reply.tokens.back(), 1));
        }
    }

    const Reply& reference = replies.front();
    outcome.referenceReply = QString::fromStdString(m.decode(reference.tokens));
    outcome.promptTokens = static_cast<qint64>(prompt.size());
    outcome.passes = static_cast<std::uint64_t>(passes);
    for (qint64 batch = 1; batch <= spec.maxBatch; ++batch) {
        const HeadKernel kernel = plan.kernelFor(batch);
        const auto p = modelReductionPlan(kernel);
        const Reply& reply = replies[decodeOf.at({p.splitK, p.blockKernels})];
        ModelDecodeRow row;
        row.batch = batch;
        row.kernel = QString::fromStdString(kernel.name());
        row.splitK = p.splitK;
        row.blockKernels = p.blockKernels;
        const auto mismatch = std::mismatch(reference.tokens.begin(), reference.tokens.end(), reply.tokens.begin());
        if (mismatch.first != reference.tokens.end()) {
            const auto at = mismatch.first - reference.tokens.begin();
            row.firstDivergent = at;
            row.referenceToken = *mismatch.first;
            row.token = *mismatch.second;
            row.referenceGap = reference.gaps[static_cast<std::size_t>(at)];
        }
        for (std::size_t i = 0; i < reference.first.size(); ++i)
            row.maxDifference =
                std::max(row.maxDifference, std::fabs(static_cast<double>(reply.first[i]) - reference.first[i]));
        row.reply = QString::fromStdString(m.decode(reply.tokens));
        outcome.rows.push_back(std::move(row));
    }
    return outcome;
}

}  // namespace logitlab::app
