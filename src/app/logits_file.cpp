#include "logits_file.h"

#include "logits_parser.h"

#include <QFile>
#include <QFileInfo>

namespace logitlab::app {

engine::Result<engine::Distribution> readLogitsFile(const QString& path)
{
    const QFileInfo info(path);
    if (!info.exists())
        return engine::Error{path.toStdString() + ": no such file"};
    if (info.isDir())
        return engine::Error{path.toStdString() + ": is a folder, not a file"};
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return engine::Error{path.toStdString() + ": cannot read: " + file.errorString().toStdString()};
    const QByteArray bytes = file.readAll();
    return engine::parseLogitsText(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())),
                                   path.toStdString());
}

}  // namespace logitlab::app
