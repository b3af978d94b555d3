#include "file_sha256.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>

namespace logitlab::app {

std::optional<QString> fileSha256(const QString& path)
{
    if (!QFileInfo(path).isFile())
        return std::nullopt;  // a FIFO would block, a device never end
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!hash.addData(&file))
        return std::nullopt;
    return QString::fromLatin1(hash.result().toHex());
}

}  // namespace logitlab::app
