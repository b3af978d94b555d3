#include "app/kinds/imported_logits_source.h"

#include "app/io/input_file.h"
#include "app/io/logits_file.h"
#include "app/io/npz_member.h"
#include "app/io/vocabulary_file.h"
#include "engine/core/input_limits.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>

namespace logitlab::app {

engine::Result<std::shared_ptr<const ImportedLogitsSource>>
ImportedLogitsSource::open(const LoopReplaySpec& spec, const QString& baseDir, const WorkControl& control)
{
    using engine::Error;
    std::shared_ptr<ImportedLogitsSource> source(new ImportedLogitsSource);
    source->m_path = resolvedPath(spec.path, baseDir);
    if (auto problem = logitsFileProblem(source->m_path))
        return Error{*problem};
    auto array = LogitsArray::open(source->m_path, spec.array);
    if (!array)
        return Error{array.error()};
    source->m_array = std::move(array).value();
    const engine::TensorLayout& layout = source->m_array.layout();
    if (layout.shape.size() < 2)
        return Error{layout.what + ": shape " + engine::shapeText(layout.shape) +
                     " holds one distribution; a replay needs [steps, V] or [batch, steps, V]"};
    if (spec.batch < 0 || static_cast<std::uint64_t>(spec.batch) >= layout.batches())
        return Error{layout.what + ": batch " + std::to_string(spec.batch) + " is outside shape " +
                     engine::shapeText(layout.shape) + " (0 to " + std::to_string(layout.batches() - 1) + ")"};
    source->m_batch = static_cast<std::uint64_t>(spec.batch);
    source->m_steps = static_cast<std::size_t>(layout.steps());
    const std::uint64_t v = layout.vocabulary();

    // Every row once: a NaN or +inf is refused now, with the step named, not in the middle of a run.
    if (control.started)
        control.started(source->m_steps);
    for (std::size_t step = 0; step < source->m_steps; ++step) {
        if (control.isCancelled && control.isCancelled())
            return Error{"cancelled"};
        if (auto row = source->m_array.row(source->m_batch, step); !row)
            return Error{row.error()};
        if (control.progress)
            control.progress(step + 1);
    }

    // The model's own tokens: the array asked for, or "sequences" when the file holds one.
    QString sequences = spec.sequences.value_or(QString());
    if (!spec.sequences) {
        auto names = arrayNames(source->m_path);
        if (names && names->contains(QStringLiteral("sequences")))
            sequences = QStringLiteral("sequences");
    }
    if (!sequences.isEmpty()) {
        // At most a prompt of kMaxValues tokens and the reply, per batch, as int64: a longer
        // array is refused before it is inflated.
        const double most =
            4096.0 + 8.0 * static_cast<double>(layout.batches()) *
                         (static_cast<double>(source->m_steps) + static_cast<double>(engine::kMaxValues));
        auto ids = LogitsArray::open(source->m_path, sequences, engine::ArrayValues::Integers,
                                     static_cast<qint64>(std::min(most, static_cast<double>(kMaxNpzMemberBytes))));
        if (!ids)
            return Error{ids.error()};
        const engine::TensorLayout& idLayout = ids->layout();
        const std::uint64_t idBatches = idLayout.shape.size() == 2 ? idLayout.shape[0] : 1;
        if (idBatches != layout.batches())
            return Error{idLayout.what + ": shape " + engine::shapeText(idLayout.shape) + " holds " +
                         std::to_string(idBatches) + " sequences; expected one per batch of the logits " +
                         engine::shapeText(layout.shape)};
        auto tokens = ids->tokenIds(source->m_batch, v);
        if (!tokens)
            return Error{tokens.error()};
        // generate's sequences are the prompt then one token per step: the last `steps` are the reply.
        if (tokens->size() < source->m_steps)
            return Error{idLayout.what + ": shape " + engine::shapeText(idLayout.shape) + ": " +
                         std::to_string(tokens->size()) + " tokens, but the logits have " +
                         std::to_string(source->m_steps) +
                         " steps; expected at least one token per step (the prompt, then the reply)"};
        const auto promptLength = static_cast<std::ptrdiff_t>(tokens->size() - source->m_steps);
        source->m_prompt.assign(tokens->begin(), tokens->begin() + promptLength);
        source->m_actual.assign(tokens->begin() + promptLength, tokens->end());
        source->m_sequencesArray = sequences;
    }

    if (!spec.vocabularyFile.isEmpty()) {
        const QString vocabularyPath = resolvedPath(spec.vocabularyFile, baseDir);
        auto table = readVocabularyFile(vocabularyPath);
        if (!table)
            return Error{table.error()};
        auto vocabulary = engine::fitVocabulary(*table, static_cast<std::size_t>(v), vocabularyPath.toStdString());
        if (!vocabulary)
            return Error{vocabulary.error()};
        source->m_tokens = std::move(vocabulary->shown);
        source->m_vocabularyNote = std::move(vocabulary->note);
    } else {
        source->m_tokens.reserve(static_cast<std::size_t>(v));
        for (std::uint64_t id = 0; id < v; ++id)
            source->m_tokens.push_back("<id " + std::to_string(id) + ">");
    }
    return std::shared_ptr<const ImportedLogitsSource>(std::move(source));
}

void ImportedLogitsSource::logits(std::size_t step, std::span<const std::int32_t>, double* out) const
{
    // open() decoded every row, so this cannot fail on an unchanged file; a file changed
    // underneath gives a flat row rather than a crash.
    const auto row = m_array.row(m_batch, step);
    if (!row) {
        std::fill(out, out + m_tokens.size(), 0.0);
        return;
    }
    std::copy(row->data(), row->data() + row->size(), out);
}

std::optional<std::int32_t> ImportedLogitsSource::actualToken(std::size_t step) const
{
    if (step >= m_actual.size())
        return std::nullopt;
    return m_actual[step];
}

}  // namespace logitlab::app
