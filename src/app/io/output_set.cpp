#include "app/io/output_set.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>

#include <filesystem>
#include <system_error>

namespace logitlab::app {

namespace {

namespace fs = std::filesystem;

fs::path nativePath(const QString& path) { return fs::path(QDir::toNativeSeparators(path).toStdString()); }

// rename(2) through std::filesystem: replaces an existing file in one step, and says why it
// failed in the operating system's words.
QString moveFile(const QString& from, const QString& to)
{
    std::error_code ec;
    fs::rename(nativePath(from), nativePath(to), ec);
    return ec ? QString::fromLocal8Bit(ec.message().c_str()) : QString();
}

}  // namespace

OutputSet::OutputSet(QString folder) : m_folder(std::move(folder)) {}

OutputSet::~OutputSet()
{
    if (!m_committed)
        rollback();
}

QString OutputSet::prepare()
{
    // Which ancestors are missing, outermost first: those are the ones to remove on failure.
    QStringList missing;
    for (QFileInfo info(QDir::cleanPath(QDir(m_folder).absolutePath())); !info.exists();
         info = QFileInfo(info.absolutePath())) {
        missing.prepend(info.absoluteFilePath());
        if (info.isRoot() || info.absolutePath() == info.absoluteFilePath())
            break;
    }
    for (const QString& dir : missing) {
        std::error_code ec;
        fs::create_directory(nativePath(dir), ec);
        if (ec) {
            const QString why = QString::fromLocal8Bit(ec.message().c_str());
            rollback();
            return QStringLiteral("%1: cannot create the folder: %2").arg(dir, why);
        }
        m_createdFolders << dir;
    }
    if (!QFileInfo(m_folder).isDir())
        return QStringLiteral("%1: exists and is not a folder").arg(m_folder);
    m_staging = std::make_unique<QTemporaryDir>(QDir(m_folder).filePath(QStringLiteral(".logitlab-tmp-XXXXXX")));
    if (!m_staging->isValid()) {
        const QString why = m_staging->errorString();
        rollback();
        return QStringLiteral("%1: cannot write into the folder: %2").arg(m_folder, why);
    }
    return {};
}

QString OutputSet::stage(const QString& fileName)
{
    m_names << fileName;
    return m_staging ? m_staging->filePath(fileName) : QString();
}

QString OutputSet::commit()
{
    if (!m_staging)
        return QStringLiteral("%1: the output folder was not prepared").arg(m_folder);
    const QDir target(m_folder);
    const QDir staging(m_staging->path());
    const QString previous = staging.filePath(QStringLiteral(".previous"));
    if (!QDir().mkpath(previous))
        return QStringLiteral("%1: cannot write into the folder").arg(m_staging->path());

    // Each step is undone in reverse when a later one fails.
    struct Step {
        QString name;
        bool hadOld = false;
    };
    QList<Step> done;
    const auto undo = [&] {
        for (auto it = done.crbegin(); it != done.crend(); ++it) {
            moveFile(target.filePath(it->name), staging.filePath(it->name));
            if (it->hadOld)
                moveFile(QDir(previous).filePath(it->name), target.filePath(it->name));
        }
    };
    for (const QString& name : m_names) {
        Step step{name, QFileInfo::exists(target.filePath(name)) && !QFileInfo(target.filePath(name)).isDir()};
        if (step.hadOld) {
            if (const QString why = moveFile(target.filePath(name), QDir(previous).filePath(name)); !why.isEmpty()) {
                undo();
                return QStringLiteral("%1: cannot replace: %2").arg(target.filePath(name), why);
            }
        }
        if (const QString why = moveFile(staging.filePath(name), target.filePath(name)); !why.isEmpty()) {
            if (step.hadOld)
                moveFile(QDir(previous).filePath(name), target.filePath(name));
            undo();
            return QStringLiteral("%1: cannot be written: %2").arg(target.filePath(name), why);
        }
        done << step;
    }
    m_committed = true;
    m_staging.reset();  // removes the staging folder with the earlier files it now holds
    return {};
}

void OutputSet::rollback()
{
    m_staging.reset();
    // Innermost first; rmdir only removes empty folders, so nothing of anyone else's goes.
    for (auto it = m_createdFolders.crbegin(); it != m_createdFolders.crend(); ++it)
        QDir().rmdir(*it);
    m_createdFolders.clear();
}

QStringList OutputSet::paths() const
{
    QStringList paths;
    for (const QString& name : m_names)
        paths << QDir(m_folder).filePath(name);
    return paths;
}

QString OutputSet::stagingFolder() const { return m_staging ? m_staging->path() : QString(); }

}  // namespace logitlab::app
