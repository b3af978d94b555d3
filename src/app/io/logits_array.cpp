#include "app/io/logits_array.h"

#include "app/io/input_file.h"
#include "app/io/mapped_file.h"
#include "app/io/npz_member.h"
#include "app/io/safetensors_header.h"
#include "engine/io/npy_header.h"
#include "engine/io/safetensors_layout.h"

#include <QFile>

#include <optional>

namespace logitlab::app {

std::span<const unsigned char> byteSpan(const QByteArray& bytes)
{
    return {reinterpret_cast<const unsigned char*>(bytes.constData()), static_cast<std::size_t>(bytes.size())};
}

engine::LogitsFormat fileFormat(const QString& path)
{
    QFile file;
    if (openRegularFile(file, path))
        return engine::LogitsFormat::Text;  // the reader that follows names the problem
    return engine::detectLogitsFormat(byteSpan(file.read(16)));
}

namespace {

// A safetensors file's header: its length and its entries, checked.
struct SafetensorsHeader {
    std::uint64_t length = 0;
    std::vector<engine::SafetensorsEntry> entries;
};

engine::Result<SafetensorsHeader> readSafetensorsHeader(std::span<const unsigned char> bytes, const std::string& what)
{
    const auto headerLength = engine::safetensorsHeaderLength(bytes, what);
    if (!headerLength)
        return engine::Error{headerLength.error()};
    const QByteArray json(reinterpret_cast<const char*>(bytes.data()) + 8, static_cast<qsizetype>(*headerLength));
    auto entries = parseSafetensorsHeader(json, what);
    if (!entries)
        return engine::Error{entries.error()};
    return SafetensorsHeader{*headerLength, std::move(entries).value()};
}

}  // namespace

engine::Result<QStringList> arrayNames(const QString& path)
{
    const std::string what = path.toStdString();
    switch (fileFormat(path)) {
    case engine::LogitsFormat::Text:
    case engine::LogitsFormat::Npy:
        return QStringList{};
    case engine::LogitsFormat::Npz:
        return npzMemberNames(path);
    case engine::LogitsFormat::Safetensors:
        break;
    }
    auto mapped = MappedFile::open(path);
    if (!mapped)
        return engine::Error{mapped.error()};
    const auto header = readSafetensorsHeader(mapped.value()->bytes(), what);
    if (!header)
        return engine::Error{header.error()};
    QStringList names;
    for (const auto& e : header->entries)
        names << QString::fromStdString(e.name);
    return names;
}

engine::Result<LogitsArray> LogitsArray::open(const QString& path, const QString& array, engine::ArrayValues values,
                                              qint64 maxMemberBytes)
{
    const std::string what = path.toStdString();
    // A FIFO, a device or a folder is named as such (the format sniffing below sees none of them).
    if (auto problem = inputFileProblem(path, kMaxMappedFileBytes))
        return engine::Error{*problem};
    LogitsArray opened;
    opened.m_format = fileFormat(path);
    switch (opened.m_format) {
    case engine::LogitsFormat::Text:
        return engine::Error{what +
                             ": offset 0: expected a .npy (\\x93NUMPY), .npz (PK\\x03\\x04) or safetensors file"};
    case engine::LogitsFormat::Npz: {
        auto member = maxMemberBytes >= 0 ? readNpzMember(path, array, maxMemberBytes) : readNpzMember(path, array);
        if (!member)
            return engine::Error{member.error()};
        opened.m_member = std::move(member->bytes);
        auto layout =
            engine::parseNpy(byteSpan(opened.m_member), what + ", member " + member->name.toStdString(), values);
        if (!layout)
            return engine::Error{layout.error()};
        opened.m_layout = std::move(layout).value();
        return opened;
    }
    case engine::LogitsFormat::Npy:
    case engine::LogitsFormat::Safetensors:
        break;
    }
    auto mapped = MappedFile::open(path);
    if (!mapped)
        return engine::Error{mapped.error()};
    opened.m_mapped = std::move(mapped).value();
    const auto bytes = opened.m_mapped->bytes();
    if (opened.m_format == engine::LogitsFormat::Npy) {
        if (!array.isEmpty())
            return engine::Error{what + ": --array '" + array.toStdString() +
                                 "' given, but a .npy file holds one array"};
        auto layout = engine::parseNpy(bytes, what, values);
        if (!layout)
            return engine::Error{layout.error()};
        opened.m_layout = std::move(layout).value();
        return opened;
    }
    const auto header = readSafetensorsHeader(bytes, what);
    if (!header)
        return engine::Error{header.error()};
    auto layout = engine::safetensorsLayout(header->entries, array.toStdString(), header->length, bytes.size(), what,
                                            values == engine::ArrayValues::Integers);
    if (!layout)
        return engine::Error{layout.error()};
    opened.m_layout = std::move(layout).value();
    return opened;
}

std::span<const unsigned char> LogitsArray::bytes() const { return m_mapped ? m_mapped->bytes() : byteSpan(m_member); }

namespace {

// Reads through the mapping's guard: a file that shrank under it cuts the read short.
engine::ElementReader guardedReader(const std::shared_ptr<const MappedFile>& mapped)
{
    if (!mapped)
        return {};
    return [mapped](const std::function<void()>& read) { return mapped->guarded(read); };
}

}  // namespace

engine::Result<Eigen::ArrayXd> LogitsArray::row(std::uint64_t batch, std::uint64_t step) const
{
    return engine::decodeTensorRow(bytes(), m_layout, batch, step, guardedReader(m_mapped));
}

engine::Result<std::vector<std::int32_t>> LogitsArray::tokenIds(std::uint64_t batch, std::uint64_t vocabulary) const
{
    return engine::decodeTokenIds(bytes(), m_layout, batch, vocabulary, guardedReader(m_mapped));
}

}  // namespace logitlab::app
