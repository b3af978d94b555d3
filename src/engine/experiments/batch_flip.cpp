#include "engine/experiments/batch_flip.h"

#include "engine/experiments/head_logits.h"
#include "engine/experiments/load_trace.h"
#include "engine/rng/seed_split.h"

#include <algorithm>
#include <cstring>

namespace logitlab::engine {

namespace {

HeadMatrix logitsOf(const ToyLanguageModel& model, const ToyLanguageModel::Vector& state, const HeadKernel& kernel)
{
    HeadMatrix H = state;
    HeadMatrix logits = applyHeadKernel(model.head(), H, kernel);
    if (model.parameters().precision == StoragePrecision::Float16)
        logits = logits.unaryExpr([&model](float v) { return model.store(v); });
    return logits;
}

// The state at (prompt, step) of the search's greedy walk under the invariant kernel.
ToyLanguageModel::Vector walk(const ToyLanguageModel& model, const BatchFlipParameters& p, std::int64_t prompt,
                              std::int64_t steps, std::vector<TopTwo>* tops,
                              const std::function<bool()>& cancelled = {})
{
    const HeadKernel invariant{HeadKernel::Kind::Invariant, 1};
    const auto tokens = model.prompt(streamSeed(p.searchSeed, static_cast<std::uint64_t>(prompt)), p.promptLength);
    ToyLanguageModel::Vector h = model.read(tokens);
    for (std::int64_t t = 0; t < steps; ++t) {
        if (cancelled && cancelled())
            break;
        const TopTwo top = topTwo(logitsOf(model, h, invariant).col(0));
        if (tops)
            tops->push_back(top);
        h = model.next(h, top.token, p.promptLength + t);
    }
    return h;
}

}  // namespace

Result<BatchFlip> BatchFlip::prepare(const BatchFlipParameters& p)
{
    if (p.precisions.empty())
        return Error{"precisions: must name at least one precision"};
    if (p.maxBatch < 1 || p.maxBatch > kMaxBatch)
        return Error{"max_batch: must be in 1.." + std::to_string(kMaxBatch)};
    if (p.prompts < 1 || p.prompts > BatchFlipParameters::kMaxPrompts)
        return Error{"prompts: must be in 1.." + std::to_string(BatchFlipParameters::kMaxPrompts)};
    if (p.stepsPerPrompt < 1 || p.stepsPerPrompt > BatchFlipParameters::kMaxStepsPerPrompt)
        return Error{"steps_per_prompt: must be in 1.." + std::to_string(BatchFlipParameters::kMaxStepsPerPrompt)};
    BatchFlip flip;
    flip.m_parameters = p;
    for (const StoragePrecision precision : p.precisions) {
        ToyModelParameters m = p.model;
        m.precision = precision;
        auto model = ToyLanguageModel::build(m);
        if (!model)
            return Error{model.error()};
        flip.m_models.push_back(std::make_shared<const ToyLanguageModel>(std::move(model).value()));
    }
    flip.m_kernels = p.plan.kernels(p.maxBatch);
    flip.m_kernels.push_back({HeadKernel::Kind::Invariant, 1});
    return flip;
}

std::size_t BatchFlip::searchItemCount() const
{
    return m_models.size() * static_cast<std::size_t>(m_parameters.prompts);
}

std::vector<FlipPoint> BatchFlip::runSearchItem(std::size_t item, const std::function<bool()>& cancelled) const
{
    const std::size_t precision = item / static_cast<std::size_t>(m_parameters.prompts);
    const auto prompt = static_cast<std::int64_t>(item % static_cast<std::size_t>(m_parameters.prompts));
    const ToyLanguageModel& model = *m_models[precision];
    const auto tokens = model.prompt(streamSeed(m_parameters.searchSeed, static_cast<std::uint64_t>(prompt)),
                                     m_parameters.promptLength);
    ToyLanguageModel::Vector h = model.read(tokens);
    std::vector<FlipPoint> points;
    for (std::int64_t t = 0; t < m_parameters.stepsPerPrompt; ++t) {
        if (cancelled && cancelled())
            break;
        std::vector<HeadMatrix> logits;
        for (const HeadKernel& k : m_kernels)
            logits.push_back(logitsOf(model, h, k));
        const TopTwo reference = topTwo(logits.back().col(0));  // invariant
        FlipPoint point;
        point.precision = precisionName(model.parameters().precision);
        point.prompt = prompt;
        point.step = t;
        point.gap = reference.gap;
        point.token = reference.token;
        point.second = reference.second;
        Eigen::VectorXf low = logits.front().col(0);
        Eigen::VectorXf high = low;
        for (const HeadMatrix& l : logits) {
            low = low.cwiseMin(l.col(0));
            high = high.cwiseMax(l.col(0));
            if (topTwo(l.col(0)).token != reference.token)
                point.flipped = true;
        }
        point.error = static_cast<double>((high - low).maxCoeff());
        points.push_back(point);
        h = model.next(h, reference.token, m_parameters.promptLength + t);
    }
    return points;
}

const FlipPoint* BatchFlip::nearestTie(std::size_t precision, const std::vector<FlipPoint>& points) const
{
    const std::string name = precisionName(m_models[precision]->parameters().precision);
    // The nearest tie: the smallest gap among states the kernels split, else the smallest gap.
    const FlipPoint* best = nullptr;
    const auto better = [&best](const FlipPoint& p) {
        if (!best)
            return true;
        if (p.flipped != best->flipped)
            return p.flipped;
        return p.gap < best->gap;
    };
    for (const FlipPoint& p : points)
        if (p.precision == name && better(p))
            best = &p;
    return best;
}

std::vector<std::string> BatchFlip::equalKernels(std::size_t precision, const std::vector<FlipPoint>& points) const
{
    const FlipPoint* best = nearestTie(precision, points);
    if (!best)
        return {};
    const ToyLanguageModel& model = *m_models[precision];
    const ToyLanguageModel::Vector h = walk(model, m_parameters, best->prompt, best->step, nullptr);
    std::vector<HeadKernel> kernels = m_parameters.plan.kernels(m_parameters.maxBatch);
    const HeadKernel invariant{HeadKernel::Kind::Invariant, 1};
    if (std::find(kernels.begin(), kernels.end(), invariant) == kernels.end())
        kernels.push_back(invariant);
    std::vector<HeadMatrix> logits;
    for (const HeadKernel& k : kernels)
        logits.push_back(logitsOf(model, h, k));
    std::vector<std::string> equal;
    for (std::size_t a = 0; a < kernels.size(); ++a)
        for (std::size_t b = a + 1; b < kernels.size(); ++b)
            if (logits[a].col(0).size() == logits[b].col(0).size() &&
                std::memcmp(logits[a].col(0).data(), logits[b].col(0).data(),
                            sizeof(float) * static_cast<std::size_t>(logits[a].rows())) == 0)
                equal.push_back(kernels[a].name() + " = " + kernels[b].name());
    return equal;
}

std::vector<FlipBatchRow> BatchFlip::flipMap(std::size_t precision, const std::vector<FlipPoint>& points,
                                             const std::function<bool()>& cancelled) const
{
    const ToyLanguageModel& model = *m_models[precision];
    const std::string name = precisionName(model.parameters().precision);
    const FlipPoint* best = nearestTie(precision, points);
    if (!best)
        return {};
    const ToyLanguageModel::Vector h = walk(model, m_parameters, best->prompt, best->step, nullptr, cancelled);
    const HeadMatrix invariant = logitsOf(model, h, {HeadKernel::Kind::Invariant, 1});
    const TopTwo invariantTop = topTwo(invariant.col(0));
    std::vector<FlipBatchRow> rows;
    std::int32_t first = 0;
    for (std::int64_t b = 1; b <= m_parameters.maxBatch; ++b) {
        if (cancelled && cancelled())
            return {};
        const HeadKernel kernel = m_parameters.plan.kernelFor(b);
        const HeadMatrix logits = logitsOf(model, h, kernel);
        const TopTwo top = topTwo(logits.col(0));
        if (b == 1)
            first = top.token;
        FlipBatchRow row;
        row.precision = name;
        row.batch = b;
        row.kernel = kernel.name();
        row.token = top.token;
        row.flipped = top.token != first;
        row.differsFromInvariant = top.token != invariantTop.token;
        row.gap = top.gap;
        row.maxDifference = static_cast<double>((logits - invariant).cwiseAbs().maxCoeff());
        row.prompt = best->prompt;
        row.step = best->step;
        rows.push_back(row);
    }
    return rows;
}

}  // namespace logitlab::engine
