#include "lm_head_kernels.h"

#include <algorithm>

namespace logitlab::engine {

namespace {

constexpr int kLanes = 8;
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
    // same order whatever the batch, the vocabulary or the machine's blocking.
    const auto V = W.rows();
    HeadMatrix out(V, H.cols());
    Eigen::Matrix<float, Eigen::Dynamic, kLanes> lanes(V, kLanes);
    for (Eigen::Index j = 0; j < H.cols(); ++j) {
        lanes.setZero();
        for (Eigen::Index k = 0; k < W.cols(); ++k)
            lanes.col(k % kLanes).array() += W.col(k).array() * H(k, j);
        out.col(j) = ((lanes.col(0) + lanes.col(1)) + (lanes.col(2) + lanes.col(3)))
            + ((lanes.col(4) + lanes.col(5)) + (lanes.col(6) + lanes.col(7)));
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

std::string planName(KernelPlan plan)
{
    return plan == KernelPlan::Variable ? "variable" : "invariant";
}

HeadKernel kernelForBatch(std::int64_t batch, KernelPlan plan)
{
    if (plan == KernelPlan::Invariant)
        return {HeadKernel::Kind::Invariant, 1};
    if (batch <= 1)
        return {HeadKernel::Kind::EigenGemv, 1};
    if (batch <= kSplitKUpTo) {
        // 8 / (the largest power of two <= batch): 4 slices for 2-3 requests, 2 for 4-7.
        int power = 1;
        while (power * 2 <= batch)
            power *= 2;
        return {HeadKernel::Kind::SplitK, 8 / power};
    }
    return {HeadKernel::Kind::EigenGemm, 1};
}

std::vector<HeadKernel> kernelsOfPlan(std::int64_t maxBatch, KernelPlan plan)
{
    std::vector<HeadKernel> kernels;
    for (std::int64_t b = 1; b <= maxBatch; ++b) {
        const HeadKernel k = kernelForBatch(b, plan);
        if (kernels.empty() || kernels.back() != k)
            kernels.push_back(k);
    }
    return kernels;
}

bool parseKernelName(const std::string& name, HeadKernel& kernel)
{
    for (const HeadKernel k : {HeadKernel{HeadKernel::Kind::EigenGemv, 1}, HeadKernel{HeadKernel::Kind::EigenGemm, 1},
                               HeadKernel{HeadKernel::Kind::SplitK, 2}, HeadKernel{HeadKernel::Kind::SplitK, 4},
                               HeadKernel{HeadKernel::Kind::Invariant, 1}}) {
        if (k.name() == name) {
            kernel = k;
            return true;
        }
    }
    return false;
}

Eigen::Index headTileCount(Eigen::Index rows)
{
    return (rows + kHeadTileRows - 1) / kHeadTileRows;
}

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
        if (H.cols() >= 2) {
            HeadMatrix out(rows.rows(), H.cols());
            out.noalias() = rows * H;
            return out;
        }
        // One state: a second (zero) request keeps Eigen on its matrix-matrix path.
        HeadMatrix padded = HeadMatrix::Zero(H.rows(), 2);
        padded.col(0) = H.col(0);
        HeadMatrix out(rows.rows(), 2);
        out.noalias() = rows * padded;
        return out.leftCols(1);
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
