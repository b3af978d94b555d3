// The batch-invariance lab on a real model (issue 36): the "model-decode" study greedily
// decodes one prompt on a GGUF model once for each kernel the plan picks for batch sizes
// 1..max_batch, every matrix product of the model under that kernel's arithmetic, against the
// batch-invariant kernel. A kernel maps onto the forward pass's products (matmul.h) as:
//   eigen-gemv, invariant: one pass over each row; quantised rows block by block (a decode step)
//   eigen-gemm:            one pass; quantised rows dequantised first, as in a batch of 4 or more
//   split-k-S:             S slices of each row added in order; quantised rows block by block
// so on a quantised model batch 1 and batch 8 run different arithmetic, as llama.cpp's
// matrix-vector and batched kernels do, and can give different replies.
#pragma once

#include "app/kinds/batch_invariance_spec.h"
#include "app/run/experiment_runner.h"
#include "engine/kernels/lm_head_kernels.h"
#include "engine/transformer/matmul.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace logitlab::app {

// How the forward pass runs the products under `kernel`.
engine::transformer::ReductionPlan modelReductionPlan(const engine::HeadKernel& kernel);

// One batch size: its kernel's greedy reply against the invariant kernel's.
struct ModelDecodeRow {
    qint64 batch = 0;
    QString kernel;
    int splitK = 1;
    bool blockKernels = true;
    qint64 firstDivergent = -1;  // first step whose token differs from the invariant reply; -1: none
    std::int32_t referenceToken = -1;
    std::int32_t token = -1;
    double referenceGap = 0.0;   // the invariant reply's top-two logit gap at that step
    double maxDifference = 0.0;  // max |logit - invariant logit| after the prompt (the same context)
    QString reply;               // the reply's text
};

struct ModelDecodeOutcome {
    RunStatus status;
    std::vector<ModelDecodeRow> rows;  // batch sizes 1..max_batch
    QString referenceReply;
    qint64 promptTokens = 0;
    std::uint64_t passes = 0;  // tokens evaluated
};

// Runs the study (threads: the forward pass's); errors name the key.
ModelDecodeOutcome runModelDecode(const BatchInvarianceSpec& spec, const QString& baseDir, int threads,
                                  const WorkControl& control);

}  // namespace logitlab::app
