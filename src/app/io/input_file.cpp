#include "app/io/input_file.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include <fcntl.h>
#include <sys/mman.h>
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

namespace {

// The 2 MiB-aligned part of [data, data + size) on transparent huge pages (a hint; ignored where
// they are off).
void adviseHugePages(char* data, qint64 size)
{
    constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
    const auto begin = (reinterpret_cast<std::uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(data) + static_cast<std::uintptr_t>(size)) & ~(kHuge - 1);
    if (end > begin)
        madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

}  // namespace

engine::Result<QByteArray> readInputFile(const QString& path, qint64 maxBytes, bool hugePages,
                                         const ReadProgress& progress)
{
    if (auto problem = typeProblem(path, maxBytes))
        return engine::Error{*problem};
    QFile file;
    if (auto problem = openRegularFile(file, path))
        return engine::Error{*problem};
    // Into one buffer the size the file says (one byte more, to see it grow), grown only if it
    // does (a /proc file says 0), never past the limit: no slice is allocated or copied twice,
    // which for a model of hundreds of MB was most of the time.
    QByteArray bytes;
    bytes.resize(std::min(file.size(), maxBytes) + 1);
    if (hugePages)
        adviseHugePages(bytes.data(), bytes.size());
    qint64 filled = 0;
    while (filled <= maxBytes) {
        if (filled == bytes.size())
            bytes.resize(std::min(maxBytes + 1, std::max<qint64>(2 * bytes.size(), qint64{1} << 16)));
        const qint64 got = file.read(bytes.data() + filled, std::min<qint64>(qint64{1} << 24, bytes.size() - filled));
        if (got <= 0)
            break;  // the end, or an error (checked below)
        filled += got;
        if (progress && !progress(filled, file.size()))
            return engine::Error{"cancelled"};
    }
    bytes.truncate(filled);
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
