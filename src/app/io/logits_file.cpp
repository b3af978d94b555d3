#include "app/io/logits_file.h"

#include "app/io/input_file.h"
#include "app/io/logits_array.h"
#include "app/io/mapped_file.h"
#include "app/io/vocabulary_file.h"
#include "engine/experiments/step_entropy.h"
#include "engine/io/logits_parser.h"

#include <QFileInfo>

namespace logitlab::app {

namespace {

// The names from the vocabulary file, fitted to the distribution's V.
std::optional<std::string> applyVocabulary(LogitsFileContents& contents, const QString& path)
{
    if (!contents.distribution.tokens.empty())
        return path.toStdString() + ": --vocabulary given, but the logits file names its tokens already";
    auto table = readVocabularyFile(path);
    if (!table)
        return table.error();
    auto vocabulary = engine::fitVocabulary(*table, static_cast<std::size_t>(contents.distribution.logits.size()),
                                            path.toStdString());
    if (!vocabulary)
        return vocabulary.error();
    contents.distribution.tokens = std::move(vocabulary->shown);
    contents.rawTokens = std::move(vocabulary->raw);
    contents.vocabularyNote = std::move(vocabulary->note);
    return std::nullopt;
}

}  // namespace

std::optional<std::string> logitsFileProblem(const QString& path)
{
    if (auto problem = inputFileProblem(path, kMaxMappedFileBytes))
        return problem;
    if (fileFormat(path) == engine::LogitsFormat::Text)
        return inputFileProblem(path);  // text is read whole: the smaller limit
    return std::nullopt;
}

engine::Result<LogitsFileContents> readLogitsFile(const QString& path, const LogitsFileRequest& request)
{
    if (auto problem = logitsFileProblem(path))
        return engine::Error{*problem};
    LogitsFileContents contents;
    contents.format = fileFormat(path);
    if (contents.format == engine::LogitsFormat::Text) {
        if (!request.array.isEmpty() || request.row.step || request.row.batch)
            return engine::Error{
                path.toStdString() +
                ": a text file holds one distribution; --array, --row and --batch are for .npy, .npz and "
                "safetensors files"};
        const auto bytes = readInputFile(path);
        if (!bytes)
            return engine::Error{bytes.error()};
        auto parsed = engine::parseLogitsText(
            std::string_view(bytes->constData(), static_cast<std::size_t>(bytes->size())), path.toStdString());
        if (!parsed)
            return engine::Error{parsed.error()};
        contents.distribution = std::move(parsed).value();
    } else {
        auto array = LogitsArray::open(path, request.array);
        if (!array)
            return engine::Error{array.error()};
        const auto chosen = engine::resolveRow(array->layout(), request.row);
        if (!chosen)
            return engine::Error{chosen.error()};
        auto row = array->row(chosen->first, chosen->second);
        if (!row)
            return engine::Error{row.error()};
        contents.distribution.logits = std::move(row).value();
        contents.shape = array->layout().shape;
        contents.batch = chosen->first;
        contents.step = chosen->second;
    }
    if (!request.vocabulary.isEmpty())
        if (auto problem = applyVocabulary(contents, request.vocabulary))
            return engine::Error{*problem};
    return contents;
}

engine::Result<engine::Distribution> readLogitsFile(const QString& path)
{
    auto contents = readLogitsFile(path, LogitsFileRequest{});
    if (!contents)
        return engine::Error{contents.error()};
    return std::move(contents->distribution);
}

engine::Result<StepSummary> summarizeSteps(const QString& path, const QString& array, std::uint64_t batch,
                                           const WorkControl& control)
{
    if (auto problem = logitsFileProblem(path))
        return engine::Error{*problem};
    StepSummary summary;
    summary.format = fileFormat(path);
    if (summary.format == engine::LogitsFormat::Text) {
        auto read = readLogitsFile(path);
        if (!read)
            return engine::Error{read.error()};
        summary.entropy.push_back(engine::logitsEntropy(read->logits));
        return summary;
    }
    auto opened = LogitsArray::open(path, array);
    if (!opened)
        return engine::Error{opened.error()};
    summary.shape = opened->layout().shape;
    const std::uint64_t steps = opened->layout().steps();
    if (control.started)
        control.started(static_cast<std::size_t>(steps));
    for (std::uint64_t step = 0; step < steps; ++step) {
        if (control.isCancelled && control.isCancelled())
            return engine::Error{"cancelled"};
        auto row = opened->row(batch, step);
        if (!row)
            return engine::Error{row.error()};
        summary.entropy.push_back(engine::logitsEntropy(*row));
        if (control.progress)
            control.progress(static_cast<std::size_t>(step + 1));
    }
    return summary;
}

}  // namespace logitlab::app
