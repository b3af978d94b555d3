#include "app/io/file_sha256.h"

#include "app/io/input_file.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>

namespace logitlab::app {

std::optional<QString> fileSha256(const QString& path)
{
    QFile file;
    if (openRegularFile(file, path))
        return std::nullopt;  // a FIFO would block, a device never end
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!hash.addData(&file))
        return std::nullopt;
    return QString::fromLatin1(hash.result().toHex());
}

}  // namespace logitlab::app
