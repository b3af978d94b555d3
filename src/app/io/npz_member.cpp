#include "app/io/npz_member.h"

#include "app/io/input_file.h"
#include "engine/core/input_limits.h"
#include "engine/io/tensor_layout.h"

#include <QFile>
#include <QStringList>

#include <zip.h>

#include <algorithm>
#include <memory>

#include <unistd.h>

namespace logitlab::app {

namespace {

std::string zipMessage(int code)
{
    zip_error_t error;
    zip_error_init_with_code(&error, code);
    std::string text = zip_error_strerror(&error);
    zip_error_fini(&error);
    return text;
}

struct ArchiveCloser {
    void operator()(zip_t* archive) const { zip_discard(archive); }  // read-only: nothing to write back
};
struct MemberCloser {
    void operator()(zip_file_t* file) const { zip_fclose(file); }
};

// The archive at `path`, opened only when it is a regular file (a FIFO would block libzip's
// fopen): the descriptor is checked first and handed to libzip.
std::unique_ptr<zip_t, ArchiveCloser> openArchive(const QString& path, std::string& problem)
{
    auto fd = openRegularFileDescriptor(path);
    if (!fd) {
        problem = fd.error();
        return nullptr;
    }
    int code = 0;
    zip_t* archive = zip_fdopen(fd.value(), ZIP_CHECKCONS, &code);
    if (!archive) {
        ::close(fd.value());
        problem =
            path.toStdString() + ": " +
            (code == ZIP_ER_EXISTS ? std::string("not a readable .npz (zip) archive: two members have the same name")
                                   : "not a readable .npz (zip) archive: " + zipMessage(code));
    }
    return std::unique_ptr<zip_t, ArchiveCloser>(archive);
}

}  // namespace

engine::Result<QStringList> npzMemberNames(const QString& path)
{
    std::string problem;
    const auto archive = openArchive(path, problem);
    if (!archive)
        return engine::Error{problem};
    QStringList names;
    const zip_int64_t count = zip_get_num_entries(archive.get(), 0);
    for (zip_int64_t i = 0; i < count; ++i)
        if (const char* raw = zip_get_name(archive.get(), static_cast<zip_uint64_t>(i), ZIP_FL_ENC_GUESS)) {
            QString name = QString::fromUtf8(raw);
            if (name.endsWith(QLatin1String(".npy")))
                name.chop(4);
            names << name;
        }
    return names;
}

engine::Result<NpzMember> readNpzMember(const QString& path, const QString& array, qint64 maxBytes)
{
    const std::string what = path.toStdString();
    std::string problem;
    const auto archive = openArchive(path, problem);
    if (!archive)
        return engine::Error{problem};

    const zip_int64_t count = zip_get_num_entries(archive.get(), 0);
    QStringList names;
    zip_int64_t chosen = -1;
    for (zip_int64_t i = 0; i < count; ++i) {
        const char* raw = zip_get_name(archive.get(), static_cast<zip_uint64_t>(i), ZIP_FL_ENC_GUESS);
        if (!raw)
            continue;
        const QString name = QString::fromUtf8(raw);
        names << name;
        QString bare = name;
        if (bare.endsWith(QLatin1String(".npy")))
            bare.chop(4);
        if (!array.isEmpty() && (name == array || bare == array))
            chosen = i;
        if (array.isEmpty() && bare == QLatin1String(engine::kDefaultLogitsArray))
            chosen = i;  // np.savez(logits=..., sequences=...): the logits are meant
    }
    const std::string list =
        names.isEmpty() ? std::string("no members") : names.join(QStringLiteral(", ")).toStdString();
    if (count == 0)
        return engine::Error{what + ": holds no arrays (an empty .npz archive)"};
    if (array.isEmpty() && chosen < 0) {
        if (count != 1)
            return engine::Error{what + ": holds " + std::to_string(count) + " arrays (" + list +
                                 ") and none is called " + engine::kDefaultLogitsArray + "; " + engine::kNameTheArray};
        chosen = 0;
    } else if (chosen < 0) {
        return engine::Error{what + ": no array '" + array.toStdString() + "'; it holds " + list};
    }

    zip_stat_t stat;
    zip_stat_init(&stat);
    if (zip_stat_index(archive.get(), static_cast<zip_uint64_t>(chosen), 0, &stat) != 0 ||
        !(stat.valid & ZIP_STAT_SIZE))
        return engine::Error{what + ": member " + names.value(static_cast<qsizetype>(chosen)).toStdString() +
                             ": cannot read its size: " + zip_strerror(archive.get())};
    NpzMember member;
    member.name = QString::fromUtf8(stat.name);
    const std::string memberWhat = what + ", member " + member.name.toStdString();
    if (stat.size > static_cast<zip_uint64_t>(maxBytes))
        return engine::Error{memberWhat + ": inflates to " + engine::groupedNumber(stat.size) +
                             " bytes, over the limit of " + engine::groupedNumber(static_cast<std::size_t>(maxBytes)) +
                             " for an .npz member (save the array with numpy.save as .npy, which is memory-mapped)"};
    std::unique_ptr<zip_file_t, MemberCloser> file(
        zip_fopen_index(archive.get(), static_cast<zip_uint64_t>(chosen), 0));
    if (!file)
        return engine::Error{memberWhat + ": cannot open: " + zip_strerror(archive.get())};
    // Grown as the data really comes rather than allocated from the size the archive claims:
    // a forged size costs nothing, and a zip bomb stops at the limit.
    member.bytes.reserve(static_cast<qsizetype>(std::min<zip_uint64_t>(stat.size, zip_uint64_t{64} << 20)));
    QByteArray chunk(1 << 20, Qt::Uninitialized);
    while (static_cast<zip_uint64_t>(member.bytes.size()) < stat.size) {
        const zip_uint64_t want = std::min<zip_uint64_t>(static_cast<zip_uint64_t>(chunk.size()),
                                                         stat.size - static_cast<zip_uint64_t>(member.bytes.size()));
        const zip_int64_t n = zip_fread(file.get(), chunk.data(), want);
        if (n < 0)
            return engine::Error{memberWhat + ": cannot read at byte " + std::to_string(member.bytes.size()) +
                                 " of its data: " + zip_file_strerror(file.get())};
        if (n == 0)
            return engine::Error{memberWhat + ": the data ends at byte " + std::to_string(member.bytes.size()) +
                                 " of " + std::to_string(stat.size) + " (truncated archive)"};
        member.bytes.append(chunk.constData(), static_cast<qsizetype>(n));
    }
    // One more read: libzip checks the CRC at the end of the stream.
    char extra = 0;
    if (zip_fread(file.get(), &extra, 1) < 0)
        return engine::Error{memberWhat + ": " + zip_file_strerror(file.get())};
    return member;
}

}  // namespace logitlab::app
