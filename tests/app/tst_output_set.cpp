// OutputSet: a set of files appears all at once or not at all. A failed write (a folder that
// cannot be created, a name taken by a folder, a full disk) leaves the earlier set untouched and
// removes what this run created.
#include "app/io/output_set.h"
#include "app/io/save_text.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/mount.h>
#include <unistd.h>

using logitlab::app::OutputSet;

namespace {

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
}

void write(const QString& path, const QByteArray& bytes) { QCOMPARE(logitlab::app::saveBytes(path, bytes), QString()); }

// Entries of `folder` other than . and .., hidden ones (the staging folder) included.
QStringList entries(const QString& folder)
{
    return QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

// A 64 KiB tmpfs: a full disk on demand. Needs root (and a kernel that allows it); the tests
// that use it skip otherwise.
class TinyDisk {
public:
    explicit TinyDisk(const QString& path) : m_path(path)
    {
        QDir().mkpath(path);
        m_mounted = ::mount("tmpfs", QFile::encodeName(path).constData(), "tmpfs", 0, "size=64k") == 0;
    }
    ~TinyDisk()
    {
        if (m_mounted)
            ::umount2(QFile::encodeName(m_path).constData(), MNT_DETACH);
    }
    bool mounted() const { return m_mounted; }

private:
    QString m_path;
    bool m_mounted = false;
};

}  // namespace

class TestOutputSet : public QObject {
    Q_OBJECT

private slots:
    void commitReplacesTheEarlierSet()
    {
        QTemporaryDir dir;
        write(dir.filePath(QStringLiteral("r.csv")), "old csv");
        write(dir.filePath(QStringLiteral("r.png")), "old png");
        write(dir.filePath(QStringLiteral("notes.txt")), "someone else's");
        OutputSet set(dir.path());
        QCOMPARE(set.prepare(), QString());
        write(set.stage(QStringLiteral("r.csv")), "new csv");
        write(set.stage(QStringLiteral("r.svg")), "new svg");
        // Nothing is visible until the commit.
        QCOMPARE(readAll(dir.filePath(QStringLiteral("r.csv"))), QByteArray("old csv"));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("r.svg"))));
        QCOMPARE(set.commit(), QString());
        QCOMPARE(readAll(dir.filePath(QStringLiteral("r.csv"))), QByteArray("new csv"));
        QCOMPARE(readAll(dir.filePath(QStringLiteral("r.svg"))), QByteArray("new svg"));
        QCOMPARE(readAll(dir.filePath(QStringLiteral("r.png"))), QByteArray("old png"));  // not part of this set
        QCOMPARE(readAll(dir.filePath(QStringLiteral("notes.txt"))), QByteArray("someone else's"));
        QCOMPARE(entries(dir.path()), (QStringList{"notes.txt", "r.csv", "r.png", "r.svg"}));
        QCOMPARE(set.paths(),
                 (QStringList{dir.filePath(QStringLiteral("r.csv")), dir.filePath(QStringLiteral("r.svg"))}));
    }

    // Destroyed without a commit (a failed write, an exception, a signal): as if it never ran.
    void noCommitLeavesTheEarlierSet()
    {
        QTemporaryDir dir;
        write(dir.filePath(QStringLiteral("r.csv")), "old csv");
        {
            OutputSet set(dir.path());
            QCOMPARE(set.prepare(), QString());
            QVERIFY(QFileInfo(set.stagingFolder()).isDir());
            QVERIFY(QFileInfo(set.stagingFolder()).fileName().startsWith(QStringLiteral(".logitlab-tmp-")));
            write(set.stage(QStringLiteral("r.csv")), "new csv");
        }
        QCOMPARE(entries(dir.path()), QStringList{"r.csv"});
        QCOMPARE(readAll(dir.filePath(QStringLiteral("r.csv"))), QByteArray("old csv"));
    }

    // A folder the run created (with its missing parents) goes again; one that existed stays.
    void createdFoldersAreRemovedOnFailure()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("a/b/out"));
        {
            OutputSet set(out);
            QCOMPARE(set.prepare(), QString());
            QVERIFY(QFileInfo(out).isDir());
            write(set.stage(QStringLiteral("r.csv")), "csv");
        }
        QCOMPARE(entries(dir.path()), QStringList());
        {
            QVERIFY(QDir().mkpath(out));
            OutputSet set(out);
            QCOMPARE(set.prepare(), QString());
        }
        QVERIFY(QFileInfo(out).isDir());
        QCOMPARE(entries(out), QStringList());
    }

    void folderThatCannotBeCreated_data()
    {
        QTest::addColumn<QString>("out");  // FILE is a regular file
        QTest::addColumn<QString>("message");
        QTest::newRow("under a regular file")
            << QStringLiteral("FILE/out") << QStringLiteral("FILE/out: cannot create the folder: Not a directory");
        QTest::newRow("deeper under it") << QStringLiteral("FILE/a/b")
                                         << QStringLiteral("FILE/a: cannot create the folder: Not a directory");
        QTest::newRow("is a regular file")
            << QStringLiteral("FILE") << QStringLiteral("FILE: exists and is not a folder");
    }
    void folderThatCannotBeCreated()
    {
        QFETCH(QString, out);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("file"));
        write(file, "x");
        OutputSet set(out.replace(QStringLiteral("FILE"), file));
        QCOMPARE(set.prepare(), message.replace(QStringLiteral("FILE"), file));
        QCOMPARE(entries(dir.path()), QStringList{"file"});
    }

    void readOnlyFolder()
    {
        if (::geteuid() == 0)
            QSKIP("root writes into read-only folders");
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("ro"));
        QVERIFY(QDir().mkpath(out));
        QVERIFY(QFile::setPermissions(out, QFile::ReadOwner | QFile::ExeOwner));
        OutputSet set(out);
        QVERIFY(set.prepare().startsWith(out + QStringLiteral(": cannot write into the folder")));
        QFile::setPermissions(out, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }

    // The second file's name is taken by a folder: the move fails after the first file was moved,
    // and the first file's earlier version comes back.
    void failedCommitPutsTheEarlierFilesBack()
    {
        QTemporaryDir dir;
        write(dir.filePath(QStringLiteral("r.csv")), "old csv");
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("r.png")));
        write(dir.filePath(QStringLiteral("r.png/inside")), "x");
        OutputSet set(dir.path());
        QCOMPARE(set.prepare(), QString());
        write(set.stage(QStringLiteral("r.csv")), "new csv");
        write(set.stage(QStringLiteral("r.png")), "new png");
        const QString error = set.commit();
        QVERIFY2(error.startsWith(dir.filePath(QStringLiteral("r.png")) + QStringLiteral(": cannot be written: ")),
                 qPrintable(error));
        QVERIFY(!set.committed());
        QCOMPARE(readAll(dir.filePath(QStringLiteral("r.csv"))), QByteArray("old csv"));
        set.rollback();
        QCOMPARE(entries(dir.path()), (QStringList{"r.csv", "r.png"}));
    }

    // A full disk while the set is written: the operating system's words, and the earlier set
    // intact. Needs root to mount a 64 KiB tmpfs; skipped otherwise.
    void fullDisk()
    {
        QTemporaryDir dir;
        const TinyDisk disk(dir.filePath(QStringLiteral("disk")));
        if (!disk.mounted())
            QSKIP("cannot mount a tmpfs here (needs root)");
        const QString out = dir.filePath(QStringLiteral("disk/out"));
        QVERIFY(QDir().mkpath(out));
        write(QDir(out).filePath(QStringLiteral("r.csv")), "old csv");
        QString error;
        {
            OutputSet set(out);
            QCOMPARE(set.prepare(), QString());
            write(set.stage(QStringLiteral("r.csv")), "new csv");
            const QString png = set.stage(QStringLiteral("r.png"));
            error = logitlab::app::saveBytes(png, QByteArray(200 * 1024, 'x'));
        }
        QVERIFY2(error.endsWith(QStringLiteral("No space left on device")), qPrintable(error));
        QCOMPARE(entries(out), QStringList{"r.csv"});
        QCOMPARE(readAll(QDir(out).filePath(QStringLiteral("r.csv"))), QByteArray("old csv"));

        // A folder created on the full disk is removed again.
        const QString fresh = dir.filePath(QStringLiteral("disk/fresh/out"));
        {
            OutputSet set(fresh);
            QCOMPARE(set.prepare(), QString());
            QVERIFY(
                !logitlab::app::saveBytes(set.stage(QStringLiteral("r.png")), QByteArray(200 * 1024, 'x')).isEmpty());
        }
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("disk/fresh"))));
    }
};

QTEST_GUILESS_MAIN(TestOutputSet)
#include "tst_output_set.moc"
