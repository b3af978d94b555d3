// Where the steps of a reply come from, for experiments that walk one (junk risk along a
// reply): the rows of an imported multi-step logits file (a file distribution with "steps",
// step_range.h), or a model's distributions along a reply it generates from a prompt with a
// chain and seed (GenerationLoop, as the loop page runs it): the built-in model or a GGUF model
// on the CPU. Both give an engine::StepDistributions that reads one step at a time.
#pragma once

#include "app/io/experiment_file.h"
#include "app/io/json_object_reader.h"
#include "engine/core/result.h"
#include "engine/experiments/step_distributions.h"

#include <QJsonObject>
#include <QString>

#include <functional>

namespace logitlab::app {

// A reply of the built-in model: the experiment file's "reply" object (docs/experiments.md).
struct ReplySpec {
    QString prompt;
    qint64 length = 40;  // tokens generated, 1..kMaxReplyLength
    QString semantics = QStringLiteral("llama.cpp");
    QString chain;       // any chain, stateful stages too; empty: the preset's defaults
    QString arithmetic;  // "exact", "library", or empty for the preset's
    qint64 seed = 42;
    QString rng = QStringLiteral("mulberry32");
    QString modelFile;  // "model": "gguf": the GGUF file (relative to the experiment file); empty: the built-in model
    friend bool operator==(const ReplySpec&, const ReplySpec&) = default;
};

inline constexpr qint64 kMaxReplyLength = 4096;  // the loop's own limit (kMaxLoopSteps)

// Reads the object `r` holds (keys prompt, length, semantics, chain, arithmetic, seed, rng,
// "model": "builtin" (the default) or "gguf" with "model-file"). Throws JsonFieldError naming
// the key ("reply.prompt").
ReplySpec readReply(JsonObjectReader& r);
QJsonObject replyToJson(const ReplySpec& reply);
// One line for provenance: the model, the prompt, the chain, seed and RNG.
QString describeReply(const ReplySpec& reply);

// The rows of `spec` (a file distribution with steps) read on demand from the opened array
// (memory-mapped .npy and safetensors; an .npz member inflated once). Errors name the file and
// the key ("distribution.steps").
engine::Result<engine::StepDistributions> fileSteps(const DistributionSpec& spec, const QString& baseDir);

// The model's distribution at each step of the reply `reply` generates: the loop runs `length`
// steps, then step t's distribution is the model's after the prompt and the reply's first t
// tokens (the chain does not change the model's own distribution). A GGUF model's file is
// relative to `baseDir`; its steps are evaluated again when read, in order, one pass each.
// `cancelled` is polled between steps of the generation.
engine::Result<engine::StepDistributions> replySteps(const ReplySpec& reply, const QString& baseDir,
                                                     const std::function<bool()>& cancelled = {});

}  // namespace logitlab::app
