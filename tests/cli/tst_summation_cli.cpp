// `logitlab-cli run` on the summation-order examples as a user runs it: the CSVs and charts are
// written, and the CSV read back holds the experiment's numbers (the exact sum's row at 0 ULPs,
// one row per shuffle, the lesson's values).
#include "support/example_files.h"
#include "support/test_support.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

int runCli(const QStringList& arguments, QByteArray* err)
{
    const logitlab::test::CliRun run = logitlab::test::runCli(QStringList{QStringLiteral("run")} + arguments);
    *err = run.err;
    return run.exitCode;
}

// The CSV's data rows (provenance `#` lines and the header dropped), split on commas (the
// cells compared here hold none).
QList<QStringList> csvRows(const QString& path, QStringList* header)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QList<QStringList> rows;
    bool first = true;
    for (const QByteArray& line : file.readAll().split('\n')) {
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        const QStringList cells = QString::fromUtf8(line).split(QLatin1Char(','));
        if (first)
            *header = cells;
        else
            rows << cells;
        first = false;
    }
    return rows;
}

}  // namespace

class TestSummationCli : public QObject {
    Q_OBJECT

private slots:
    // A run without a spread writes no spread figure (it would be an empty chart: its only text
    // is a hint in the title, which exports leave off).
    void noSpreadNoSpreadFigure()
    {
        QTemporaryDir dir;
        QByteArray err;
        const int code =
            runCli({logitlab::test::examplePath(QStringLiteral("summation-order-lesson.json")), QStringLiteral("--out"),
                    dir.path(), QStringLiteral("--formats"), QStringLiteral("png")},
                   &err);
        QVERIFY2(code == 0, err.constData());
        const QString base = QDir(dir.path()).filePath(QStringLiteral("summation-order-lesson"));
        QVERIFY(QFile::exists(base + QStringLiteral(".png")));
        QVERIFY(QFile::exists(base + QStringLiteral("-histogram.png")));
        QVERIFY(!QFile::exists(base + QStringLiteral("-spread.png")));
    }

    void writesCsvAndCharts()
    {
        QTemporaryDir dir;
        QByteArray err;
        const int code =
            runCli({logitlab::test::examplePath(QStringLiteral("summation-order-normal.json")), QStringLiteral("--out"),
                    dir.path(), QStringLiteral("--set"), QStringLiteral("shuffles=40"), QStringLiteral("--set"),
                    QStringLiteral("spread.max_n=1000"), QStringLiteral("--formats"), QStringLiteral("csv,png")},
                   &err);
        QVERIFY2(code == 0, err.constData());
        const QString base = QDir(dir.path()).filePath(QStringLiteral("summation-order-normal"));
        for (const QString& suffix :
             {QStringLiteral(".csv"), QStringLiteral("-shuffles.csv"), QStringLiteral("-histogram.csv"),
              QStringLiteral("-spread.csv"), QStringLiteral("-lesson.csv"), QStringLiteral(".png"),
              QStringLiteral("-histogram.png"), QStringLiteral("-spread.png")})
            QVERIFY2(QFile::exists(base + suffix), qPrintable(base + suffix));

        QStringList header;
        const auto methods = csvRows(base + QStringLiteral(".csv"), &header);
        QCOMPARE(header.mid(0, 4), (QStringList{QStringLiteral("method"), QStringLiteral("result"),
                                                QStringLiteral("bits"), QStringLiteral("error_ulps")}));
        QCOMPARE(methods.size(), 12 + 2);  // every order (numpy-sum included), and the best and worst shuffle
        for (const QStringList& row : methods)
            if (row[0] == QLatin1String("exact"))
                QCOMPARE(row[3], QStringLiteral("0"));
        const auto shuffles = csvRows(base + QStringLiteral("-shuffles.csv"), &header);
        QCOMPARE(shuffles.size(), 40);
        QCOMPARE(shuffles.last()[0], QStringLiteral("39"));
        const auto spread = csvRows(base + QStringLiteral("-spread.csv"), &header);
        QCOMPARE(spread.size(), 2);
        QCOMPARE(spread[1][0], QStringLiteral("1000"));
        const auto lesson = csvRows(base + QStringLiteral("-lesson.csv"), &header);
        QCOMPARE(lesson.size(), 4);
        QCOMPARE(lesson[2][1], QStringLiteral("0.6000000000000001"));
        QCOMPARE(lesson[3][1], QStringLiteral("0.6"));
    }

    void badInputExitsTwoNamingTheKey()
    {
        QTemporaryDir dir;
        QByteArray err;
        const int code =
            runCli({logitlab::test::examplePath(QStringLiteral("summation-order-normal.json")), QStringLiteral("--out"),
                    dir.path(), QStringLiteral("--set"), QStringLiteral("terms.n=0")},
                   &err);
        QCOMPARE(code, 2);
        QVERIFY2(err.contains("terms.n: must be in 1..10000000, got 0"), err.constData());
        QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList());
    }
};

QTEST_GUILESS_MAIN(TestSummationCli)
#include "tst_summation_cli.moc"
