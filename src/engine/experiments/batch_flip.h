// Experiment 1 of the batch-invariance lab, one step: which batch sizes flip the argmax of a
// nearly tied state, and how the top-two gap compares with the reduction error (the largest
// difference between kernels' logits), for each storage precision.
//
// A search walks seeded prompts greedily under the invariant kernel and, at each state,
// evaluates every kernel of the variable plan: one point (gap, error, flipped or not) per
// state. The state with the smallest gap per precision is the near tie; its logits under the
// kernel of each batch size 1..B give the flip map. Work items are (precision, prompt) pairs,
// pure functions of their index, merged in index order.
#pragma once

#include "engine/core/result.h"
#include "engine/kernels/lm_head_kernels.h"
#include "engine/models/toy_language_model.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace logitlab::engine {

struct BatchFlipParameters {
    ToyModelParameters model;  // its precision is replaced by each of `precisions`
    std::vector<StoragePrecision> precisions{StoragePrecision::Float32};
    std::int64_t maxBatch = 16;  // B
    KernelPlan plan = KernelPlan::server();
    std::uint64_t searchSeed = 1;  // prompt p is prompt(streamSeed(searchSeed, p))
    std::int64_t prompts = 8;
    std::int64_t promptLength = 8;
    std::int64_t stepsPerPrompt = 16;

    static constexpr std::int64_t kMaxPrompts = 4096;
    static constexpr std::int64_t kMaxStepsPerPrompt = 4096;
};

struct FlipPoint {
    std::string precision;
    std::int64_t prompt = 0;
    std::int64_t step = 0;
    double gap = 0.0;         // top-two gap under the invariant kernel
    double error = 0.0;       // max over tokens of (largest - smallest logit across the kernels)
    bool flipped = false;     // the kernels disagree on the argmax
    std::int32_t token = 0;   // the invariant kernel's argmax
    std::int32_t second = 0;  // its runner-up
};

struct FlipBatchRow {
    std::string precision;
    std::int64_t batch = 0;
    std::string kernel;
    std::int32_t token = 0;  // the argmax under this batch size's kernel
    bool flipped = false;    // differs from batch 1's argmax
    bool differsFromInvariant = false;
    double gap = 0.0;            // this kernel's top-two gap
    double maxDifference = 0.0;  // max |logit - invariant logit|
    std::int64_t prompt = 0;     // where the near tie was found
    std::int64_t step = 0;
};

class BatchFlip {
public:
    static Result<BatchFlip> prepare(const BatchFlipParameters& p);
    const BatchFlipParameters& parameters() const { return m_parameters; }

    // Search items: (precision, prompt), precision-major.
    std::size_t searchItemCount() const;
    // `cancelled` is polled at every step (a prompt of 4,096 steps over a large head takes
    // minutes); a cancelled item returns the points so far, which the caller discards.
    std::vector<FlipPoint> runSearchItem(std::size_t item, const std::function<bool()>& cancelled = {}) const;
    // Flip-map items: one per precision, reading the merged points.
    std::vector<FlipBatchRow> flipMap(std::size_t precision, const std::vector<FlipPoint>& points,
                                      const std::function<bool()>& cancelled = {}) const;
    // The kernels (the variable plan's for batch sizes 1..B, and invariant) whose logits of the
    // near tie flipMap() uses are bit for bit equal on this build, as "eigen-gemv = eigen-gemm"
    // per equal pair: there the variation cannot come from choosing between them (Eigen's gemv
    // and gemm agree for hidden sizes up to 96 on x86-64 builds).
    std::vector<std::string> equalKernels(std::size_t precision, const std::vector<FlipPoint>& points) const;

private:
    const FlipPoint* nearestTie(std::size_t precision, const std::vector<FlipPoint>& points) const;

    BatchFlipParameters m_parameters;
    std::vector<std::shared_ptr<const ToyLanguageModel>> m_models;  // one per precision
    std::vector<HeadKernel> m_kernels;                              // the variable plan's, then invariant
};

}  // namespace logitlab::engine
