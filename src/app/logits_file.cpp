#include "logits_file.h"

#include "input_file.h"
#include "logits_parser.h"

namespace logitlab::app {

std::optional<std::string> logitsFileProblem(const QString& path)
{
    return inputFileProblem(path);
}

engine::Result<engine::Distribution> readLogitsFile(const QString& path)
{
    const auto bytes = readInputFile(path);
    if (!bytes)
        return engine::Error{bytes.error()};
    return engine::parseLogitsText(std::string_view(bytes->constData(), static_cast<std::size_t>(bytes->size())),
                                   path.toStdString());
}

}  // namespace logitlab::app
