// Issue 34: bounded work and memory for every kind. Each test is one of the numbered
// findings, reproduced as it was reported (mostly through logitlab-cli, as the attack ran it):
// a run over a limit is refused before any work with its estimate and the limit named in
// readable numbers (exit 2); a FIFO is refused without blocking; a dump truncated underneath a
// reader gives an error, not SIGBUS; a signal ends any phase of `run` within about a second
// with nothing left behind; token names reach the terminal escaped; `sample --json` never loses
// draws to a name collision; and the small messages and overflow results of item 15.
#include "app/io/logits_array.h"
#include "app/io/logits_file.h"
#include "app/io/npz_member.h"
#include "app/io/vocabulary_file.h"
#include "app/kinds/imported_logits_source.h"
#include "engine/core/work_limits.h"
#include "engine/experiments/summation_methods.h"
#include "engine/experiments/summation_order.h"
#include "engine/experiments/summation_terms.h"
#include "support/array_fixtures.h"
#include "support/example_files.h"
#include "support/npz_writer.h"
#include "support/test_support.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <csignal>
#include <limits>

#include <sys/stat.h>
#include <unistd.h>

using namespace logitlab;

namespace {

struct TimedRun {
    bool finished = false;  // within the time allowed (else it was killed)
    int exitCode = -1;      // -1: crashed or killed
    QByteArray out;
    QByteArray err;
    qint64 afterSignalMs = -1;  // from the signal to the end; -1 when it ended before the signal
};

// logitlab-cli with a deadline (a hang is a failure, not a stuck test), optionally sent
// `signalNumber` after `signalAfterMs`.
TimedRun runFor(const QStringList& arguments, int timeoutMs, int signalAfterMs = -1, int signalNumber = SIGINT)
{
    QProcess process;
    process.setProcessEnvironment(test::headlessEnvironment());
    process.start(test::binaryPath(QStringLiteral("logitlab-cli")), arguments);
    TimedRun run;
    if (!process.waitForStarted(10000))
        return run;
    QElapsedTimer sinceSignal;
    bool ended = false;
    if (signalAfterMs >= 0) {
        ended = process.waitForFinished(signalAfterMs);
        if (!ended) {
            ::kill(static_cast<pid_t>(process.processId()), signalNumber);
            sinceSignal.start();
        }
    }
    if (!ended)
        ended = process.waitForFinished(timeoutMs);
    if (sinceSignal.isValid() && ended)
        run.afterSignalMs = sinceSignal.elapsed();
    if (!ended) {
        process.kill();
        process.waitForFinished(5000);
    }
    run.finished = ended;
    run.exitCode = ended && process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

QString writeJson(const QTemporaryDir& dir, const QString& name, const QJsonObject& object)
{
    return test::writeFixture(dir, name, QJsonDocument(object).toJson(QJsonDocument::Compact));
}

// A float32 .npy of [steps, vocabulary] zeros, written sparse (the data is a hole).
QString sparseNpy(const QTemporaryDir& dir, const QString& name, std::uint64_t steps, std::uint64_t vocabulary)
{
    const QByteArray header = test::npyFile("<f4", false, test::pythonShape({steps, vocabulary}), QByteArray());
    const QString path = test::writeFixture(dir, name, header);
    QFile file(path);
    if (!file.open(QIODevice::ReadWrite) || !file.resize(header.size() + static_cast<qint64>(steps * vocabulary * 4)))
        qFatal("cannot size the test file");
    return path;
}

// Readable numbers: never "1e+10", always the limit named.
void verifyReadableRefusal(const TimedRun& run, const QString& expected)
{
    QVERIFY2(run.finished, run.err.constData());
    QCOMPARE(run.exitCode, 2);
    const QString err = QString::fromUtf8(run.err);
    QVERIFY2(err.contains(expected), qPrintable(err));
    QVERIFY2(err.contains(QStringLiteral("over the limit of")), qPrintable(err));
    QVERIFY2(!err.contains(QStringLiteral("e+")), qPrintable(err));
}

}  // namespace

class TestWorkBounds : public QObject {
    Q_OBJECT

private slots:
    void readableNumbers()
    {
        QCOMPARE(engine::readableCount(5e13), std::string("5.0e13"));
        QCOMPARE(engine::readableCount(1e10), std::string("1.0e10"));
        QCOMPARE(engine::readableCount(9.96e10), std::string("1.0e11"));
        QCOMPARE(engine::readableCount(640000), std::string("640,000"));
        QCOMPARE(engine::readableBytes(4.5 * 1024 * 1024 * 1024), std::string("4.5 GiB"));
        const auto refused = engine::checkWork("draws", 5e13, 1e10, "fewer", "draws");
        QVERIFY(refused);
        QCOMPARE(QString::fromStdString(*refused).left(60),
                 QStringLiteral("draws: about 5.0e13 draws of work, over the limit of 1.0e10 "));
    }

    // Item 2: a replay with "steps": 0 ran every row of the file, 2,000,000 of them (4.6 GB).
    void replayOfEveryStepIsBounded()
    {
        QTemporaryDir dir;
        sparseNpy(dir, QStringLiteral("long.npy"), 1'000'000, 2);
        const QString file =
            writeJson(dir, QStringLiteral("replay.json"),
                      {{QStringLiteral("logitlab"), 1},
                       {QStringLiteral("experiment"), QStringLiteral("loop")},
                       {QStringLiteral("name"), QStringLiteral("replay")},
                       {QStringLiteral("model"), QStringLiteral("file")},
                       {QStringLiteral("logits"), QJsonObject{{QStringLiteral("path"), QStringLiteral("long.npy")}}},
                       {QStringLiteral("steps"), 0},
                       {QStringLiteral("chain"), QStringLiteral("temperature=1")}});
        const TimedRun run =
            runFor({QStringLiteral("run"), file, QStringLiteral("--out"), dir.filePath(QStringLiteral("out")),
                    QStringLiteral("--formats"), QStringLiteral("csv")},
                   60000);
        verifyReadableRefusal(run, QStringLiteral("steps: about"));
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("out"))));
    }

    // Item 4: a seed sweep over the steps of a FIFO blocked forever in open().
    void fifoIsRefusedWithoutBlocking()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("pipe.npy"));
        QCOMPARE(mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        const QString file = writeJson(
            dir, QStringLiteral("sweep.json"),
            {{QStringLiteral("logitlab"), 1},
             {QStringLiteral("experiment"), QStringLiteral("seed-sweep")},
             {QStringLiteral("name"), QStringLiteral("sweep")},
             {QStringLiteral("distribution"), QJsonObject{{QStringLiteral("kind"), QStringLiteral("file")},
                                                          {QStringLiteral("path"), QStringLiteral("pipe.npy")},
                                                          {QStringLiteral("steps"), QStringLiteral("all")}}},
             {QStringLiteral("seeds"), QJsonArray{1, 2}},
             {QStringLiteral("draws"), 100}});
        const TimedRun run =
            runFor({QStringLiteral("run"), file, QStringLiteral("--out"), dir.filePath(QStringLiteral("out")),
                    QStringLiteral("--formats"), QStringLiteral("csv")},
                   20000);
        QVERIFY2(run.finished, "blocked on the FIFO");
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("is not a regular file"), run.err.constData());
        // The readers directly, each opening it: none blocks.
        QVERIFY(!app::LogitsArray::open(fifo, QString()).ok());
        QCOMPARE(app::fileFormat(fifo), engine::LogitsFormat::Text);
        QVERIFY(!app::readNpzMember(fifo, QString()).ok());
    }

    // Item 6: batch invariance had no work limit (300 s at 4.2 GB and going on).
    void batchInvarianceIsBounded_data()
    {
        QTest::addColumn<QString>("example");
        QTest::addColumn<QStringList>("overrides");
        QTest::addColumn<QString>("expected");
        QTest::newRow("one step, the largest model")
            << QStringLiteral("batch-invariance-one-step.json")
            << QStringList{QStringLiteral("model.vocabulary=131072"), QStringLiteral("model.hidden=4096")}
            << QStringLiteral("multiply-adds of work");
        QTest::newRow("decode, the most runs")
            << QStringLiteral("batch-invariance-decode.json")
            << QStringList{QStringLiteral("runs=100000"), QStringLiteral("steps=4096")}
            << QStringLiteral("multiply-adds of work");
    }
    void batchInvarianceIsBounded()
    {
        QFETCH(QString, example);
        QFETCH(QStringList, overrides);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QStringList arguments{QStringLiteral("run"),       test::examplePath(example),
                              QStringLiteral("--out"),     dir.filePath(QStringLiteral("out")),
                              QStringLiteral("--formats"), QStringLiteral("csv")};
        for (const QString& o : overrides)
            arguments << QStringLiteral("--set") << o;
        verifyReadableRefusal(runFor(arguments, 30000), expected);
    }

    // Item 6: SIGINT and SIGTERM were ignored for 30 s and more inside one search item.
    void signalEndsALongBatchInvarianceRun_data()
    {
        QTest::addColumn<int>("signalNumber");
        QTest::newRow("SIGINT") << SIGINT;
        QTest::newRow("SIGTERM") << SIGTERM;
    }
    void signalEndsALongBatchInvarianceRun()
    {
        QFETCH(int, signalNumber);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("out"));
        // One prompt, so one work item of many steps over a large head (within the limits).
        const TimedRun run =
            runFor({QStringLiteral("run"), test::examplePath(QStringLiteral("batch-invariance-one-step.json")),
                    QStringLiteral("--out"), out, QStringLiteral("--formats"), QStringLiteral("csv"),
                    QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--set"),
                    QStringLiteral("precisions=[\"float32\"]"), QStringLiteral("--set"),
                    QStringLiteral("model.vocabulary=16384"), QStringLiteral("--set"),
                    QStringLiteral("model.hidden=1024"), QStringLiteral("--set"), QStringLiteral("search.prompts=1"),
                    QStringLiteral("--set"), QStringLiteral("search.steps=1000")},
                   20000, 5000, signalNumber);  // past building the model: inside the search
        QVERIFY2(run.finished, "the signal did not end the run");
        if (run.afterSignalMs < 0)
            QSKIP("the run finished before the signal");
        QCOMPARE(run.exitCode, 128 + signalNumber);
        QVERIFY2(run.afterSignalMs < 1500, qPrintable(QStringLiteral("%1 ms after the signal").arg(run.afterSignalMs)));
        QVERIFY(!QFileInfo::exists(out));
    }

    // Item 7: 10^7 terms x 10^6 shuffles was accepted (about 35 hours).
    void summationIsBounded()
    {
        QTemporaryDir dir;
        verifyReadableRefusal(
            runFor({QStringLiteral("run"), test::examplePath(QStringLiteral("summation-order-normal.json")),
                    QStringLiteral("--out"), dir.filePath(QStringLiteral("out")), QStringLiteral("--formats"),
                    QStringLiteral("csv"), QStringLiteral("--set"), QStringLiteral("terms.n=10000000"),
                    QStringLiteral("--set"), QStringLiteral("shuffles=1000000")},
                   30000),
            QStringLiteral("about 1.0e13 terms summed of work, over the limit of 1.0e10"));
    }

    // Item 8: a seed sweep over steps multiplied the limit by the step count (5 x 10^13 draws).
    void stepSweepWorkCountsEveryStep()
    {
        QTemporaryDir dir;
        sparseNpy(dir, QStringLiteral("steps.npy"), 50'000, 2);
        const QString file = writeJson(
            dir, QStringLiteral("sweep.json"),
            {{QStringLiteral("logitlab"), 1},
             {QStringLiteral("experiment"), QStringLiteral("seed-sweep")},
             {QStringLiteral("name"), QStringLiteral("sweep")},
             {QStringLiteral("distribution"), QJsonObject{{QStringLiteral("kind"), QStringLiteral("file")},
                                                          {QStringLiteral("path"), QStringLiteral("steps.npy")},
                                                          {QStringLiteral("steps"), QStringLiteral("all")}}},
             {QStringLiteral("seeds"), QJsonObject{{QStringLiteral("first"), 1}, {QStringLiteral("count"), 1000}}},
             {QStringLiteral("draws"), 1000000}});
        verifyReadableRefusal(
            runFor({QStringLiteral("run"), file, QStringLiteral("--out"), dir.filePath(QStringLiteral("out")),
                    QStringLiteral("--formats"), QStringLiteral("csv")},
                   30000),
            QStringLiteral("about 5.0e13 draws of work, over the limit of 1.0e10"));
    }

    // Item 9: the sequence sweep's limit ignored the prompt (6 MB x 10,000 seeds: 12 minutes).
    void sequenceSweepCountsThePrompt()
    {
        QTemporaryDir dir;
        const QString file = writeJson(
            dir, QStringLiteral("sequence.json"),
            {{QStringLiteral("logitlab"), 1},
             {QStringLiteral("experiment"), QStringLiteral("seed-sweep")},
             {QStringLiteral("name"), QStringLiteral("sequence")},
             {QStringLiteral("source"), QStringLiteral("sequence")},
             {QStringLiteral("prompt"), QStringLiteral("the model ").repeated(300'000)},
             {QStringLiteral("steps"), 8},
             {QStringLiteral("seeds"), QJsonObject{{QStringLiteral("first"), 1}, {QStringLiteral("count"), 10000}}}});
        verifyReadableRefusal(
            runFor({QStringLiteral("run"), file, QStringLiteral("--out"), dir.filePath(QStringLiteral("out")),
                    QStringLiteral("--formats"), QStringLiteral("csv")},
                   30000),
            QStringLiteral("model passes of work"));
    }

    // Item 10: SIGINT had no effect while a junk-risk chart of 10,000 lengths was exported (96 s
    // a setting); each error bar was a series of its own.
    void signalEndsTheChartExport()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("out"));
        const TimedRun run =
            runFor({QStringLiteral("run"), test::examplePath(QStringLiteral("junk-risk-presets.json")),
                    QStringLiteral("--out"), out, QStringLiteral("--formats"), QStringLiteral("png,svg,pdf"),
                    QStringLiteral("--set"), QStringLiteral("replies=2"), QStringLiteral("--set"),
                    QStringLiteral("lengths={\"from\": 1, \"to\": 10000, \"step\": 1}")},
                   30000, 2500, SIGINT);
        QVERIFY2(run.finished, "the signal did not end the export");
        // A chart of 10,000 lengths now exports in seconds: on a quick machine the run can end
        // before the signal, or commit its files just as it lands; then the set is whole.
        if (run.afterSignalMs < 0 || run.exitCode == 0) {
            QCOMPARE(run.exitCode, 0);
            QVERIFY2(QFileInfo::exists(QDir(out).filePath(QStringLiteral("junk-risk-presets.pdf"))),
                     "a run that ended without the signal wrote its whole set");
            return;
        }
        QCOMPARE(run.exitCode, 130);
        QVERIFY2(run.afterSignalMs < 1500, qPrintable(QStringLiteral("%1 ms after the signal").arg(run.afterSignalMs)));
        QVERIFY2(!QFileInfo::exists(out), "the staging folder or the run's folder stayed");
    }

    // Item 11: truncating a dump while a replay read it killed the process with SIGBUS.
    void truncatedDumpIsAnErrorNotACrash()
    {
        QTemporaryDir dir;
        QByteArray data;
        for (int i = 0; i < 4 * 4096; ++i) {
            const float value = static_cast<float>(i % 7);
            data.append(reinterpret_cast<const char*>(&value), sizeof value);
        }
        const QString path =
            test::writeFixture(dir, QStringLiteral("dump.npy"), test::npyFile("<f4", false, "(4, 4096)", data));
        auto array = app::LogitsArray::open(path, QString());
        QVERIFY(array.ok());
        QVERIFY(array->row(0, 3).ok());
        QVERIFY(::truncate(QFile::encodeName(path).constData(), 128) == 0);
        const auto row = array->row(0, 3);
        QVERIFY(!row.ok());
        QVERIFY2(row.error().find("shorter than when it was opened") != std::string::npos, row.error().c_str());
        // And again: the handler stays in place.
        QVERIFY(!array->row(0, 2).ok());
    }

    // Item 12: token names reached the terminal raw (escape sequences, BEL, CR, a newline that
    // split a table row).
    void tokenNamesAreEscapedOnTheTerminal_data()
    {
        QTest::addColumn<QStringList>("command");
        QTest::newRow("candidates") << QStringList{QStringLiteral("candidates")};
        QTest::newRow("sample") << QStringList{QStringLiteral("sample")};
        QTest::newRow("candidates --compare") << QStringList{QStringLiteral("candidates"), QStringLiteral("--compare")};
    }
    void tokenNamesAreEscapedOnTheTerminal()
    {
        QFETCH(QStringList, command);
        const TimedRun run =
            runFor(command + QStringList{QStringLiteral("--logits"), QStringLiteral("2,1,0.5"),
                                         QStringLiteral("--tokens"), QString::fromUtf8("a\x1b[2J,b\x07\r,c\nd")},
                   30000);
        QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
        QVERIFY2(!run.out.contains('\x1b') && !run.out.contains('\x07') && !run.out.contains('\r'),
                 run.out.constData());
        QVERIFY2(run.out.contains("a\\x1b[2J"), run.out.constData());
        QVERIFY2(!run.out.contains("\nd"), run.out.constData());
    }

    // Item 13: `sample --json` lost draws when a name equalled a de-duplicated key.
    void sampleJsonCountsEveryDraw()
    {
        const TimedRun run = runFor({QStringLiteral("sample"), QStringLiteral("--logits"), QStringLiteral("1,1,1"),
                                     QStringLiteral("--tokens"), QStringLiteral("a,a,a#1"), QStringLiteral("--draws"),
                                     QStringLiteral("999"), QStringLiteral("--json")},
                                    30000);
        QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        const QJsonObject counts = root.value(QStringLiteral("counts")).toObject();
        QCOMPARE(counts.size(), 3);
        qint64 total = 0;
        for (const QJsonValue v : counts)
            total += v.toInteger();
        QCOMPARE(total, qint64{999});
        qint64 byId = 0;
        for (const QJsonValue v : root.value(QStringLiteral("by_id")).toArray())
            byId += v.toObject().value(QStringLiteral("count")).toInteger();
        QCOMPARE(byId, qint64{999});
    }

    // Item 15: overflow in the compensated sums, the shuffle extremes, file messages.
    void compensatedSumsOverflowToInfinity()
    {
        const std::vector<double> terms{1e308, 1e308, 1.0, 2.0};
        for (const auto method : {engine::SumMethod::Kahan, engine::SumMethod::Neumaier}) {
            const double sum = engine::sumInOrder(method, terms, engine::FloatFormat::Float64, engine::SumShape{});
            QVERIFY2(std::isinf(sum) && sum > 0, qPrintable(QString::number(sum)));
        }
    }

    void shuffleExtremesIncludeOverflow()
    {
        engine::SummationParameters p;
        p.distribution = engine::TermDistribution::List;
        p.listed = {1e308, 1e308, -1e308, -1e308, 1.0};
        p.storage = engine::FloatFormat::Float64;
        p.accumulator = engine::FloatFormat::Float64;
        p.methods = {};
        p.shuffles = 50;
        auto e = engine::SummationExperiment::prepare(p);
        QVERIFY(e.ok());
        engine::SummationExperiment::Scratch scratch;
        std::vector<double> results(e->itemCount());
        for (std::size_t i = 0; i < results.size(); ++i)
            results[i] = e->runItem(i, scratch);
        const auto summary = e->summarize(results);
        const double low = *std::min_element(results.begin(), results.end());
        const double high = *std::max_element(results.begin(), results.end());
        QVERIFY(std::isinf(low) || std::isinf(high));  // some orders overflow
        std::int64_t histogram = 0;
        for (const auto& bin : summary.histogram)
            histogram += bin.count;
        QCOMPARE(histogram + summary.nonFiniteShuffles, std::int64_t{50});
        bool sawMin = false, sawMax = false;
        for (const auto& m : summary.methods) {
            if (m.method == "shuffle min") {
                sawMin = true;
                QCOMPARE(m.value, low);
            }
            if (m.method == "shuffle max") {
                sawMax = true;
                QCOMPARE(m.value, high);
            }
        }
        QVERIFY(sawMin && sawMax);
    }

    void fileMessagesSayWhatIsWrong_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("expected");
        QByteArray hugeHeader(8, '\0');
        hugeHeader[5] = 1;  // a header length of 2^40
        QTest::newRow("safetensors header >= 2^40")
            << hugeHeader + QByteArray("{\"a\":1}") << QStringLiteral("x.safetensors")
            << QStringLiteral("header length");
        QTest::newRow("empty .npz") << QByteArray("PK\x05\x06", 4) + QByteArray(18, '\0') << QStringLiteral("x.npz")
                                    << QStringLiteral("holds no arrays");
    }
    void fileMessagesSayWhatIsWrong()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, name);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = test::writeFixture(dir, name, bytes);
        const auto read = app::readLogitsFile(path);
        QVERIFY(!read.ok());
        const QString error = QString::fromStdString(read.error());
        QVERIFY2(error.contains(expected), qPrintable(error));
        QVERIFY2(!error.contains(QStringLiteral("NUL")), qPrintable(error));
    }

    void duplicateNpzMembersAreNamed()
    {
        QTemporaryDir dir;
        const QByteArray npy = test::npyFile("<f4", false, "(2,)", QByteArray(8, '\0'));
        // libzip writes no duplicate names: two members whose names differ in one letter, then
        // that letter patched in the local headers and the central directory.
        const QString written =
            test::writeNpz(dir, QStringLiteral("written.npz"), {{"logits.npy", npy}, {"logitX.npy", npy}});
        QFile in(written);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray patched = in.readAll().replace("logitX.npy", "logits.npy");
        const QString path = test::writeFixture(dir, QStringLiteral("twice.npz"), patched);
        const auto read = app::readLogitsFile(path);
        QVERIFY(!read.ok());
        QVERIFY2(read.error().find("same name") != std::string::npos, read.error().c_str());
    }

    void byteOrderMarksAreDroppedEverywhere()
    {
        QTemporaryDir dir;
        const QString tokenizer =
            test::writeFixture(dir, QStringLiteral("tokenizer.json"),
                               QByteArray("\xEF\xBB\xBF{\"model\": {\"vocab\": {\"a\": 0, \"b\": 1}}}"));
        const auto table = app::readVocabularyFile(tokenizer);
        QVERIFY2(table.ok(), table.ok() ? "" : table.error().c_str());
        QCOMPARE(table->tokenCount, std::size_t{2});
        const auto terms = engine::parseTermsText("\xEF\xBB\xBF"
                                                  "1\n2\n",
                                                  "terms.txt");
        QVERIFY(terms.ok());
        QCOMPARE(terms->size(), std::size_t{2});
    }
};

QTEST_GUILESS_MAIN(TestWorkBounds)
#include "tst_work_bounds.moc"
