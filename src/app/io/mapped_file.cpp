#include "app/io/mapped_file.h"

#include "app/io/input_file.h"

#include <mutex>

#include <csetjmp>
#include <signal.h>

namespace logitlab::app {

namespace {

// Where a guarded read on this thread jumps back to when its page is gone.
thread_local sigjmp_buf* t_truncatedJump = nullptr;
struct sigaction g_previousBus;

extern "C" void onBus(int number, siginfo_t* info, void* context)
{
    if (sigjmp_buf* jump = t_truncatedJump)
        siglongjmp(*jump, 1);
    // Not a guarded read: whatever handled SIGBUS before (by default, the process ends), by
    // putting it back and letting the faulting access run again.
    sigaction(SIGBUS, &g_previousBus, nullptr);
    (void)number;
    (void)info;
    (void)context;
}

void installBusHandler()
{
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction action = {};
        action.sa_sigaction = onBus;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigaction(SIGBUS, &action, &g_previousBus);
    });
}

}  // namespace

bool MappedFile::guarded(const std::function<void()>& read) const
{
    if (!m_copy.isEmpty() || !m_data) {
        read();  // a copy in memory cannot shrink
        return true;
    }
    installBusHandler();
    sigjmp_buf jump;
    sigjmp_buf* const outer = t_truncatedJump;
    if (sigsetjmp(jump, 1) != 0) {
        t_truncatedJump = outer;
        return false;
    }
    t_truncatedJump = &jump;
    read();
    t_truncatedJump = outer;
    return true;
}

engine::Result<std::shared_ptr<const MappedFile>> MappedFile::open(const QString& path)
{
    if (auto problem = inputFileProblem(path, kMaxMappedFileBytes))
        return engine::Error{*problem};
    std::shared_ptr<MappedFile> mapped(new MappedFile);
    if (auto problem = openRegularFile(mapped->m_file, path))
        return engine::Error{*problem};
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
        return engine::Error{bytes.error() +
                             " (it could not be memory-mapped: " + mapped->m_file.errorString().toStdString() + ")"};
    mapped->m_copy = std::move(bytes).value();
    mapped->m_data = reinterpret_cast<const unsigned char*>(mapped->m_copy.constData());
    mapped->m_size = static_cast<std::size_t>(mapped->m_copy.size());
    return std::shared_ptr<const MappedFile>(std::move(mapped));
}

engine::Result<std::shared_ptr<const MappedFile>> MappedFile::read(const QString& path, const ReadProgress& progress,
                                                                   qint64 maxBytes)
{
    auto bytes = readInputFile(path, maxBytes, /*hugePages=*/true, progress);
    if (!bytes)
        return engine::Error{bytes.error()};
    std::shared_ptr<MappedFile> copy(new MappedFile);
    copy->m_copy = std::move(bytes).value();
    copy->m_data = reinterpret_cast<const unsigned char*>(copy->m_copy.constData());
    copy->m_size = static_cast<std::size_t>(copy->m_copy.size());
    return std::shared_ptr<const MappedFile>(std::move(copy));
}

MappedFile::~MappedFile()
{
    if (m_copy.isEmpty() && m_data)
        m_file.unmap(const_cast<uchar*>(m_data));
}

}  // namespace logitlab::app
