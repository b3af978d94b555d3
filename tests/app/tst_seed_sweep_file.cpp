// Seed-sweep experiment files and runs: the examples parse and round-trip, every bad file is
// refused naming the key (before any work), the CSVs are byte-identical for 1 and 4 threads and
// reproduce the lesson, a cancelled run yields nothing, and `logitlab-cli run` writes the
// tables and charts and exits 2 on bad input without writing anything.
#include "app/kinds/seed_sweep_job.h"
#include "app/kinds/seed_sweep_spec.h"
#include "support/example_files.h"
#include "support/test_support.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace logitlab;
using namespace logitlab::app;

namespace {

QJsonObject exampleJson(const QString& name) { return readExperimentJson(test::examplePath(name)).value(); }

QJsonObject lessonJson() { return exampleJson(QStringLiteral("seed-sweep-lesson.json")); }

SeedSweepOutcome run(const SeedSweepSpec& spec, int threads, WorkControl control = {})
{
    return runSeedSweep(spec, test::examplePath(QString()), QStringLiteral("t.json"), threads, control);
}

QString csvOf(const SeedSweepSpec& spec, const SeedSweepOutcome& outcome)
{
    const Provenance header = seedSweepResultHeader(seedSweepProvenance(spec, test::examplePath(QString())), outcome);
    const auto shared = std::make_shared<const SeedSweepOutcome>(outcome);
    return resultTableCsv(header, seedSweepTokensTable(shared)) + resultTableCsv(header, seedSweepSeedsTable(shared));
}

}  // namespace

class TestSeedSweepFile : public QObject {
    Q_OBJECT
private slots:
    void examplesParseAndRoundTrip_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("lesson") << "seed-sweep-lesson.json";
        QTest::newRow("200 seeds") << "seed-sweep-200-seeds.json";
        QTest::newRow("128k") << "seed-sweep-128k.json";
    }
    void examplesParseAndRoundTrip()
    {
        QFETCH(QString, file);
        const auto spec = readSeedSweepFile(test::examplePath(file));
        QVERIFY2(spec.ok(), spec.ok() ? "" : spec.error().c_str());
        const auto again = parseSeedSweep(toJson(spec.value()), QStringLiteral("again"));
        QVERIFY(again.ok());
        QVERIFY(again.value() == spec.value());
    }

    void lessonCountsAndReplay()
    {
        const auto spec = parseSeedSweep(lessonJson(), QStringLiteral("l.json")).value();
        const SeedSweepOutcome outcome = run(spec, 2);
        QVERIFY(outcome.status.finished());
        QCOMPARE(outcome.tokenNames, (QStringList{QStringLiteral("=>"), QStringLiteral("{"), QStringLiteral("(")}));
        QCOMPARE(outcome.results.front().counts, (std::vector<std::uint32_t>{493, 393, 114}));
        QVERIFY(outcome.replayIdentical);
        QVERIFY(csvOf(spec, outcome).contains(QLatin1String("result: replay of the first seed: replayed bit for bit")));
    }

    // The lesson is one seed: its summary counts "1 seed" and "1 thread", and 2 threads in the plural.
    void summaryCountsInWords_data()
    {
        QTest::addColumn<int>("threads");
        QTest::addColumn<QString>("expected");
        QTest::newRow("one thread") << 1 << QStringLiteral(": 1 seed x 1000 draws in ");
        QTest::newRow("two threads") << 2 << QStringLiteral(": 1 seed x 1000 draws in ");
    }
    void summaryCountsInWords()
    {
        QFETCH(int, threads);
        QFETCH(QString, expected);
        const auto spec = parseSeedSweep(lessonJson(), QStringLiteral("l.json")).value();
        QCOMPARE(spec.seeds().size(), std::size_t{1});
        const QString summary =
            seedSweepResult(spec, test::examplePath(QString()), run(spec, threads), threads).summary;
        QVERIFY2(summary.contains(expected), qPrintable(summary));
        QVERIFY2(
            summary.contains(threads == 1 ? QStringLiteral(" s on 1 thread;") : QStringLiteral(" s on 2 threads;")),
            qPrintable(summary));
        QVERIFY2(!summary.contains(QLatin1String("1 seeds")), qPrintable(summary));
    }

    // Issue 18: the sweep runs in the arithmetic its file names, and its provenance says which.
    void arithmeticDecidesTheOutcomesAndIsRecorded()
    {
        QJsonObject json = lessonJson();
        json[QStringLiteral("distribution")] =
            QJsonObject{{QStringLiteral("kind"), QStringLiteral("probabilities")},
                        {QStringLiteral("probabilities"), QJsonArray{0.3, 0.2, 0.2, 0.1, 0.1, 0.1}}};
        json[QStringLiteral("semantics")] = QStringLiteral("vllm");
        json[QStringLiteral("chain")] = QStringLiteral("top-p=0.8");
        json[QStringLiteral("draws")] = 100;
        const auto exact = parseSeedSweep(json, QStringLiteral("e.json"));
        QVERIFY2(exact.ok(), exact.ok() ? "" : exact.error().c_str());
        const SeedSweepOutcome exactRun = run(exact.value(), 1);
        QCOMPARE(exactRun.tokenNames.size(), 4);  // the fifth token is cut in exact arithmetic
        QVERIFY(csvOf(exact.value(), exactRun).contains(QLatin1String("# arithmetic: exact")));

        json[QStringLiteral("arithmetic")] = QStringLiteral("library");
        const auto library = parseSeedSweep(json, QStringLiteral("l.json"));
        QVERIFY2(library.ok(), library.ok() ? "" : library.error().c_str());
        QCOMPARE(library->arithmetic, QStringLiteral("library"));
        QCOMPARE(parseSeedSweep(toJson(library.value()), QStringLiteral("again")).value(), library.value());
        const SeedSweepOutcome libraryRun = run(library.value(), 1);
        QCOMPARE(libraryRun.tokenNames.size(), 5);  // vLLM's float32 top-p keeps it (1 - 0.8f < 0.2)
        QVERIFY(csvOf(library.value(), libraryRun).contains(QLatin1String("# arithmetic: library")));
    }

    void identicalForAnyThreadCount()
    {
        auto root = exampleJson(QStringLiteral("seed-sweep-200-seeds.json"));
        root.insert(QStringLiteral("draws"), 500);
        const auto spec = parseSeedSweep(root, QStringLiteral("s.json")).value();
        const QString one = csvOf(spec, run(spec, 1));
        QCOMPARE(csvOf(spec, run(spec, 4)), one);
        QCOMPARE(csvOf(spec, run(spec, 4)), one);  // and run to run
        QVERIFY(one.contains(QLatin1String("result: compared seeds: first differ at draw")));
    }

    void cancelledRunsYieldNothing()
    {
        const auto spec =
            parseSeedSweep(exampleJson(QStringLiteral("seed-sweep-200-seeds.json")), QStringLiteral("s.json")).value();
        WorkControl control;
        control.isCancelled = [] { return true; };
        const SeedSweepOutcome outcome = run(spec, 2, control);
        QCOMPARE(outcome.status.state, RunStatus::State::Cancelled);
        QVERIFY(outcome.results.empty());
    }

    void badFiles_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown key") << "extra"
                                     << "1"
                                     << "f.json: extra: ";
        QTest::newRow("draws a string") << "draws"
                                        << "\"many\""
                                        << "f.json: draws: ";
        QTest::newRow("draws 0") << "draws"
                                 << "0"
                                 << "f.json: draws: ";
        QTest::newRow("draws negative") << "draws"
                                        << "-5"
                                        << "f.json: draws: ";
        QTest::newRow("seed count 0") << "seeds"
                                      << "{\"first\": 1, \"count\": 0}"
                                      << "f.json: seeds.count: ";
        QTest::newRow("seed count too large") << "seeds"
                                              << "{\"first\": 1, \"count\": 100000000}"
                                              << "f.json: seeds.count: ";
        QTest::newRow("negative seed") << "seeds"
                                       << "[1, -2]"
                                       << "f.json: seeds.1: ";
        QTest::newRow("repeated seed") << "seeds"
                                       << "[1, 2, 1]"
                                       << "f.json: seeds.2: repeats seed 1";
        QTest::newRow("empty seeds") << "seeds"
                                     << "[]"
                                     << "f.json: seeds: must list";
        QTest::newRow("unknown rng") << "rng"
                                     << "\"dice\""
                                     << "f.json: rng: must be one of mulberry32, mt19937, mt19937_64, got \"dice\"";
        QTest::newRow("unknown semantics") << "semantics"
                                           << "\"torch\""
                                           << "f.json: semantics: must be one of lesson";
        QTest::newRow("unknown arithmetic") << "arithmetic"
                                            << "\"fast\""
                                            << "f.json: arithmetic: must be one of exact, library, got \"fast\"";
        QTest::newRow("arithmetic a number") << "arithmetic"
                                             << "1"
                                             << "f.json: arithmetic: ";
        QTest::newRow("compare one seed") << "compare"
                                          << "[42]"
                                          << "f.json: compare: must name exactly two seeds";
        QTest::newRow("compare unknown seed") << "compare"
                                              << "[42, 7]"
                                              << "f.json: compare.1: seed 7 is not one of the swept seeds";
        QTest::newRow("version 2") << "logitlab"
                                   << "2"
                                   << "f.json: logitlab: unknown version 2";
        QTest::newRow("wrong experiment") << "experiment"
                                          << "\"junk-risk\""
                                          << "f.json: experiment: ";
    }
    void badFiles()
    {
        QFETCH(QString, key);
        QFETCH(QString, json);
        QFETCH(QString, message);
        QJsonObject root = lessonJson();
        root.insert(key, QJsonDocument::fromJson(QStringLiteral("[%1]").arg(json).toUtf8()).array().at(0));
        const auto spec = parseSeedSweep(root, QStringLiteral("f.json"));
        QVERIFY(!spec.ok());
        QVERIFY2(QString::fromStdString(spec.error()).startsWith(message), spec.error().c_str());
    }

    void badChainsAreRefusedBeforeWork_data()
    {
        QTest::addColumn<QString>("semantics");
        QTest::addColumn<QString>("chain");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown stage") << "llama.cpp"
                                       << "top-q=0.5"
                                       << "t.json: chain: ";
        QTest::newRow("not a number") << "llama.cpp"
                                      << "top-k=many"
                                      << "t.json: chain: ";
        // Out of range is the preset's call: llama.cpp treats top-p 1.5 as off, HF rejects it.
        QTest::newRow("out of range for hf") << "hf"
                                             << "top-p=1.5"
                                             << "t.json: chain: ";
        QTest::newRow("stateful") << "llama.cpp"
                                  << "mirostat-v2"
                                  << "t.json: chain: ";
    }
    void badChainsAreRefusedBeforeWork()
    {
        QFETCH(QString, semantics);
        QFETCH(QString, chain);
        QFETCH(QString, message);
        QJsonObject root = lessonJson();
        root.insert(QStringLiteral("semantics"), semantics);
        root.insert(QStringLiteral("chain"), chain);
        const auto spec = parseSeedSweep(root, QStringLiteral("f.json"));
        QVERIFY(spec.ok());
        const SeedSweepOutcome outcome = run(spec.value(), 1);
        QCOMPARE(outcome.status.state, RunStatus::State::Failed);
        QVERIFY2(outcome.status.message.startsWith(message), qPrintable(outcome.status.message));
    }

    void tooLargeForMemoryIsRefusedPolitely()
    {
        QJsonObject root = exampleJson(QStringLiteral("seed-sweep-128k.json"));
        root.insert(QStringLiteral("chain"), QStringLiteral("temperature=1"));  // every token survives
        root.insert(QStringLiteral("seeds"),
                    QJsonObject{{QStringLiteral("first"), 0}, {QStringLiteral("count"), 10000000}});
        const auto spec = parseSeedSweep(root, QStringLiteral("big.json")).value();
        const SeedSweepOutcome outcome = run(spec, 1);
        QCOMPARE(outcome.status.state, RunStatus::State::Failed);
        QVERIFY2(outcome.status.message.contains(QLatin1String("MiB of counts")), qPrintable(outcome.status.message));
    }

    void cliWritesTablesAndCharts()
    {
        QTemporaryDir dir;
        QProcess p;
        p.start(test::binaryPath(QStringLiteral("logitlab-cli")),
                {QStringLiteral("run"), test::examplePath(QStringLiteral("seed-sweep-lesson.json")),
                 QStringLiteral("--out"), dir.path(), QStringLiteral("--formats"), QStringLiteral("csv,png,svg,pdf")});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        const QDir out(dir.path());
        QFile tokens(out.filePath(QStringLiteral("seed-sweep-lesson.csv")));
        QVERIFY(tokens.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(tokens.readAll());
        QVERIFY(text.contains(QLatin1String("0,=>,0.5091783520182473,493,")));
        QVERIFY(text.contains(QLatin1String("1,{,0.37720860075180745,393,")));
        QVERIFY(text.contains(QLatin1String("2,(,0.11361304722994511,114,")));
        QVERIFY(!text.contains(QLatin1String("\n3,async")));  // never drawn, so not an outcome
        QVERIFY(!text.contains(QLatin1String("\n4,//")));
        QVERIFY(QFile::exists(out.filePath(QStringLiteral("seed-sweep-lesson-seeds.csv"))));
        for (const QString& suffix : {QString(), QStringLiteral("-spread"), QStringLiteral("-counts")}) {
            QVERIFY(!QImage(out.filePath(QStringLiteral("seed-sweep-lesson%1.png").arg(suffix))).isNull());
            QFile pdf(out.filePath(QStringLiteral("seed-sweep-lesson%1.pdf").arg(suffix)));
            QVERIFY(pdf.open(QIODevice::ReadOnly) && pdf.read(5) == "%PDF-");
            QFile svg(out.filePath(QStringLiteral("seed-sweep-lesson%1.svg").arg(suffix)));
            QVERIFY(svg.open(QIODevice::ReadOnly) && svg.readAll().contains("<svg"));
        }

        // A bad override: exit 2, one line naming the key, nothing written.
        QTemporaryDir empty;
        p.start(test::binaryPath(QStringLiteral("logitlab-cli")),
                {QStringLiteral("run"), test::examplePath(QStringLiteral("seed-sweep-lesson.json")),
                 QStringLiteral("--out"), empty.path(), QStringLiteral("--set"), QStringLiteral("draws=0")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(err.count(QLatin1Char('\n')), 1);
        QVERIFY2(err.contains(QLatin1String("draws:")), qPrintable(err));
        QVERIFY(QDir(empty.path()).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestSeedSweepFile)
#include "tst_seed_sweep_file.moc"
