#include "logits_file.h"

#include "logits_parser.h"

#include <QFile>
#include <QFileInfo>

namespace logitlab::app {

namespace {

std::optional<std::string> openProblem(const QString& path, QFile& file)
{
    const QFileInfo info(path);
    if (!info.exists())
        return path.toStdString() + ": no such file";
    if (info.isDir())
        return path.toStdString() + ": is a folder, not a file";
    if (!file.open(QIODevice::ReadOnly))
        return path.toStdString() + ": cannot read: " + file.errorString().toStdString();
    return std::nullopt;
}

}  // namespace

std::optional<std::string> logitsFileProblem(const QString& path)
{
    QFile file(path);
    return openProblem(path, file);
}

engine::Result<engine::Distribution> readLogitsFile(const QString& path)
{
    QFile file(path);
    if (auto problem = openProblem(path, file))
        return engine::Error{*problem};
    const QByteArray bytes = file.readAll();
    return engine::parseLogitsText(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())),
                                   path.toStdString());
}

}  // namespace logitlab::app
