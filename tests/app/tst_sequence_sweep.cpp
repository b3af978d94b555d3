// Seed sweeps over whole replies ("source": "sequence"): the census of distinct replies and
// first differences on hand-checked cases; a greedy chain gives one reply for every seed; the
// CSV is the same for 1 and 4 threads; the file reads strictly (each bad key named) and
// round-trips through toJson; logitlab-cli run writes tables that read back to the run's census.
#include "app/kinds/experiment_kind.h"
#include "app/kinds/seed_sweep_spec.h"
#include "app/kinds/sequence_sweep_job.h"
#include "engine/experiments/reply_census.h"
#include "support/example_files.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace logitlab;

namespace {

using Replies = std::vector<std::vector<std::int32_t>>;
using Steps = std::vector<int>;  // per seed; -1: the reference reply

QJsonObject sequenceFile(const QStringList& overrides = {})
{
    QJsonObject root{
        {QStringLiteral("logitlab"), 1},
        {QStringLiteral("experiment"), QStringLiteral("seed-sweep")},
        {QStringLiteral("name"), QStringLiteral("seq")},
        {QStringLiteral("source"), QStringLiteral("sequence")},
        {QStringLiteral("prompt"), QStringLiteral("The sampler")},
        {QStringLiteral("steps"), 6},
        {QStringLiteral("semantics"), QStringLiteral("llama.cpp")},
        {QStringLiteral("chain"), QString()},
        {QStringLiteral("rng"), QStringLiteral("mulberry32")},
        {QStringLiteral("seeds"), QJsonObject{{QStringLiteral("first"), 1}, {QStringLiteral("count"), 12}}}};
    for (const QString& o : overrides)
        root = app::applyOverride(root, o).value();
    return root;
}

app::ExperimentResult runFile(const QJsonObject& root, int threads)
{
    app::RunContext context;
    context.source = QStringLiteral("test");
    context.threads = threads;
    return app::findExperimentKind(QStringLiteral("seed-sweep"))->run(root, context);
}

QString allCsv(const app::ExperimentResult& result)
{
    QString out;
    for (const auto& table : result.tables)
        out += app::resultTableCsv(result.provenance, table);
    return out;
}

const app::SequenceSweepRun& runOf(const app::ExperimentResult& result)
{
    return *std::any_cast<std::shared_ptr<const app::SequenceSweepRun>>(result.details);
}

// The data rows of a CSV whose cells hold no commas or quotes (the seeds and first-difference tables).
QList<QStringList> plainCsvRows(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QList<QStringList> rows;
    bool header = true;
    for (const QString& line : QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        if (line.startsWith(QLatin1Char('#')))
            continue;
        if (header) {
            header = false;
            continue;
        }
        rows << line.split(QLatin1Char(','));
    }
    return rows;
}

}  // namespace

class TestSequenceSweep : public QObject {
    Q_OBJECT

private slots:
    void firstDifference_data()
    {
        QTest::addColumn<std::vector<std::int32_t>>("a");
        QTest::addColumn<std::vector<std::int32_t>>("b");
        QTest::addColumn<int>("expected");  // -1: none
        QTest::newRow("equal") << std::vector<std::int32_t>{1, 2, 3} << std::vector<std::int32_t>{1, 2, 3} << -1;
        QTest::newRow("at 0") << std::vector<std::int32_t>{4, 2, 3} << std::vector<std::int32_t>{1, 2, 3} << 0;
        QTest::newRow("at the end") << std::vector<std::int32_t>{1, 2, 3} << std::vector<std::int32_t>{1, 2, 9} << 2;
        QTest::newRow("prefix") << std::vector<std::int32_t>{1, 2} << std::vector<std::int32_t>{1, 2, 3} << 2;
    }
    void firstDifference()
    {
        QFETCH(std::vector<std::int32_t>, a);
        QFETCH(std::vector<std::int32_t>, b);
        QFETCH(int, expected);
        const auto at = engine::firstDifference(a, b);
        QCOMPARE(at ? int(*at) : -1, expected);
        const auto back = engine::firstDifference(b, a);
        QCOMPARE(back ? int(*back) : -1, expected);
    }

    // Worked by hand: seeds 10..15 give replies A B A C B A (A = 1 2 3, B = 1 5 3, C = 7 2 3).
    // A has 3 seeds and is the reference; B (2 seeds, first seen before C) differs at step 1,
    // C at step 0. Distinct after k seeds: 1 2 2 3 3 3.
    void census_data()
    {
        QTest::addColumn<Replies>("replies");
        QTest::addColumn<std::vector<std::size_t>>("counts");
        QTest::addColumn<Steps>("steps");
        QTest::addColumn<std::vector<std::uint64_t>>("histogram");
        QTest::addColumn<std::vector<std::uint64_t>>("distinctAfter");
        QTest::addColumn<std::vector<std::uint64_t>>("referenceSeeds");
        const std::vector<std::int32_t> a{1, 2, 3}, b{1, 5, 3}, c{7, 2, 3};
        QTest::newRow("three replies") << Replies{a, b, a, c, b, a} << std::vector<std::size_t>{3, 2, 1}
                                       << Steps{-1, 1, -1, 0, 1, -1} << std::vector<std::uint64_t>{1, 2, 0}
                                       << std::vector<std::uint64_t>{1, 2, 2, 3, 3, 3}
                                       << std::vector<std::uint64_t>{10, 12, 15};
        // A tie in count: the reply seen first is the reference, not the later one.
        QTest::newRow("tie goes to the first seen")
            << Replies{c, a, a, c} << std::vector<std::size_t>{2, 2} << Steps{-1, 0, 0, -1}
            << std::vector<std::uint64_t>{2, 0, 0} << std::vector<std::uint64_t>{1, 2, 2, 2}
            << std::vector<std::uint64_t>{10, 13};
        QTest::newRow("all the same") << Replies{b, b, b} << std::vector<std::size_t>{3} << Steps{-1, -1, -1}
                                      << std::vector<std::uint64_t>{0, 0, 0} << std::vector<std::uint64_t>{1, 1, 1}
                                      << std::vector<std::uint64_t>{10, 11, 12};
    }
    void census()
    {
        QFETCH(Replies, replies);
        QFETCH(std::vector<std::size_t>, counts);
        QFETCH(Steps, steps);
        QFETCH(std::vector<std::uint64_t>, histogram);
        QFETCH(std::vector<std::uint64_t>, distinctAfter);
        QFETCH(std::vector<std::uint64_t>, referenceSeeds);
        std::vector<std::uint64_t> seeds;
        for (std::size_t i = 0; i < replies.size(); ++i)
            seeds.push_back(10 + i);
        const auto census = engine::countReplies(seeds, replies, 3);
        QCOMPARE(census.replies.size(), counts.size());
        for (std::size_t r = 0; r < counts.size(); ++r)
            QCOMPARE(census.replies[r].seeds.size(), counts[r]);
        QCOMPARE(census.replies.front().seeds, referenceSeeds);
        QVERIFY(!census.replies.front().firstDifference);
        for (std::size_t i = 0; i < replies.size(); ++i) {
            QCOMPARE(census.firstDifference[i] ? int(*census.firstDifference[i]) : -1, steps[i]);
            QCOMPARE(census.replies[census.replyOf[i]].tokens, replies[i]);
        }
        QCOMPARE(census.firstDifferenceHistogram, histogram);
        QCOMPARE(census.distinctAfter, distinctAfter);
    }

    void greedyGivesOneReply_data()
    {
        QTest::addColumn<QString>("semantics");
        QTest::addColumn<QString>("chain");
        QTest::newRow("llama.cpp greedy") << QStringLiteral("llama.cpp") << QStringLiteral("greedy");
        QTest::newRow("llama.cpp T=0") << QStringLiteral("llama.cpp") << QStringLiteral("temperature=0");
        QTest::newRow("hf top-k 1") << QStringLiteral("hf") << QStringLiteral("top-k=1");
    }
    void greedyGivesOneReply()
    {
        QFETCH(QString, semantics);
        QFETCH(QString, chain);
        const auto result =
            runFile(sequenceFile({QStringLiteral("semantics=") + semantics, QStringLiteral("chain=") + chain}), 2);
        QVERIFY2(result.status.finished(), qPrintable(result.status.message));
        const auto& census = runOf(result).outcome.census;
        QCOMPARE(census.replies.size(), std::size_t{1});
        QCOMPARE(census.replies.front().seeds.size(), std::size_t{12});
        QCOMPARE(census.distinctAfter.back(), std::uint64_t{1});
        for (std::uint64_t n : census.firstDifferenceHistogram)
            QCOMPARE(n, std::uint64_t{0});
    }

    void sameCsvForAnyThreadCount_data()
    {
        QTest::addColumn<QString>("chain");
        QTest::newRow("llama.cpp defaults") << QString();
        QTest::newRow("stateful: penalties and mirostat")
            << QStringLiteral("penalties:last-n=64:repeat=1.3,mirostat-v2:tau=3:eta=0.1");
    }
    void sameCsvForAnyThreadCount()
    {
        QFETCH(QString, chain);
        const QJsonObject file = sequenceFile({QStringLiteral("chain=") + chain});
        const auto one = runFile(file, 1);
        const auto four = runFile(file, 4);
        QVERIFY2(one.status.finished(), qPrintable(one.status.message));
        QVERIFY(four.status.finished());
        QCOMPARE(allCsv(four), allCsv(one));
        // A seeded run is not trivially uniform: the default chain's replies differ by seed.
        if (chain.isEmpty())
            QVERIFY(runOf(one).outcome.census.replies.size() > 1);
    }

    // Each seed's reply is the loop experiment's reply with that seed.
    void replyIsTheLoopsReply()
    {
        const auto spec = app::parseSeedSweep(sequenceFile(), QStringLiteral("test"));
        QVERIFY(spec);
        const auto result = runFile(sequenceFile(), 2);
        const auto& outcome = runOf(result).outcome;
        for (std::size_t i : {std::size_t{0}, std::size_t{7}}) {
            auto made = app::makeLoop(app::replyLoopSpec(spec.value(), outcome.seeds[i]));
            QVERIFY(made);
            engine::GenerationLoop& loop = made.value();
            for (int s = 0; s < 6; ++s)
                loop.step();
            QCOMPARE(loop.tokens(), outcome.replies[i]);
        }
    }

    void roundTrip()
    {
        const auto spec =
            app::parseSeedSweep(sequenceFile({QStringLiteral("arithmetic=library")}), QStringLiteral("test"));
        QVERIFY2(spec, spec ? "" : spec.error().c_str());
        QVERIFY(spec->isSequence());
        const auto again = app::parseSeedSweep(app::toJson(spec.value()), QStringLiteral("again"));
        QVERIFY(again);
        QCOMPARE(again.value(), spec.value());
        QVERIFY(!app::toJson(spec.value()).contains(QStringLiteral("draws")));
    }

    void badInputNamesTheKey_data()
    {
        QTest::addColumn<QStringList>("overrides");
        QTest::addColumn<QString>("key");
        QTest::newRow("empty prompt") << QStringList{QStringLiteral("prompt=   ")} << QStringLiteral("prompt:");
        QTest::newRow("no prompt") << QStringList{QStringLiteral("prompt=")} << QStringLiteral("prompt:");
        QTest::newRow("N = 0") << QStringList{QStringLiteral("steps=0")} << QStringLiteral("steps:");
        QTest::newRow("N above the limit") << QStringList{QStringLiteral("steps=4097")} << QStringLiteral("steps:");
        QTest::newRow("seeds x steps") << QStringList{QStringLiteral("steps=4096"), QStringLiteral("seeds.count=3000")}
                                       << QStringLiteral("seeds:");
        QTest::newRow("draws") << QStringList{QStringLiteral("draws=10")} << QStringLiteral("draws:");
        QTest::newRow("compare") << QStringList{QStringLiteral("compare=[1,2]")} << QStringLiteral("compare:");
        QTest::newRow("unknown source") << QStringList{QStringLiteral("source=replies")} << QStringLiteral("source:");
        QTest::newRow("bad chain") << QStringList{QStringLiteral("chain=top-q=3")} << QStringLiteral("chain:");
        QTest::newRow("other model") << QStringList{QStringLiteral("model=gpt")} << QStringLiteral("model:");
        QTest::newRow("unknown rng") << QStringList{QStringLiteral("rng=lcg")} << QStringLiteral("rng:");
    }
    void badInputNamesTheKey()
    {
        QFETCH(QStringList, overrides);
        QFETCH(QString, key);
        const auto spec = app::parseSeedSweep(sequenceFile(overrides), QStringLiteral("f.json"));
        QVERIFY(!spec);
        const QString message = QString::fromStdString(spec.error());
        QVERIFY2(message.startsWith(QStringLiteral("f.json: ") + key), qPrintable(message));
        const auto result = runFile(sequenceFile(overrides), 1);
        QVERIFY(!result.status.finished());
    }

    void cliCsvReadsBack()
    {
        QTemporaryDir dir;
        QProcess p;
        p.start(test::binaryPath(QStringLiteral("logitlab-cli")),
                {QStringLiteral("run"), test::examplePath(QStringLiteral("seed-sweep-sequence.json")),
                 QStringLiteral("--out"), dir.path(), QStringLiteral("--set"), QStringLiteral("seeds.count=40"),
                 QStringLiteral("--formats"), QStringLiteral("csv")});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        // The same file run here: the CLI's tables must hold this census.
        auto root = app::readExperimentJson(test::examplePath(QStringLiteral("seed-sweep-sequence.json")));
        QVERIFY(root);
        const auto result = runFile(app::applyOverride(root.value(), QStringLiteral("seeds.count=40")).value(), 2);
        const auto& outcome = runOf(result).outcome;
        const QDir out(dir.path());
        const auto seeds = plainCsvRows(out.filePath(QStringLiteral("seed-sweep-sequence-seeds.csv")));
        QCOMPARE(seeds.size(), 40);
        for (qsizetype i = 0; i < seeds.size(); ++i) {
            const auto u = static_cast<std::size_t>(i);
            QCOMPARE(seeds[i].size(), 3);
            QCOMPARE(seeds[i][0].toULongLong(), outcome.seeds[u]);
            QCOMPARE(seeds[i][1].toULongLong(), outcome.census.replyOf[u] + 1);
            const auto at = outcome.census.firstDifference[u];
            QCOMPARE(seeds[i][2], at ? QString::number(*at) : QString());
        }
        const auto histogram = plainCsvRows(out.filePath(QStringLiteral("seed-sweep-sequence-first-difference.csv")));
        QCOMPARE(histogram.size(), 8);
        qint64 differing = 0;
        for (qsizetype i = 0; i < histogram.size(); ++i) {
            QCOMPARE(histogram[i][0].toLongLong(), i);
            differing += histogram[i][1].toLongLong();
        }
        QCOMPARE(differing, qint64(40 - outcome.census.replies.front().seeds.size()));
        QFile replies(out.filePath(QStringLiteral("seed-sweep-sequence.csv")));
        QVERIFY(replies.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(replies.readAll());
        QVERIFY(text.contains(QStringLiteral("# source: sequence")));
        QVERIFY(text.contains(
            QStringLiteral("# result: distinct replies: %1 of 40 seeds").arg(outcome.census.replies.size())));
        QVERIFY(text.contains(QStringLiteral("\nreply,seeds,share,first_difference,text,seed_list\n")));

        // Bad input: exit 2, one line naming the key.
        p.start(test::binaryPath(QStringLiteral("logitlab-cli")),
                {QStringLiteral("run"), test::examplePath(QStringLiteral("seed-sweep-sequence.json")),
                 QStringLiteral("--out"), dir.path() + QStringLiteral("/bad"), QStringLiteral("--set"),
                 QStringLiteral("steps=0")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(err.count(QLatin1Char('\n')), 1);
        QVERIFY2(err.contains(QLatin1String("steps:")), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestSequenceSweep)
#include "tst_sequence_sweep.moc"
