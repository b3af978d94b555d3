// A GGUF model file opened for the experiments (issue 36): read into memory whole (so a file
// changed underneath cannot crash a forward pass), its directory, shape, tensors and tokenizer
// checked (engine::transformer::GgufModel). The same file asked for again while a run or a page
// still holds it (same path, size and modification time) is the one already open, so re-runs
// neither read nor parse it again.
#pragma once

#include "app/io/input_file.h"
#include "engine/core/result.h"
#include "engine/sampler/distribution.h"
#include "engine/transformer/gguf_model.h"

#include <QString>

#include <memory>
#include <optional>
#include <string>

namespace logitlab::app {

class MappedFile;

// A model file's bytes, read into memory, never mapped: the forward pass reads weights on a pool
// of threads, where a file truncated underneath a mapping would end the process with SIGBUS. A
// model larger than modelMemoryLimit() is refused before anything is read (modelSizeProblem).
// `progress` hears the bytes read.
engine::Result<std::shared_ptr<const MappedFile>> modelFileBytes(const QString& path,
                                                                 const ReadProgress& progress = {});

// The largest model read: this machine's physical memory less 1 GiB (at least 1 GiB). Every
// token reads every weight, so a model that does not fit in memory would not run anyway.
qint64 modelMemoryLimit();
// Why a model file of `bytes` is refused under `limit`, naming the file and both sizes; nothing
// when it fits.
std::optional<std::string> modelSizeProblem(const QString& path, qint64 bytes, qint64 limit);

// `path` absolute or relative to the current folder; errors name the file.
// `progress` hears the file being read, when it is not already open.
engine::Result<std::shared_ptr<const engine::transformer::GgufModel>> openGgufModel(const QString& path,
                                                                                    const ReadProgress& progress = {});

// Multiply-adds one run on a GGUF model may cost, checked before it starts: about ten minutes on
// two cores (SmolLM2-135M: about 30,000 token passes; a 1B model about 3,500).
inline constexpr double kMaxModelWork = 4e12;
// Why `passes` token passes of a model of `parameters` weights (GgufModel::parameterCount: each
// pass about that many multiply-adds) are too much, naming `key`, the estimate, the limit and
// `advice`; nothing when they fit.
std::optional<std::string> modelWorkProblem(std::uint64_t parameters, double passes, const std::string& key,
                                            const std::string& advice);

// For provenance: "FILE sha256=HASH" of the model an experiment file names (relative to `baseDir`).
QString ggufFileProvenance(const QString& modelFile, const QString& baseDir);
// The model's shape in a line: "llama, 30 layers, n_embd 576, 9 heads (3 KV), vocabulary 49152".
QString describeGgufModel(const engine::transformer::GgufModel& model);

// The model's next-token distribution after `prompt` as its tokenizer reads it (BOS as the
// model adds it, a control token's text as that token): the last position's logits, every token
// named by its text. Runs the forward pass on all cores; an error names the file or the prompt.
engine::Result<engine::Distribution> ggufNextTokenDistribution(const QString& path, const QString& prompt);

}  // namespace logitlab::app
