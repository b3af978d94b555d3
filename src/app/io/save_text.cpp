#include "app/io/save_text.h"

#include <QSaveFile>

#include <cerrno>
#include <cstring>

namespace logitlab::app {

namespace {

// What went wrong, in the operating system's words. QSaveFile reports a full disk on a short
// write without setting an error ("Unknown error"), so errno, read right after the call, is the
// better witness when the device has none.
QString reason(const QSaveFile& file, int savedErrno)
{
    if (file.error() != QFileDevice::NoError && file.errorString() != QLatin1String("Unknown error"))
        return file.errorString();
    if (savedErrno != 0)
        return QString::fromLocal8Bit(std::strerror(savedErrno));
    return QStringLiteral("the write was cut short");
}

}  // namespace

QString saveBytes(const QString& path, const QByteArray& bytes)
{
    QSaveFile file(path);
    // Unbuffered: a full disk shows as a short write here rather than at commit(), where Qt 6.2
    // can lose it and keep a truncated file.
    if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
        return QStringLiteral("%1: cannot write: %2").arg(path, file.errorString());
    qint64 done = 0;
    while (done < bytes.size()) {
        errno = 0;
        const qint64 n = file.write(bytes.constData() + done, bytes.size() - done);
        if (n <= 0) {
            const QString why = reason(file, errno);
            file.cancelWriting();
            return QStringLiteral("%1: write failed: %2").arg(path, why);
        }
        done += n;
    }
    errno = 0;
    if (!file.commit())
        return QStringLiteral("%1: could not be saved: %2").arg(path, reason(file, errno));
    return {};
}

QString saveText(const QString& path, const QString& text) { return saveBytes(path, text.toUtf8()); }

}  // namespace logitlab::app
