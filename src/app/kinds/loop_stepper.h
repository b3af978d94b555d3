// The Loop page's runs, stepped by hand, without a widget: the main run the controls describe
// and, when one is set, a branch of it at a step, forced to a token or reseeded. The page (or a
// test) asks for steps within a time slice, rewinds one, branches, and takes over Run N's
// finished loops; each run carries a generation that changes only when the run is replaced (a
// new loop, Run N's landing, a new branch), so views can add or cut rows instead of redrawing.
// A loop is made from a LoopSpec and, for a replay or a GGUF model, its open source; its key is
// the spec without the run's length and branch (which stepping does not change), so N or a
// branch edited in the controls keeps the steps already taken.
#pragma once

#include "app/kinds/loop_job.h"
#include "app/kinds/loop_spec.h"
#include "engine/core/result.h"
#include "engine/experiments/generation_loop.h"
#include "engine/rng/rng.h"
#include "engine/sampler/distribution.h"

#include <QJsonObject>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace logitlab::app {

class LoopStepper {
public:
    // What makes a loop: the spec without its run's length, branch, name and description.
    static QJsonObject keyOf(const LoopSpec& spec);

    // Whether the main run is the one `spec` describes.
    bool isFor(const LoopSpec& spec) const;
    // A new main run of `spec` over `source` (null: the built-in model); the branch goes. Empty on
    // success, else why (naming the key).
    QString start(const LoopSpec& spec, std::shared_ptr<const engine::StepLogitsSource> source = nullptr);
    // Run N's finished loops in place of the runs, made for `spec`.
    void adopt(const LoopSpec& spec, std::optional<engine::GenerationLoop> main,
               std::optional<engine::GenerationLoop> branch);
    // No runs (the controls changed what they are of).
    void clear();
    // The spec's branch was set by branching here: the key follows, so the runs stay.
    void follow(const LoopSpec& spec) { m_key = keyOf(spec); }

    // Steps the main run on until it has `target` steps, reaches its source's end, or `sliceMs`
    // have passed (negative: no limit). Returns the steps taken.
    std::size_t stepMain(std::size_t target, std::int64_t sliceMs);
    // Takes the main run's last step back (with the chain's state and the RNG), and the branch's
    // steps past it; a branch that no longer differs goes.
    void rewindOne();
    // A branch of the main run at step `at` (< its steps): `forced` token there, or else draws
    // reseeded with `rng`; it is to reach the main run's length (branchTarget()).
    void branch(std::size_t at, std::optional<std::int32_t> forced, std::unique_ptr<engine::Rng> rng = nullptr);
    // Steps the branch on towards its target within `sliceMs`; true once it is there.
    bool stepBranch(std::int64_t sliceMs);

    const std::optional<engine::GenerationLoop>& main() const { return m_main; }
    const std::optional<engine::GenerationLoop>& branchRun() const { return m_branch; }
    std::uint64_t mainGeneration() const { return m_mainGeneration; }
    std::uint64_t branchGeneration() const { return m_branchGeneration; }
    std::size_t branchTarget() const { return m_branchTarget; }
    // Where the branch first chose another token than the main run.
    std::optional<engine::Divergence> divergence() const;

    // The tokens the source read at step `at` of the main run: the prompt and the steps before it.
    std::vector<std::int32_t> contextAt(std::size_t at) const;
    // The next-token distribution the main run drew from at step `at`, with the model's token names.
    engine::Distribution distributionAt(std::size_t at) const;
    // The runs as finished tracks ("main", "branch"), as the CSV writes them.
    std::vector<LoopTrack> tracks() const;

private:
    std::optional<engine::GenerationLoop> m_main;
    std::optional<engine::GenerationLoop> m_branch;
    std::uint64_t m_mainGeneration = 0;
    std::uint64_t m_branchGeneration = 0;
    std::size_t m_branchTarget = 0;
    QJsonObject m_key;
};

}  // namespace logitlab::app
