#include "app/io/input_file.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace logitlab::app {

namespace {

// `size` is what the file system says; a file that grows while it is read says less.
std::string tooLarge(const QString& path, const std::string& size, qint64 maxBytes)
{
    return path.toStdString() + ": " + size + " is over the limit of " +
           engine::groupedNumber(static_cast<std::size_t>(maxBytes)) + " bytes for an input file";
}

// The checks that need no open file: opening a FIFO for reading blocks until a writer comes.
std::optional<std::string> typeProblem(const QString& path, qint64 maxBytes)
{
    const QFileInfo info(path);
    if (!info.exists())
        return path.toStdString() + ": no such file";
    if (info.isDir())
        return path.toStdString() + ": is a folder, not a file";
    if (!info.isFile())
        return path.toStdString() + ": is not a regular file (a device, pipe or socket); give a file";
    if (info.size() > maxBytes)
        return tooLarge(path, engine::groupedNumber(static_cast<std::size_t>(info.size())) + " bytes", maxBytes);
    return std::nullopt;
}

}  // namespace

engine::Result<int> openRegularFileDescriptor(const QString& path)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        const int error = errno;
        if (error == ENOENT)
            return engine::Error{path.toStdString() + ": no such file"};
        return engine::Error{path.toStdString() + ": cannot read: " + std::strerror(error)};
    }
    struct stat info = {};
    std::optional<std::string> problem;
    if (::fstat(fd, &info) != 0)
        problem = path.toStdString() + ": cannot read: " + std::strerror(errno);
    else if (S_ISDIR(info.st_mode))
        problem = path.toStdString() + ": is a folder, not a file";
    else if (!S_ISREG(info.st_mode))
        problem = path.toStdString() + ": is not a regular file (a device, pipe or socket); give a file";
    else if (const int flags = ::fcntl(fd, F_GETFL); flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0)
        problem = path.toStdString() + ": cannot read: " + std::strerror(errno);
    if (problem) {
        ::close(fd);
        return engine::Error{*problem};
    }
    return fd;
}

std::optional<std::string> openRegularFile(QFile& file, const QString& path)
{
    // A Qt resource (":/examples/..."), compiled into the program, is never a device or a pipe,
    // and has no file descriptor: Help's worked examples are read from there.
    if (path.startsWith(QLatin1String(":/"))) {
        file.setFileName(path);
        if (!file.open(QIODevice::ReadOnly))
            return path.toStdString() + ": no such file";
        return std::nullopt;
    }
    auto fd = openRegularFileDescriptor(path);
    if (!fd)
        return fd.error();
    if (!file.open(fd.value(), QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        ::close(fd.value());
        return path.toStdString() + ": cannot read: " + file.errorString().toStdString();
    }
    return std::nullopt;
}

std::optional<std::string> inputFileProblem(const QString& path, qint64 maxBytes)
{
    if (auto problem = typeProblem(path, maxBytes))
        return problem;
    QFile file;
    return openRegularFile(file, path);
}

engine::Result<QByteArray> readInputFile(const QString& path, qint64 maxBytes)
{
    if (auto problem = typeProblem(path, maxBytes))
        return engine::Error{*problem};
    QFile file;
    if (auto problem = openRegularFile(file, path))
        return engine::Error{*problem};
    // In slices: QIODevice::read(n) reserves n bytes up front, which for the limit would be
    // 64 MiB per file however small it is.
    QByteArray bytes;
    bytes.reserve(std::min(file.size(), maxBytes) + 1);
    while (bytes.size() <= maxBytes) {
        const QByteArray part = file.read(std::min<qint64>(qint64{1} << 20, maxBytes + 1 - bytes.size()));
        if (part.isEmpty())
            break;  // the end, or an error (checked below)
        bytes += part;
    }
    if (file.error() != QFileDevice::NoError)
        return engine::Error{path.toStdString() + ": cannot read: " + file.errorString().toStdString()};
    if (bytes.size() > maxBytes)
        return engine::Error{tooLarge(path, "the file (still growing while it was read)", maxBytes)};
    return bytes;
}

QString resolvedPath(const QString& path, const QString& baseDir)
{
    if (path.isEmpty() || QFileInfo(path).isAbsolute() || baseDir.isEmpty())
        return path;
    return QDir(baseDir).filePath(path);
}

}  // namespace logitlab::app
