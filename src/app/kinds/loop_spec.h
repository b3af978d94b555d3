// The loop experiment as a file describes it (docs/experiments.md, "Loop"): the built-in model,
// a prompt, a sampler chain of any stages under a preset, seed and RNG, the number of steps,
// and an optional branch (at a step, force a token or reseed the draws). Reading is strict:
// an empty prompt, steps outside 1..kMaxLoopSteps, a branch token the model does not know are
// errors naming the key.
#pragma once

#include "app/io/experiment_file.h"
#include "app/io/input_file.h"
#include "app/kinds/experiment_kind.h"
#include "engine/core/result.h"
#include "engine/core/work_limits.h"
#include "engine/experiments/generation_loop.h"

#include <QJsonObject>
#include <QString>

#include <memory>
#include <optional>

namespace logitlab::app {

inline constexpr qint64 kMaxLoopSteps = 4096;

struct LoopBranchSpec {
    qint64 at = 0;               // 0-based step where the branch differs
    QString token;               // force this token (by name) ...
    std::optional<qint64> seed;  // ... or draw from here on with this seed
    friend bool operator==(const LoopBranchSpec&, const LoopBranchSpec&) = default;
};

// A model's dump to replay (docs/import.md, "Replaying a generation"). Paths are relative to
// the experiment file.
struct LoopReplaySpec {
    QString path;      // .npy, .npz or safetensors
    QString array;     // the logits' .npz member or safetensors tensor; empty: `logits`, or the only one
    qint64 batch = 0;  // of a [batch, steps, V] array
    std::optional<QString> sequences;  // the model's tokens: nullopt, "sequences" when the file has it; "": none
    QString vocabularyFile;            // tokenizer.json or text; empty: tokens named "<id N>"
    friend bool operator==(const LoopReplaySpec&, const LoopReplaySpec&) = default;
};

struct LoopSpec {
    QString name = QStringLiteral("loop");
    QString description;
    QString prompt;
    qint64 steps = 40;  // a replay: 0 (the default there) replays every step of the file
    QString semantics = QStringLiteral("llama.cpp");
    QString chain;       // chain text; empty: the preset's library defaults
    QString arithmetic;  // "exact", "library", or empty for the preset's
    qint64 seed = 42;
    QString rng = QStringLiteral("mulberry32");
    std::optional<LoopBranchSpec> branch;
    std::optional<LoopReplaySpec> replay;  // set: the logits come from this file, not the built-in model
    // `"model": "gguf"`: a GGUF model run on the CPU continues the prompt (free running), its
    // tokenizer reads the prompt; the path is relative to the experiment file. Empty: not one.
    QString modelFile;
    friend bool operator==(const LoopSpec&, const LoopSpec&) = default;
};

// The keys of the model and what it runs (model, prompt, steps, semantics, chain, arithmetic),
// read into `spec` and checked (an empty prompt, steps outside 1..kMaxLoopSteps, a chain that does
// not parse). Throws JsonFieldError. Shared with the seed sweep over whole replies; `"model":
// "file"` (a replay, the loop only) with `allowReplay`, `"model": "gguf"` (a GGUF model file)
// with `allowGguf`.
void readLoopModelKeys(JsonObjectReader& r, LoopSpec& spec, bool allowReplay = false, bool allowGguf = false);

// `source` names the file in messages. Errors read "<source>: <key>: <problem>".
engine::Result<LoopSpec> parseLoop(const QJsonObject& root, const QString& source);
engine::Result<LoopSpec> readLoopFile(const QString& path);
QJsonObject toJson(const LoopSpec& spec);
QString writeLoopFile(const QString& path, const LoopSpec& spec);  // error message or empty

// The spec's chain: its text under its preset, or the preset's defaults when the text is empty.
engine::Result<engine::SamplerChain> loopChain(const LoopSpec& spec);
// A loop at step 0: the built-in model and the prompt's tokens (or, for a replay, `source`
// opened from spec.replay and the prompt its sequences hold; for a GGUF model, `source` made by
// ggufLoopSource and the prompt as its tokenizer reads it), the chain and the seeded RNG.
engine::Result<engine::GenerationLoop> makeLoop(const LoopSpec& spec,
                                                std::shared_ptr<const engine::StepLogitsSource> source = nullptr);
// How many steps a run of `spec` takes over `source` (a replay's 0 means all of the file's);
// an error when the file holds fewer than asked.
engine::Result<std::size_t> loopStepCount(const LoopSpec& spec, const engine::StepLogitsSource& source);
// What a run of `steps` steps costs (work, memory, rows, chart points), checked by loopStepCount.
engine::WorkEstimate loopEstimate(const LoopSpec& spec, std::size_t steps, std::size_t vocabSize,
                                  std::size_t promptTokens, const engine::SamplerChain& chain);
// The branch's token id in the built-in model (the spec was checked by parseLoop), or in `source`
// when given (a GGUF model's vocabulary, checked when the run starts).
std::optional<std::int32_t> branchTokenId(const LoopBranchSpec& branch,
                                          const engine::StepLogitsSource* source = nullptr);
// The run's source for a spec with a modelFile: the model opened (or the one already open),
// a KV cache for the prompt and spec.steps tokens (`roomToStepOn`: for kMaxLoopSteps, or what
// the model's context leaves after the prompt, whatever spec.steps says, so a page can step on
// and lower N to fit). `threads` of the forward pass (0: one per core). Errors name the key
// ("model-file", "steps", "branch.token").
engine::Result<std::shared_ptr<const engine::StepLogitsSource>>
ggufLoopSource(const LoopSpec& spec, const QString& baseDir, bool roomToStepOn = false, int threads = 0,
               const ReadProgress& progress = {});

// The loop experiment kind: the autoregressive loop on the built-in model, step by step
// (loop_spec.h reads the file, loop_job.h runs it).
const ExperimentKind& loopKind();

}  // namespace logitlab::app
