#include "engine/kernels/lm_head_kernels.h"

#include <algorithm>
#include <vector>

namespace logitlab::engine {

namespace {

constexpr int kLanes = 8;
constexpr Eigen::Index kGemmGroup = 8;
constexpr std::int64_t kSplitKUpTo = 7;  // split-K for batches 2..7, gemm from 8 up

HeadMatrix splitK(const HeadMatrix& W, const HeadMatrix& H, int splits)
{
    const auto d = W.cols();
    HeadMatrix out(W.rows(), H.cols());
    for (Eigen::Index j = 0; j < H.cols(); ++j) {
        Eigen::VectorXf total;
        for (int s = 0; s < splits; ++s) {
            const Eigen::Index begin = d * s / splits;
            const Eigen::Index end = d * (s + 1) / splits;
            // One slice's partial logits, an Eigen matrix-vector product of its own.
            const Eigen::VectorXf partial = W.middleCols(begin, end - begin) * H.col(j).segment(begin, end - begin);
            if (s == 0)
                total = partial;
            else
                total += partial;
        }
        out.col(j) = total;
    }
    return out;
}

HeadMatrix invariant(const HeadMatrix& W, const HeadMatrix& H)
{
    // Lane k mod 8 adds W(:, k) * h[k], in k order; the lanes meet pairwise. Every step is an
    // elementwise operation on whole columns, so each logit sees the same operations in the
    // same order whatever the batch, the vocabulary or the machine's blocking. The batch's
    // states take turns on each column of W while it is in cache; that interleaving changes
    // no state's own order.
    const auto V = W.rows();
    const auto n = H.cols();
    std::vector<Eigen::Matrix<float, Eigen::Dynamic, kLanes>> lanes(
        static_cast<std::size_t>(n), Eigen::Matrix<float, Eigen::Dynamic, kLanes>::Zero(V, kLanes));
    for (Eigen::Index k = 0; k < W.cols(); ++k)
        for (Eigen::Index j = 0; j < n; ++j)
            lanes[static_cast<std::size_t>(j)].col(k % kLanes).array() += W.col(k).array() * H(k, j);
    HeadMatrix out(V, n);
    for (Eigen::Index j = 0; j < n; ++j) {
        const auto& l = lanes[static_cast<std::size_t>(j)];
        out.col(j) = ((l.col(0) + l.col(1)) + (l.col(2) + l.col(3))) + ((l.col(4) + l.col(5)) + (l.col(6) + l.col(7)));
    }
    return out;
}

}  // namespace

std::string HeadKernel::name() const
{
    switch (kind) {
    case Kind::EigenGemv:
        return "eigen-gemv";
    case Kind::EigenGemm:
        return "eigen-gemm";
    case Kind::SplitK:
        return "split-k-" + std::to_string(splits);
    case Kind::Invariant:
        return "invariant";
    }
    return "invariant";
}

KernelPlan KernelPlan::server()
{
    // Split-K for a handful of requests, 8 / (the largest power of two <= batch) slices.
    return fromSteps({{1, {HeadKernel::Kind::EigenGemv, 1}},
                      {3, {HeadKernel::Kind::SplitK, 4}},
                      {kSplitKUpTo, {HeadKernel::Kind::SplitK, 2}},
                      {kSplitKUpTo + 1, {HeadKernel::Kind::EigenGemm, 1}}});
}

KernelPlan KernelPlan::invariant() { return fromSteps({{1, {HeadKernel::Kind::Invariant, 1}}}); }

KernelPlan KernelPlan::fromSteps(std::vector<Step> steps)
{
    KernelPlan plan;
    plan.m_steps = std::move(steps);
    return plan;
}

HeadKernel KernelPlan::kernelFor(std::int64_t batch) const
{
    for (const Step& step : m_steps)
        if (batch <= step.upTo)
            return step.kernel;
    return m_steps.empty() ? HeadKernel{} : m_steps.back().kernel;
}

std::vector<HeadKernel> KernelPlan::kernels(std::int64_t maxBatch) const
{
    std::vector<HeadKernel> out;
    for (std::int64_t b = 1; b <= maxBatch; ++b) {
        const HeadKernel k = kernelFor(b);
        if (std::find(out.begin(), out.end(), k) == out.end())
            out.push_back(k);
    }
    return out;
}

std::string KernelPlan::describe() const
{
    std::string out;
    std::int64_t from = 1;
    for (std::size_t i = 0; i < m_steps.size(); ++i) {
        const bool last = i + 1 == m_steps.size();
        std::string range =
            last ? std::to_string(from) + "+"
                 : (from == m_steps[i].upTo ? std::to_string(from)
                                            : std::to_string(from) + "-" + std::to_string(m_steps[i].upTo));
        if (!out.empty())
            out += "; ";
        out += range + ": " + m_steps[i].kernel.name();
        from = m_steps[i].upTo + 1;
    }
    return out;
}

bool parseKernelName(const std::string& name, HeadKernel& kernel)
{
    if (name == "eigen-gemv" || name == "eigen-gemm" || name == "invariant") {
        kernel = {name == "eigen-gemv"   ? HeadKernel::Kind::EigenGemv
                  : name == "eigen-gemm" ? HeadKernel::Kind::EigenGemm
                                         : HeadKernel::Kind::Invariant,
                  1};
        return true;
    }
    const std::string prefix = "split-k-";
    if (name.rfind(prefix, 0) != 0 || name.size() == prefix.size() || name.size() > prefix.size() + 2)
        return false;
    int splits = 0;
    for (std::size_t i = prefix.size(); i < name.size(); ++i) {
        if (name[i] < '0' || name[i] > '9')
            return false;
        splits = splits * 10 + (name[i] - '0');
    }
    if (name[prefix.size()] == '0' || splits < 2 || splits > kMaxSplits)
        return false;
    kernel = {HeadKernel::Kind::SplitK, splits};
    return true;
}

Eigen::Index headTileCount(Eigen::Index rows) { return (rows + kHeadTileRows - 1) / kHeadTileRows; }

HeadMatrix headTile(const HeadMatrix& W, Eigen::Index tile)
{
    const Eigen::Index begin = tile * kHeadTileRows;
    return W.middleRows(begin, std::min(kHeadTileRows, W.rows() - begin));
}

HeadMatrix applyHeadKernelTile(const HeadMatrix& rows, const HeadMatrix& H, const HeadKernel& kernel)
{
    switch (kernel.kind) {
    case HeadKernel::Kind::EigenGemv: {
        HeadMatrix out(rows.rows(), H.cols());
        for (Eigen::Index j = 0; j < H.cols(); ++j)
            out.col(j).noalias() = rows * H.col(j);
        return out;
    }
    case HeadKernel::Kind::EigenGemm: {
        // The batch padded with empty requests to whole groups of kGemmGroup columns, as a
        // server pads a batch to a captured size: every state then takes Eigen's full-panel
        // path, whatever the batch's width (a ragged last panel takes another path, with
        // other bits).
        const Eigen::Index width = (H.cols() + kGemmGroup - 1) / kGemmGroup * kGemmGroup;
        HeadMatrix padded = HeadMatrix::Zero(H.rows(), width);
        padded.leftCols(H.cols()) = H;
        HeadMatrix out(rows.rows(), width);
        out.noalias() = rows * padded;
        return out.leftCols(H.cols());
    }
    case HeadKernel::Kind::SplitK:
        return splitK(rows, H, kernel.splits);
    case HeadKernel::Kind::Invariant:
        return invariant(rows, H);
    }
    return invariant(rows, H);
}

HeadMatrix applyHeadKernel(const HeadMatrix& W, const HeadMatrix& H, const HeadKernel& kernel)
{
    HeadMatrix out(W.rows(), H.cols());
    for (Eigen::Index tile = 0; tile < headTileCount(W.rows()); ++tile) {
        const HeadMatrix part = applyHeadKernelTile(headTile(W, tile), H, kernel);
        out.middleRows(tile * kHeadTileRows, part.rows()) = part;
    }
    return out;
}

}  // namespace logitlab::engine
