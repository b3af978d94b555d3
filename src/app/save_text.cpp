#include "save_text.h"

#include <QSaveFile>

namespace logitlab::app {

QString saveBytes(const QString& path, const QByteArray& bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("%1: cannot write: %2").arg(path, file.errorString());
    if (file.write(bytes) != bytes.size()) {
        const QString reason = file.errorString();
        file.cancelWriting();
        return QStringLiteral("%1: write failed: %2").arg(path, reason);
    }
    if (!file.commit())
        return QStringLiteral("%1: could not be saved: %2").arg(path, file.errorString());
    return {};
}

QString saveText(const QString& path, const QString& text)
{
    return saveBytes(path, text.toUtf8());
}

}  // namespace logitlab::app
