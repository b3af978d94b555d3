// A set of output files that appears all at once or not at all. `logitlab-cli run --out DIR`
// writes its CSV and charts into a staging folder inside DIR (same file system, so moving is a
// rename), and only when every file is complete are they moved over the earlier set. A full
// disk, a failed chart, a signal or an exception leaves DIR as it was: the staging folder is
// removed, and a DIR this run created is removed again.
#pragma once

#include <QString>
#include <QStringList>

#include <memory>

QT_BEGIN_NAMESPACE
class QTemporaryDir;
QT_END_NAMESPACE

namespace logitlab::app {

class OutputSet {
public:
    explicit OutputSet(QString folder);
    ~OutputSet();  // rolls back unless committed
    OutputSet(const OutputSet&) = delete;
    OutputSet& operator=(const OutputSet&) = delete;

    // Creates the folder (and missing parents) and the staging folder in it. Call it before any
    // long computation: a folder that cannot be created is then said at once. Returns an empty
    // string on success, else a message naming the folder and the operating system's reason.
    QString prepare();

    // Where to write the file `fileName` (a plain name, no folders) until commit().
    QString stage(const QString& fileName);

    // Moves every staged file into the folder, replacing files of the same names: all or none
    // (a failed move puts the earlier files back). Returns an empty string or the message.
    QString commit();

    // Removes the staging folder and the folders prepare() created; the earlier set stays.
    void rollback();

    // The final paths of the staged files, in the order they were staged.
    QStringList paths() const;
    QString stagingFolder() const;
    // The folders prepare() created, outermost first (removed again by a rollback).
    QStringList createdFolders() const { return m_createdFolders; }
    bool committed() const { return m_committed; }

private:
    QString m_folder;
    std::unique_ptr<QTemporaryDir> m_staging;
    QStringList m_names;
    QStringList m_createdFolders;  // outermost first
    bool m_committed = false;
};

}  // namespace logitlab::app
