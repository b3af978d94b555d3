// Runs the built logitlab-cli: the JSON shapes of `candidates` and `sample`, the lesson's exact
// draws, files as input, and every bad input giving exit code 2 with one line on stderr.
#include "support/test_support.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace logitlab;

namespace {

using Run = test::CliRun;

Run cli(const QStringList& args) { return test::runCli(args); }

QJsonObject json(const Run& r)
{
    QJsonParseError e;
    const QJsonDocument d = QJsonDocument::fromJson(r.out, &e);
    if (e.error != QJsonParseError::NoError)
        qWarning() << "not JSON:" << r.out;
    return d.object();
}

const QStringList kLesson{QStringLiteral("--logits"), QStringLiteral("3,2,1.5,1,-2"), QStringLiteral("--tokens"),
                          QStringLiteral("users,data,items,result,banana")};
const QStringList kExercise{QStringLiteral("--logits"), QStringLiteral("2.5,2.2,1.0,0.3,-0.5"),
                            QStringLiteral("--tokens"), QStringLiteral("=>,{,(,async,//")};

}  // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void candidatesJsonShape()
    {
        const Run r = cli(QStringList{QStringLiteral("candidates")} + kLesson +
                          QStringList{QStringLiteral("--top-p"), QStringLiteral("0.9"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = json(r);
        const QJsonArray s = o.value(QStringLiteral("survivors")).toArray();
        QCOMPARE(s.size(), 3);
        QCOMPARE(s[0].toObject().value(QStringLiteral("token")).toString(), QStringLiteral("users"));
        QCOMPARE(s[0].toObject().value(QStringLiteral("id")).toInt(), 0);
        QCOMPARE(s[0].toObject().value(QStringLiteral("p")).toDouble(), 0.6285317192117624);
        QCOMPARE(s[2].toObject().value(QStringLiteral("p")).toDouble(), 0.1402443831660885);
        QCOMPARE(s[0].toObject().value(QStringLiteral("p_raw")).toDouble(), 0.5770064660454952);
        QVERIFY(r.out.contains("0.6285317192117624"));  // full precision in the text too
        QCOMPARE(o.value(QStringLiteral("settings")).toObject().value(QStringLiteral("top-p")).toDouble(), 0.9);
    }

    void candidatesDefaultsAndGreedy()
    {
        Run r = cli({QStringLiteral("candidates"), QStringLiteral("--logits"), QStringLiteral("1,2"),
                     QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        QJsonObject o = json(r);
        QCOMPARE(o.value(QStringLiteral("survivors")).toArray().size(), 2);  // T=1, no filters
        QCOMPARE(o.value(QStringLiteral("survivors")).toArray()[0].toObject().value(QStringLiteral("token")).toString(),
                 QStringLiteral("1"));  // named by id
        r = cli(QStringList{QStringLiteral("candidates")} + kLesson +
                QStringList{QStringLiteral("--temperature"), QStringLiteral("0"), QStringLiteral("--json")});
        o = json(r);
        QCOMPARE(o.value(QStringLiteral("survivors")).toArray().size(), 1);
        QCOMPARE(o.value(QStringLiteral("survivors")).toArray()[0].toObject().value(QStringLiteral("p")).toDouble(),
                 1.0);
    }

    void sampleReproducesTheLesson()
    {
        const Run r = cli(QStringList{QStringLiteral("sample")} + kExercise +
                          QStringList{QStringLiteral("--top-p"), QStringLiteral("0.9"), QStringLiteral("--seed"),
                                      QStringLiteral("42"), QStringLiteral("--rng"), QStringLiteral("mulberry32"),
                                      QStringLiteral("--draws"), QStringLiteral("1000"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = json(r);
        const QJsonObject counts = o.value(QStringLiteral("counts")).toObject();
        QCOMPARE(counts.value(QStringLiteral("=>")).toInt(), 493);
        QCOMPARE(counts.value(QStringLiteral("{")).toInt(), 393);
        QCOMPARE(counts.value(QStringLiteral("(")).toInt(), 114);
        QVERIFY(!counts.contains(QStringLiteral("async")));
        QCOMPARE(o.value(QStringLiteral("draws")).toInt(), 1000);
        QCOMPARE(o.value(QStringLiteral("seed")).toInt(), 42);
        QCOMPARE(o.value(QStringLiteral("rng")).toString(), QStringLiteral("mulberry32"));
        QVERIFY(!o.contains(QStringLiteral("sequence")));
    }

    void sampleSequence()
    {
        const Run r = cli(QStringList{QStringLiteral("sample")} + kExercise +
                          QStringList{QStringLiteral("--top-p"), QStringLiteral("0.9"), QStringLiteral("--draws"),
                                      QStringLiteral("20"), QStringLiteral("--sequence"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        QList<int> ids;
        for (const auto& v : json(r).value(QStringLiteral("sequence")).toArray())
            ids << v.toInt();
        QCOMPARE(ids, (QList<int>{1, 0, 1, 1, 0, 1, 0, 1, 1, 0, 0, 1, 1, 0, 0, 0, 1, 1, 0, 0}));
    }

    void logitsFromFiles()
    {
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("l.csv"));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("token,logit\nusers,3\ndata,2\nitems,1.5\nresult,1\nbanana,-2\n");
        f.close();
        const Run r = cli({QStringLiteral("candidates"), QStringLiteral("--logits-file"), csv,
                           QStringLiteral("--top-p"), QStringLiteral("0.9"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray s = json(r).value(QStringLiteral("survivors")).toArray();
        QCOMPARE(s.size(), 3);
        QCOMPARE(s[1].toObject().value(QStringLiteral("token")).toString(), QStringLiteral("data"));
    }

    void helpOnEveryCommand_data()
    {
        QTest::addColumn<QString>("command");
        QTest::newRow("candidates") << "candidates";
        QTest::newRow("sample") << "sample";
    }
    void helpOnEveryCommand()
    {
        QFETCH(QString, command);
        const Run r = cli({command, QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("--temperature"));
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString c = QStringLiteral("candidates");
        const QString s = QStringLiteral("sample");
        QTest::newRow("not a number") << QStringList{c, "--logits", "1,x"} << "item 2 ('x') is not a number";
        QTest::newRow("nan") << QStringList{c, "--logits", "1,nan"} << "item 2 is NaN";
        QTest::newRow("+inf") << QStringList{c, "--logits", "inf,1"} << "item 1 is +inf";
        QTest::newRow("all -inf") << QStringList{c, "--logits", "-inf,-inf"} << "every logit is -inf";
        QTest::newRow("empty list") << QStringList{c, "--logits", ""} << "the list is empty";
        QTest::newRow("no logits") << QStringList{c} << "no logits";
        QTest::newRow("lengths differ") << QStringList{c, "--logits", "1,2", "--tokens", "a"}
                                        << "1 tokens for 2 logits";
        QTest::newRow("temperature < 0") << QStringList{c, "--logits", "1", "--temperature", "-0.5"}
                                         << "temperature: must be 0 (greedy) or greater";
        QTest::newRow("temperature nan") << QStringList{c, "--logits", "1", "--temperature", "nan"}
                                         << "temperature: NaN";
        QTest::newRow("top-p 0") << QStringList{c, "--logits", "1", "--top-p", "0"} << "top-p: must be in (0, 1]";
        QTest::newRow("top-p 1.01") << QStringList{c, "--logits", "1", "--top-p", "1.01"} << "top-p: must be in (0, 1]";
        QTest::newRow("top-k 0") << QStringList{c, "--logits", "1", "--top-k", "0"} << "top-k: must be between 1";
        QTest::newRow("top-k word") << QStringList{c, "--logits", "1", "--top-k", "many"}
                                    << "top-k: 'many' is not a number";
        QTest::newRow("unknown rng") << QStringList{s, "--logits", "1", "--rng", "dice"} << "unknown generator 'dice'";
        QTest::newRow("draws < 0") << QStringList{s, "--logits", "1", "--draws", "-3"} << "draws: must be between 0";
        QTest::newRow("missing file") << QStringList{c, "--logits-file", "/nonexistent/l.txt"} << "no such file";
        QTest::newRow("device file") << QStringList{c, "--logits-file", "/dev/zero"}
                                     << "/dev/zero: is not a regular file";
        QTest::newRow("newline in a token")
            << QStringList{c, "--logits", "1,x\ny"} << "item 2 ('x\\ny') is not a number";
        QTest::newRow("token name too long")
            << QStringList{c, "--logits", "1", "--tokens", QString(2000, QLatin1Char('t'))}
            << "tokens: item 1 is 2,000 characters long; token names are limited to 1,024";
        QTest::newRow("unknown option") << QStringList{c, "--logits", "1", "--top-z", "3"} << "Unknown option 'top-z'";
        QTest::newRow("unknown command") << QStringList{"frobnicate"} << "unknown command 'frobnicate'";
    }
    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = cli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        const QString err = QString::fromUtf8(r.err);
        QCOMPARE(err.count(QLatin1Char('\n')), 1);  // exactly one line
        QVERIFY2(err.contains(message), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
