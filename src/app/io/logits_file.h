// Reads a logits file from disk into a Distribution: text (one number per line, or token,logit
// CSV), or a model's dump as NumPy .npy / .npz or safetensors (docs/import.md), with the row
// (step, batch) chosen and the token names from a vocabulary file.
#pragma once

#include "app/run/experiment_runner.h"
#include "engine/core/result.h"
#include "engine/io/logits_format.h"
#include "engine/io/tensor_layout.h"
#include "engine/sampler/distribution.h"

#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace logitlab::app {

// What to read from a file that holds more than one distribution, and the names to give it.
struct LogitsFileRequest {
    QString array;          // .npz member or safetensors tensor; empty: `logits`, or the only one
    engine::RowChoice row;  // step and batch; negative counts from the end
    QString vocabulary;     // a tokenizer.json or a text file with one token per line, or empty
};

struct LogitsFileContents {
    engine::Distribution distribution;
    std::vector<std::string> rawTokens;  // the tokenizer's spelling per id, when it differs from the names shown
    engine::LogitsFormat format = engine::LogitsFormat::Text;
    std::vector<std::uint64_t> shape;  // of the array; empty for text
    std::uint64_t batch = 0;
    std::uint64_t step = 0;
    std::string vocabularyNote;  // ids without a token, said in words; or empty
};

// Why `path` cannot be opened (missing, a folder, a device or FIFO, unreadable, over the size
// limit: 64 MiB for text, kMaxMappedFileBytes for the binary formats), without reading it:
// cheap enough to answer on the UI thread before the reading and parsing go to a worker.
std::optional<std::string> logitsFileProblem(const QString& path);

// At most engine::kMaxValues logits per row; text files at most kMaxInputFileBytes bytes.
engine::Result<LogitsFileContents> readLogitsFile(const QString& path, const LogitsFileRequest& request);
engine::Result<engine::Distribution> readLogitsFile(const QString& path);

// One line per step of an array's batch: its entropy at T = 1 (nats), for choosing a step.
// Text files have one step. Polls `control` between steps (cancel, progress).
struct StepSummary {
    std::vector<double> entropy;  // by step
    std::vector<std::uint64_t> shape;
    engine::LogitsFormat format = engine::LogitsFormat::Text;
};
engine::Result<StepSummary> summarizeSteps(const QString& path, const QString& array, std::uint64_t batch,
                                           const WorkControl& control);

}  // namespace logitlab::app
