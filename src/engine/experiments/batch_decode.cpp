#include "engine/experiments/batch_decode.h"

#include "engine/experiments/load_trace.h"

#include <algorithm>
#include <set>

namespace logitlab::engine {

Result<BatchDecode> BatchDecode::prepare(const BatchDecodeParameters& p)
{
    if (p.runs < 1 || p.runs > BatchDecodeParameters::kMaxRuns)
        return Error{"runs: must be in 1.." + std::to_string(BatchDecodeParameters::kMaxRuns)};
    if (p.steps < 1 || p.steps > BatchDecodeParameters::kMaxSteps)
        return Error{"steps: must be in 1.." + std::to_string(BatchDecodeParameters::kMaxSteps)};
    if (p.promptLength < 0 || p.promptLength > BatchDecodeParameters::kMaxPromptLength)
        return Error{"prompt_length: must be in 0.." + std::to_string(BatchDecodeParameters::kMaxPromptLength)};
    if (p.maxBatch < 1 || p.maxBatch > kMaxBatch)
        return Error{"max_batch: must be in 1.." + std::to_string(kMaxBatch)};
    auto model = ToyLanguageModel::build(p.model);
    if (!model)
        return Error{model.error()};
    BatchDecode decode;
    decode.m_parameters = p;
    decode.m_model = std::make_shared<const ToyLanguageModel>(std::move(model).value());
    decode.m_prompt = decode.m_model->prompt(p.promptSeed, p.promptLength);
    decode.m_promptState = decode.m_model->read(decode.m_prompt);
    decode.m_traces.reserve(static_cast<std::size_t>(p.runs));
    for (std::int64_t r = 0; r < p.runs; ++r)
        decode.m_traces.push_back(p.trace.empty()
                                      ? seededLoadTrace(p.traceSeed, static_cast<std::uint64_t>(r), p.steps, p.maxBatch)
                                      : fileLoadTrace(p.trace, static_cast<std::uint64_t>(r), p.steps));
    return decode;
}

std::int64_t BatchDecode::batchAt(std::int64_t run, std::int64_t step) const
{
    return m_traces[static_cast<std::size_t>(run)][static_cast<std::size_t>(step)];
}

BatchDecode::Decode::Decode(const BatchDecode& owner, KernelPlan plan) : m_owner(&owner), m_plan(plan)
{
    Node root;
    root.state = owner.m_promptState;
    m_nodes.push_back(std::move(root));
    m_runNode.assign(static_cast<std::size_t>(owner.m_parameters.runs), 0);
    makeGroups();
}

void BatchDecode::Decode::makeGroups()
{
    m_groups.clear();
    if (done())
        return;
    // The (node, kernel) pairs the runs need, each once; every eigen-gemm node in one item.
    std::set<std::pair<HeadKernel, std::int64_t>> pairs;
    for (std::size_t r = 0; r < m_runNode.size(); ++r)
        pairs.insert({m_plan.kernelFor(m_owner->batchAt(static_cast<std::int64_t>(r), m_step)), m_runNode[r]});
    Group gemm{{HeadKernel::Kind::EigenGemm, 1}, {}};
    for (const auto& [kernel, node] : pairs) {
        if (kernel.kind == HeadKernel::Kind::EigenGemm)
            gemm.nodes.push_back(node);
        else
            m_groups.push_back({kernel, {node}});
    }
    if (!gemm.nodes.empty())
        m_groups.push_back(std::move(gemm));
}

std::size_t BatchDecode::Decode::itemCount() const
{
    return static_cast<std::size_t>(headTileCount(m_owner->m_model->vocabulary()));
}

std::vector<TopTwo> BatchDecode::Decode::evaluate(std::size_t item) const
{
    const ToyLanguageModel& model = *m_owner->m_model;
    const auto tile = static_cast<Eigen::Index>(item);
    const HeadMatrix rows = headTile(model.head(), tile);
    const auto offset = static_cast<std::int32_t>(tile * kHeadTileRows);
    std::vector<TopTwo> out;
    for (const Group& group : m_groups) {
        HeadMatrix H(model.hidden(), static_cast<Eigen::Index>(group.nodes.size()));
        for (std::size_t j = 0; j < group.nodes.size(); ++j)
            H.col(static_cast<Eigen::Index>(j)) = m_nodes[static_cast<std::size_t>(group.nodes[j])].state;
        HeadMatrix logits = applyHeadKernelTile(rows, H, group.kernel);
        if (model.parameters().precision == StoragePrecision::Float16)
            logits = logits.unaryExpr([&model](float v) { return model.store(v); });  // float16 output
        for (Eigen::Index j = 0; j < logits.cols(); ++j)
            out.push_back(topTwo(logits.col(j), offset));
    }
    return out;
}

void BatchDecode::Decode::advance(const std::vector<std::vector<TopTwo>>& results)
{
    // Tile by tile, in tile order: the merge sees the tiles in the same order on any threads.
    std::vector<TopTwo> merged = results.at(0);
    for (std::size_t tile = 1; tile < results.size(); ++tile)
        for (std::size_t k = 0; k < merged.size(); ++k)
            merged[k] = mergeTopTwo(merged[k], results[tile][k]);
    std::map<std::pair<std::int64_t, HeadKernel>, TopTwo> tops;
    std::size_t k = 0;
    for (const Group& group : m_groups)
        for (const std::int64_t node : group.nodes)
            tops[{node, group.kernel}] = merged[k++];
    m_evaluations += static_cast<std::int64_t>(tops.size());
    m_evaluationsAt.push_back(static_cast<std::int64_t>(tops.size()));
    m_distinct.push_back(static_cast<std::int64_t>(std::set<std::int64_t>(m_runNode.begin(), m_runNode.end()).size()));
    m_nodeAt.push_back(m_runNode);

    const ToyLanguageModel& model = *m_owner->m_model;
    const std::int64_t position = m_owner->m_parameters.promptLength + m_step;
    std::set<std::int64_t> left;
    for (std::size_t r = 0; r < m_runNode.size(); ++r) {
        const std::int64_t node = m_runNode[r];
        const HeadKernel kernel = m_plan.kernelFor(m_owner->batchAt(static_cast<std::int64_t>(r), m_step));
        const std::int32_t token = tops.at({node, kernel}).token;
        auto& children = m_nodes[static_cast<std::size_t>(node)].children;
        auto found = children.find(token);
        if (found == children.end()) {
            Node child;
            child.parent = node;
            child.token = token;
            // The state only when it will be read (not after the last step).
            if (m_step + 1 < m_owner->m_parameters.steps)
                child.state = model.next(m_nodes[static_cast<std::size_t>(node)].state, token, position);
            m_nodes.push_back(std::move(child));
            found = m_nodes[static_cast<std::size_t>(node)]
                        .children.emplace(token, static_cast<std::int64_t>(m_nodes.size() - 1))
                        .first;
        }
        m_runNode[r] = found->second;
        left.insert(node);
    }
    // The states a step has read are not read again: only the newest layer of the trie keeps
    // them, so memory follows the distinct states of one step, not of the whole decode.
    for (const std::int64_t node : left)
        m_nodes[static_cast<std::size_t>(node)].state = ToyLanguageModel::Vector();
    m_topAt.push_back(std::move(tops));
    ++m_step;
    makeGroups();
}

std::int64_t BatchDecode::Decode::distinctCompletions() const
{
    return static_cast<std::int64_t>(std::set<std::int64_t>(m_runNode.begin(), m_runNode.end()).size());
}

std::vector<std::int32_t> BatchDecode::Decode::tokensOf(std::int64_t node) const
{
    std::vector<std::int32_t> tokens;
    for (; node > 0; node = m_nodes[static_cast<std::size_t>(node)].parent)
        tokens.push_back(m_nodes[static_cast<std::size_t>(node)].token);
    std::reverse(tokens.begin(), tokens.end());
    return tokens;
}

BatchDecode::Rows BatchDecode::rows(const Decode& variable, const Decode& invariant) const
{
    Rows out;
    const auto R = m_parameters.runs;
    const auto T = m_parameters.steps;
    const HeadKernel invariantKernel{HeadKernel::Kind::Invariant, 1};
    // The reference: the invariant plan's completion (run 0's; the summary counts how many
    // distinct completions that plan gave, which is one by construction).
    const std::vector<std::int32_t> reference = invariant.tokensOf(invariant.m_runNode[0]);

    std::map<std::int64_t, std::int64_t> completionOfNode;  // final node -> completion index
    std::vector<std::int64_t> firstDivergences(static_cast<std::size_t>(T), 0);
    for (std::int64_t r = 0; r < R; ++r) {
        DecodeRunRow row;
        row.run = r;
        const std::int64_t final = variable.m_runNode[static_cast<std::size_t>(r)];
        const auto [it, added] = completionOfNode.emplace(final, static_cast<std::int64_t>(completionOfNode.size()));
        row.completion = it->second;
        const std::vector<std::int32_t> tokens = variable.tokensOf(final);
        for (std::int64_t t = 0; t < T; ++t) {
            if (tokens[static_cast<std::size_t>(t)] == reference[static_cast<std::size_t>(t)])
                continue;
            row.firstDivergent = t;
            row.batch = batchAt(r, t);
            const HeadKernel kernel = variable.m_plan.kernelFor(row.batch);
            row.kernel = kernel.name();
            row.referenceToken = reference[static_cast<std::size_t>(t)];
            row.token = tokens[static_cast<std::size_t>(t)];
            const std::int64_t node = variable.m_nodeAt[static_cast<std::size_t>(t)][static_cast<std::size_t>(r)];
            const std::int64_t referenceNode = invariant.m_nodeAt[static_cast<std::size_t>(t)][0];
            row.referenceGap = invariant.m_topAt[static_cast<std::size_t>(t)].at({referenceNode, invariantKernel}).gap;
            row.kernelGap = variable.m_topAt[static_cast<std::size_t>(t)].at({node, kernel}).gap;
            ++firstDivergences[static_cast<std::size_t>(t)];
            break;
        }
        if (added) {
            DecodeCompletionRow c;
            c.completion = row.completion;
            c.firstDivergent = row.firstDivergent;
            c.tokens = tokens;
            out.completions.push_back(std::move(c));
        }
        ++out.completions[static_cast<std::size_t>(row.completion)].runs;
        out.runs.push_back(std::move(row));
    }

    std::int64_t diverged = 0;
    out.summary.commonPrefix = T;
    for (std::int64_t t = 0; t < T; ++t) {
        DecodeStepRow s;
        s.step = t;
        s.distinctStates = variable.m_distinct[static_cast<std::size_t>(t)];
        s.evaluations = variable.m_evaluationsAt[static_cast<std::size_t>(t)];
        diverged += firstDivergences[static_cast<std::size_t>(t)];
        s.runsDiverged = diverged;
        s.firstDivergences = firstDivergences[static_cast<std::size_t>(t)];
        double batches = 0.0;
        for (std::int64_t r = 0; r < R; ++r)
            batches += static_cast<double>(batchAt(r, t));
        s.meanBatch = batches / static_cast<double>(R);
        const std::int64_t referenceNode = invariant.m_nodeAt[static_cast<std::size_t>(t)][0];
        const TopTwo& top = invariant.m_topAt[static_cast<std::size_t>(t)].at({referenceNode, invariantKernel});
        s.referenceToken = top.token;
        s.referenceGap = top.gap;
        out.steps.push_back(s);
        // All runs share the tokens of steps before the first step that splits them.
        const bool split =
            t + 1 < T ? variable.m_distinct[static_cast<std::size_t>(t + 1)] > 1 : variable.distinctCompletions() > 1;
        if (split && out.summary.commonPrefix == T)
            out.summary.commonPrefix = t;
    }
    out.summary.distinctVariable = variable.distinctCompletions();
    out.summary.distinctInvariant = invariant.distinctCompletions();
    out.summary.evaluationsVariable = variable.evaluations();
    out.summary.evaluationsInvariant = invariant.evaluations();
    out.summary.prompt = m_prompt;
    return out;
}

}  // namespace logitlab::engine
