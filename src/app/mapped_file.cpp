#include "mapped_file.h"

#include "input_file.h"

namespace logitlab::app {

engine::Result<std::shared_ptr<const MappedFile>> MappedFile::open(const QString& path)
{
    if (auto problem = inputFileProblem(path, kMaxMappedFileBytes))
        return engine::Error{*problem};
    std::shared_ptr<MappedFile> mapped(new MappedFile);
    mapped->m_file.setFileName(path);
    if (!mapped->m_file.open(QIODevice::ReadOnly))
        return engine::Error{path.toStdString() + ": cannot read: " + mapped->m_file.errorString().toStdString()};
    const qint64 size = mapped->m_file.size();
    if (size == 0)
        return std::shared_ptr<const MappedFile>(std::move(mapped));
    if (uchar* data = mapped->m_file.map(0, size)) {
        mapped->m_data = data;
        mapped->m_size = static_cast<std::size_t>(size);
        return std::shared_ptr<const MappedFile>(std::move(mapped));
    }
    auto bytes = readInputFile(path, kMaxReadFileBytes);
    if (!bytes)
        return engine::Error{bytes.error() + " (it could not be memory-mapped: "
                             + mapped->m_file.errorString().toStdString() + ")"};
    mapped->m_copy = std::move(bytes).value();
    mapped->m_data = reinterpret_cast<const unsigned char*>(mapped->m_copy.constData());
    mapped->m_size = static_cast<std::size_t>(mapped->m_copy.size());
    return std::shared_ptr<const MappedFile>(std::move(mapped));
}

MappedFile::~MappedFile()
{
    if (m_copy.isEmpty() && m_data)
        m_file.unmap(const_cast<uchar*>(m_data));
}

}  // namespace logitlab::app
