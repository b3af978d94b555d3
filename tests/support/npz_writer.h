// Writes .npz fixtures for the import and replay tests: a zip archive (libzip) whose members are
// .npy files, each stored or deflated, as numpy.savez and numpy.savez_compressed write them.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QList>
#include <QPair>
#include <QString>
#include <QTemporaryDir>

#include <zip.h>

namespace logitlab::test {

inline QString writeNpz(const QTemporaryDir& dir, const QString& name,
                        const QList<QPair<QByteArray, QByteArray>>& members, bool deflate = false)
{
    const QString path = dir.filePath(name);
    int code = 0;
    zip_t* archive = zip_open(QFile::encodeName(path).constData(), ZIP_CREATE | ZIP_TRUNCATE, &code);
    if (!archive)
        qFatal("zip_open failed");
    for (const auto& [memberName, bytes] : members) {
        zip_source_t* source =
            zip_source_buffer(archive, bytes.constData(), static_cast<zip_uint64_t>(bytes.size()), 0);
        const zip_int64_t index = zip_file_add(archive, memberName.constData(), source, ZIP_FL_OVERWRITE);
        if (index < 0)
            qFatal("zip_file_add failed");
        zip_set_file_compression(archive, static_cast<zip_uint64_t>(index), deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 9);
    }
    if (zip_close(archive) != 0)
        qFatal("zip_close failed");
    return path;
}

}  // namespace logitlab::test
