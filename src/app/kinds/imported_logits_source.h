// A model's dump as the loop's logits source, replayed teacher-forced (docs/import.md,
// "Replaying a generation"): the logits of step t are row t of the array (one batch), the
// model's actual token at step t comes from an integer `sequences` array when the file has
// one, and the tokens are named from a vocabulary file. Every row is decoded once when the
// file is opened (NaN, +inf refused there, with progress and cancel), so stepping never fails.
#pragma once

#include "app/io/logits_array.h"
#include "app/kinds/loop_spec.h"
#include "app/run/experiment_runner.h"
#include "engine/core/result.h"
#include "engine/models/step_logits_source.h"

#include <QString>

#include <memory>
#include <string>
#include <vector>

namespace logitlab::app {

class ImportedLogitsSource final : public engine::StepLogitsSource {
public:
    // `baseDir` is where a relative path starts. Errors name the file, the field and the place.
    static engine::Result<std::shared_ptr<const ImportedLogitsSource>>
    open(const LoopReplaySpec& spec, const QString& baseDir, const WorkControl& control = {});

    std::size_t vocabSize() const override { return m_tokens.size(); }
    const std::vector<std::string>& tokens() const override { return m_tokens; }
    std::optional<std::size_t> stepCount() const override { return m_steps; }
    bool teacherForced() const override { return true; }
    void logits(std::size_t step, std::span<const std::int32_t> context, double* out) const override;
    std::optional<std::int32_t> actualToken(std::size_t step) const override;

    // The prompt generate's `sequences` holds before the reply (empty without sequences).
    const std::vector<std::int32_t>& prompt() const { return m_prompt; }
    // The integer array the actual tokens came from, or empty when the file has none.
    const QString& sequencesArray() const { return m_sequencesArray; }
    const QString& path() const { return m_path; }  // resolved against baseDir
    const std::vector<std::uint64_t>& shape() const { return m_array.layout().shape; }
    std::uint64_t batch() const { return m_batch; }
    const std::string& vocabularyNote() const { return m_vocabularyNote; }

private:
    ImportedLogitsSource() = default;

    LogitsArray m_array;
    std::uint64_t m_batch = 0;
    std::size_t m_steps = 0;
    std::vector<std::string> m_tokens;
    std::vector<std::int32_t> m_actual;  // by step; empty without sequences
    std::vector<std::int32_t> m_prompt;
    QString m_sequencesArray;
    QString m_path;
    std::string m_vocabularyNote;
};

}  // namespace logitlab::app
