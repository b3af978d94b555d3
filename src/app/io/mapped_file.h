// A file's bytes memory-mapped read-only (QFile::map), so a 120 MB dump of logits costs no copy
// and a row is read by touching only its pages. The mapping is in the app layer, not behind an
// engine interface: the engine knows no files (docs/architecture.md), and QFile::map is the
// portable mmap Qt already gives us. Where mapping fails (some file systems), the file is read.
#pragma once

#include "app/io/input_file.h"
#include "engine/core/result.h"

#include <QByteArray>
#include <QFile>
#include <QString>

#include <functional>
#include <memory>
#include <span>

namespace logitlab::app {

// The largest file mapped: address space, not memory, but a file this large is a mistake.
inline constexpr qint64 kMaxMappedFileBytes = qint64{64} << 30;  // 64 GiB
// The largest file read into memory where mapping is not possible.
inline constexpr qint64 kMaxReadFileBytes = qint64{2} << 30;  // 2 GiB

class MappedFile {
public:
    static engine::Result<std::shared_ptr<const MappedFile>> open(const QString& path);
    // The file read into memory instead (at most maxBytes): for readers whose reads cannot go
    // through guarded() (a model's forward pass reads on a pool of threads), so a file truncated
    // underneath them is no SIGBUS.
    static engine::Result<std::shared_ptr<const MappedFile>>
    read(const QString& path, const ReadProgress& progress = {}, qint64 maxBytes = kMaxReadFileBytes);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    std::span<const unsigned char> bytes() const { return {m_data, m_size}; }
    // Runs `read`, which reads bytes(), and returns false when the file shrank underneath it
    // (another program truncated it): the kernel's SIGBUS for a page past the new end is caught
    // on this thread and `read` abandoned there. Every read of a mapping goes through here, so a
    // truncated dump gives an error, not a crash. `read` must own nothing that needs a destructor
    // at the point where it touches the mapping beyond what it may leak (a row's buffer).
    bool guarded(const std::function<void()>& read) const;

private:
    MappedFile() = default;

    QFile m_file;
    QByteArray m_copy;  // when mapping failed
    const unsigned char* m_data = nullptr;
    std::size_t m_size = 0;
};

}  // namespace logitlab::app
