// Experiment 2 of the batch-invariance lab: R greedy decodes of T steps of one prompt, each
// under its own load trace (the batch size at each step picks the LM head's kernel), against
// the same runs under the batch-invariant plan.
//
// Runs that share their token prefix share their state (the state depends on tokens only), and
// runs that also share the kernel at a step share its logits: the decode keeps a trie of token
// prefixes and evaluates each (prefix, kernel) pair of a step once (all the step's eigen-gemm
// states go into one W*H, as each other's batch). A step's work items are the LM head's row
// tiles: each computes every pair on its tile of W (read from memory once per step) and keeps
// the top two; the caller runs them on any number of threads and hands the results back in
// tile order, where they are merged in that order, so the outcome is the same for any thread
// count.
#pragma once

#include "engine/core/result.h"
#include "engine/experiments/head_logits.h"
#include "engine/kernels/lm_head_kernels.h"
#include "engine/models/toy_language_model.h"

#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace logitlab::engine {

struct BatchDecodeParameters {
    ToyModelParameters model;
    std::uint64_t promptSeed = 1;
    std::int64_t promptLength = 8;
    std::int64_t runs = 100;  // R
    std::int64_t steps = 50;  // T
    std::int64_t maxBatch = 16;
    KernelPlan plan = KernelPlan::server();  // the variable plan
    std::uint64_t traceSeed = 1;
    std::vector<std::int64_t> trace;  // a trace file's batch sizes; empty: seeded traces

    static constexpr std::int64_t kMaxRuns = 100000;
    static constexpr std::int64_t kMaxSteps = 4096;
    static constexpr std::int64_t kMaxPromptLength = 4096;
};

// One run of the variable plan against the invariant reference.
struct DecodeRunRow {
    std::int64_t run = 0;
    std::int64_t completion = 0;       // index of its distinct completion, numbered by first run
    std::int64_t firstDivergent = -1;  // first step whose token differs from the reference, -1: none
    std::int64_t batch = 0;            // the batch size at that step
    std::string kernel;                // the kernel at that step
    std::int32_t referenceToken = -1;
    std::int32_t token = -1;
    double referenceGap = 0.0;  // the invariant kernel's top-two gap there
    double kernelGap = 0.0;     // the run's kernel's top-two gap there
};

struct DecodeStepRow {
    std::int64_t step = 0;
    std::int64_t distinctStates = 0;    // distinct prefixes the R runs occupy before the step
    std::int64_t evaluations = 0;       // (prefix, kernel) pairs evaluated
    std::int64_t runsDiverged = 0;      // runs whose prefix differs from the reference after it
    std::int64_t firstDivergences = 0;  // runs whose first divergent step is this one
    double meanBatch = 0.0;
    std::int32_t referenceToken = 0;
    double referenceGap = 0.0;
};

struct DecodeCompletionRow {
    std::int64_t completion = 0;
    std::int64_t runs = 0;
    std::int64_t firstDivergent = -1;  // from the reference; -1 for the reference itself
    std::vector<std::int32_t> tokens;
};

struct BatchDecodeSummary {
    std::int64_t distinctVariable = 0;
    std::int64_t distinctInvariant = 0;
    std::int64_t commonPrefix = 0;  // tokens all R runs of the variable plan share
    std::int64_t evaluationsVariable = 0;
    std::int64_t evaluationsInvariant = 0;
    std::vector<std::int32_t> prompt;
};

class BatchDecode {
public:
    static Result<BatchDecode> prepare(const BatchDecodeParameters& p);

    const BatchDecodeParameters& parameters() const { return m_parameters; }
    const ToyLanguageModel& model() const { return *m_model; }
    std::int64_t batchAt(std::int64_t run, std::int64_t step) const;

    // One plan's decode, stepped by the caller.
    class Decode {
    public:
        struct Group {
            HeadKernel kernel;
            std::vector<std::int64_t> nodes;  // one, or every eigen-gemm node of the step
        };
        Decode(const BatchDecode& owner, KernelPlan plan);

        bool done() const { return m_step >= m_owner->m_parameters.steps; }
        std::int64_t step() const { return m_step; }
        // The step's (kernel, nodes) groups, in a fixed order (by kernel, then by node).
        const std::vector<Group>& groups() const { return m_groups; }
        // Work items of every step: the LM head's tiles.
        std::size_t itemCount() const;
        // Pure: tile `item`'s top two of every group's nodes, in group then node order.
        std::vector<TopTwo> evaluate(std::size_t item) const;
        // Takes every item's results (in item order), moves each run on and makes the next
        // step's groups.
        void advance(const std::vector<std::vector<TopTwo>>& results);

        std::int64_t distinctCompletions() const;
        std::int64_t evaluations() const { return m_evaluations; }

    private:
        friend class BatchDecode;
        struct Node {
            std::int64_t parent = -1;
            std::int32_t token = -1;
            ToyLanguageModel::Vector state;
            std::map<std::int32_t, std::int64_t> children;
        };
        void makeGroups();
        std::vector<std::int32_t> tokensOf(std::int64_t node) const;

        const BatchDecode* m_owner;
        KernelPlan m_plan;
        std::int64_t m_step = 0;
        std::vector<Node> m_nodes;
        std::vector<std::int64_t> m_runNode;  // each run's current node
        std::vector<Group> m_groups;
        std::int64_t m_evaluations = 0;
        // Per step: the runs' (node, kernel) and the top two it got, for the rows.
        std::vector<std::vector<std::int64_t>> m_nodeAt;  // [step][run] node before the step
        std::vector<std::map<std::pair<std::int64_t, HeadKernel>, TopTwo>> m_topAt;
        std::vector<std::int64_t> m_distinct;
        std::vector<std::int64_t> m_evaluationsAt;
    };

    // The rows, once both decodes are done.
    struct Rows {
        std::vector<DecodeRunRow> runs;
        std::vector<DecodeStepRow> steps;
        std::vector<DecodeCompletionRow> completions;
        BatchDecodeSummary summary;
    };
    Rows rows(const Decode& variable, const Decode& invariant) const;

private:
    BatchDecodeParameters m_parameters;
    std::shared_ptr<const ToyLanguageModel> m_model;
    std::vector<std::int32_t> m_prompt;
    ToyLanguageModel::Vector m_promptState;
    std::vector<std::vector<std::int64_t>> m_traces;  // [run][step]
};

}  // namespace logitlab::engine
