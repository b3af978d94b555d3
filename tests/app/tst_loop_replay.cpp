// The loop replaying an imported dump, teacher-forced (docs/import.md, "Replaying a
// generation"): a small .npz written here (logits [steps, V] or [batch, steps, V] as float64,
// generate's `sequences` as int64) is replayed, and at every step the model's distribution is the
// file's row whatever the sampler picked; the model's actual token, its probability, rank and
// whether the chain cut it are checked against hand-computed values; a seeded replay repeats,
// also through `logitlab-cli run`; malformed sequences arrays are refused naming the file, the
// field and the place.
#include "app/kinds/imported_logits_source.h"
#include "app/kinds/loop_job.h"
#include "app/kinds/loop_spec.h"
#include "support/array_fixtures.h"
#include "support/npz_writer.h"
#include "support/test_support.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace logitlab;

namespace {

constexpr int kSteps = 4;
constexpr int kVocabulary = 5;

// Row (batch, step): probabilities 1/2, 1/4, 1/8, 1/16, 1/16 rotated by step (token (k + step) % V
// has the k-th largest), batch 1 rotated one further, as log-probabilities (exact in float64).
double fixtureProbability(int batch, int step, int token)
{
    static const double p[kVocabulary] = {0.5, 0.25, 0.125, 0.0625, 0.0625};
    const int k = ((token - step - batch) % kVocabulary + kVocabulary) % kVocabulary;
    return p[k];
}

QByteArray littleEndian(std::uint64_t bits, int size)
{
    QByteArray out(size, '\0');
    for (int i = 0; i < size; ++i)
        out[i] = static_cast<char>((bits >> (8 * i)) & 0xFF);
    return out;
}

QByteArray logitsNpy(int batches)
{
    QByteArray data;
    for (int b = 0; b < batches; ++b)
        for (int s = 0; s < kSteps; ++s)
            for (int t = 0; t < kVocabulary; ++t)
                data += littleEndian(std::bit_cast<std::uint64_t>(std::log(fixtureProbability(b, s, t))), 8);
    const QByteArray shape = batches == 1 ? QByteArray("(4, 5)") : QByteArray("(2, 4, 5)");
    return test::npyFile("<f8", false, shape, data);
}

// `ids` per batch; `descr` "<i8", "<i4" or a wrong one.
QByteArray sequencesNpy(const QList<QList<qint64>>& ids, const QByteArray& descr = "<i8")
{
    QByteArray data;
    const int size = descr.endsWith('4') ? 4 : 8;
    for (const auto& row : ids)
        for (qint64 id : row) {
            QByteArray bytes = littleEndian(static_cast<std::uint64_t>(id), size);
            if (descr.startsWith('>'))
                std::reverse(bytes.begin(), bytes.end());
            data += bytes;
        }
    const QByteArray shape =
        ids.size() == 1 ? "(" + QByteArray::number(ids.front().size()) + ",)"
                        : "(" + QByteArray::number(ids.size()) + ", " + QByteArray::number(ids.front().size()) + ")";
    return test::npyFile(descr, false, shape, data);
}

// The model's tokens of the fixture: prompt 3, 1, then a reply of 0, 4, 2, 0.
const QList<qint64> kSequence{3, 1, 0, 4, 2, 0};

app::LoopSpec replaySpec(const QString& chain, qint64 seed, qint64 batch = 0)
{
    app::LoopSpec spec;
    spec.name = QStringLiteral("replay");
    spec.semantics = QStringLiteral("llama.cpp");
    spec.chain = chain;
    spec.seed = seed;
    spec.steps = 0;
    spec.replay = app::LoopReplaySpec{QStringLiteral("dump.npz"), QStringLiteral("logits"), batch, std::nullopt,
                                      QStringLiteral("vocab.txt")};
    return spec;
}

QStringList csvFields(const QString& line) { return line.split(QLatin1Char(',')); }

}  // namespace

class TestLoopReplay : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    void writeDump(const QList<QPair<QByteArray, QByteArray>>& members)
    {
        test::writeNpz(m_dir, QStringLiteral("dump.npz"), members);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::writeFixture(m_dir, QStringLiteral("vocab.txt"), "a\nb\nc\nd\ne\n");
    }

    void init() { writeDump({{"logits.npy", logitsNpy(1)}, {"sequences.npy", sequencesNpy({kSequence})}}); }

    // Whatever the sampler picks (any seed, any chain), step t's model distribution is row t.
    void distributionsAreTheRows_data()
    {
        QTest::addColumn<QString>("chain");
        QTest::addColumn<qint64>("seed");
        QTest::newRow("plain seed 1") << QStringLiteral("temperature=1") << qint64(1);
        QTest::newRow("plain seed 99") << QStringLiteral("temperature=1") << qint64(99);
        QTest::newRow("hot, penalties") << QStringLiteral("penalties:last-n=8:repeat=1.5,temperature=3") << qint64(7);
        QTest::newRow("top-k 2") << QStringLiteral("top-k=2,temperature=1") << qint64(3);
        QTest::newRow("greedy") << QStringLiteral("temperature=0") << qint64(5);
    }
    void distributionsAreTheRows()
    {
        QFETCH(QString, chain);
        QFETCH(qint64, seed);
        const app::LoopOutcome outcome = app::runLoop(replaySpec(chain, seed), m_dir.path(), {});
        QVERIFY2(outcome.status.finished(), qPrintable(outcome.status.message));
        const auto& steps = outcome.tracks.front().steps;
        QCOMPARE(steps.size(), std::size_t(kSteps));
        for (const engine::LoopStep& step : steps) {
            QCOMPARE(step.top.size(), std::size_t(kVocabulary));
            for (const engine::LoopCandidate& c : step.top)
                QVERIFY(std::abs(c.modelP - fixtureProbability(0, static_cast<int>(step.index), c.id)) < 1e-12);
        }
        // Teacher forcing: the history is the model's tokens, not the picks.
        QCOMPARE(outcome.mainLoop->history(), (std::vector<std::int32_t>{0, 4, 2, 0}));
        QCOMPARE(outcome.mainLoop->prompt(), (std::vector<std::int32_t>{3, 1}));
        QCOMPARE(outcome.tracks.front().actualTokens, (QStringList{"a", "e", "c", "a"}));
    }

    // The model's token per step under top-k=2, by hand: step t's ranks rotate by t.
    void actualTokenColumns_data()
    {
        QTest::addColumn<int>("step");
        QTest::addColumn<int>("actual");
        QTest::addColumn<double>("modelP");
        QTest::addColumn<qint64>("rank");
        QTest::addColumn<bool>("cut");
        QTest::addColumn<double>("finalP");
        // Step 0: token 0 has 1/2 (rank 1), kept; top-k=2 keeps 1/2 and 1/4, renormalised to 2/3.
        QTest::newRow("step 0") << 0 << 0 << 0.5 << qint64(1) << false << 2.0 / 3.0;
        // Step 1: token 4 is k = 3 (1/16); ties with k = 4 (token 0) broken by id: rank 5.
        QTest::newRow("step 1") << 1 << 4 << 0.0625 << qint64(5) << true << 0.0;
        // Step 2: token 2 is k = 0.
        QTest::newRow("step 2") << 2 << 2 << 0.5 << qint64(1) << false << 2.0 / 3.0;
        // Step 3: token 0 is k = 2 (1/8), rank 3: cut by top-k=2.
        QTest::newRow("step 3") << 3 << 0 << 0.125 << qint64(3) << true << 0.0;
    }
    void actualTokenColumns()
    {
        QFETCH(int, step);
        QFETCH(int, actual);
        QFETCH(double, modelP);
        QFETCH(qint64, rank);
        QFETCH(bool, cut);
        QFETCH(double, finalP);
        const app::LoopOutcome outcome =
            app::runLoop(replaySpec(QStringLiteral("top-k=2,temperature=1"), 11), m_dir.path(), {});
        QVERIFY2(outcome.status.finished(), qPrintable(outcome.status.message));
        const engine::LoopStep& s = outcome.tracks.front().steps[static_cast<std::size_t>(step)];
        QCOMPARE(s.actual, actual);
        QVERIFY(s.actualKnown);
        QVERIFY(std::abs(s.actualModelProbability - modelP) < 1e-12);
        QCOMPARE(s.actualRank, rank);
        QCOMPARE(s.actualCut, cut);
        QVERIFY(std::abs(s.actualProbability - finalP) < 1e-12);
        QCOMPARE(s.matches(), s.token == actual);
        // The summary counts the two cut steps.
        QCOMPARE(engine::replayAgreement(outcome.tracks.front().steps).cut, std::size_t(2));
    }

    // Without sequences the argmax stands in, marked unknown, and no agreement is claimed.
    void withoutSequencesTheArgmaxStandsIn()
    {
        writeDump({{"logits.npy", logitsNpy(1)}});
        const app::LoopOutcome outcome = app::runLoop(replaySpec(QStringLiteral("temperature=1"), 2), m_dir.path(), {});
        QVERIFY2(outcome.status.finished(), qPrintable(outcome.status.message));
        for (const engine::LoopStep& s : outcome.tracks.front().steps) {
            QVERIFY(!s.actualKnown);
            QCOMPARE(s.actual, s.top.front().id);
            QCOMPARE(s.actualRank, qint64(1));
        }
        QCOMPARE(engine::replayAgreement(outcome.tracks.front().steps).known, std::size_t(0));
        QVERIFY(app::replaySummary(outcome.tracks.front().steps).contains(QStringLiteral("argmax")));
    }

    // The batch chosen picks its own rows and its own sequence.
    void batchPicksItsRows_data()
    {
        QTest::addColumn<qint64>("batch");
        QTest::newRow("batch 0") << qint64(0);
        QTest::newRow("batch 1") << qint64(1);
    }
    void batchPicksItsRows()
    {
        QFETCH(qint64, batch);
        writeDump({{"logits.npy", logitsNpy(2)}, {"sequences.npy", sequencesNpy({kSequence, {0, 0, 1, 2, 3, 4}})}});
        const app::LoopOutcome outcome =
            app::runLoop(replaySpec(QStringLiteral("temperature=1"), 4, batch), m_dir.path(), {});
        QVERIFY2(outcome.status.finished(), qPrintable(outcome.status.message));
        for (const engine::LoopStep& step : outcome.tracks.front().steps)
            for (const engine::LoopCandidate& c : step.top)
                QVERIFY(std::abs(c.modelP - fixtureProbability(static_cast<int>(batch), static_cast<int>(step.index),
                                                               c.id)) < 1e-12);
        QCOMPARE(outcome.mainLoop->history(),
                 batch == 0 ? (std::vector<std::int32_t>{0, 4, 2, 0}) : (std::vector<std::int32_t>{1, 2, 3, 4}));
    }

    // Every integer dtype numpy writes for token ids, in either byte order.
    void sequencesDtypes_data()
    {
        QTest::addColumn<QByteArray>("descr");
        QTest::newRow("<i4") << QByteArray("<i4");
        QTest::newRow(">i4") << QByteArray(">i4");
        QTest::newRow("<i8") << QByteArray("<i8");
        QTest::newRow(">i8") << QByteArray(">i8");
    }
    void sequencesDtypes()
    {
        QFETCH(QByteArray, descr);
        writeDump({{"logits.npy", logitsNpy(1)}, {"sequences.npy", sequencesNpy({kSequence}, descr)}});
        const app::LoopOutcome outcome = app::runLoop(replaySpec(QStringLiteral("temperature=1"), 1), m_dir.path(), {});
        QVERIFY2(outcome.status.finished(), qPrintable(outcome.status.message));
        QCOMPARE(outcome.mainLoop->history(), (std::vector<std::int32_t>{0, 4, 2, 0}));
        QCOMPARE(outcome.mainLoop->prompt(), (std::vector<std::int32_t>{3, 1}));
    }

    void malformedSequencesRefused_data()
    {
        QTest::addColumn<QByteArray>("sequences");
        QTest::addColumn<QString>("expected");
        QTest::newRow("float dtype") << sequencesNpy({kSequence}, "<f8")
                                     << QStringLiteral("member sequences.npy: header field 'descr' is '<f8'");
        QTest::newRow("int16 dtype") << sequencesNpy({kSequence}, "<i2")
                                     << QStringLiteral("header field 'descr' is '<i2'; expected token ids");
        QTest::newRow("too short") << sequencesNpy({{0, 1, 2}})
                                   << QStringLiteral("3 tokens, but the logits have 4 steps");
        QTest::newRow("id >= V") << sequencesNpy({{3, 1, 0, 4, 5, 0}})
                                 << QStringLiteral(
                                        "position 4 (offset 160): token id 5 is outside the vocabulary of 5");
        QTest::newRow("negative id") << sequencesNpy({{3, -1, 0, 4, 2, 0}})
                                     << QStringLiteral("position 1 (offset 136): token id -1");
        QTest::newRow("batch count") << sequencesNpy({kSequence, kSequence})
                                     << QStringLiteral("holds 2 sequences; expected one per batch");
    }
    void malformedSequencesRefused()
    {
        QFETCH(QByteArray, sequences);
        QFETCH(QString, expected);
        writeDump({{"logits.npy", logitsNpy(1)}, {"sequences.npy", sequences}});
        const app::LoopOutcome outcome = app::runLoop(replaySpec(QStringLiteral("temperature=1"), 1), m_dir.path(), {});
        QCOMPARE(outcome.status.state, app::RunStatus::State::Failed);
        QVERIFY2(outcome.status.message.contains(QStringLiteral("dump.npz")), qPrintable(outcome.status.message));
        QVERIFY2(outcome.status.message.contains(expected), qPrintable(outcome.status.message));
    }

    // Strict keys, written and read back the same.
    void specRoundTrips()
    {
        app::LoopSpec spec = replaySpec(QStringLiteral("top-k=2"), 9, 1);
        spec.replay->sequences = QStringLiteral("ids");
        spec.steps = 3;
        spec.branch = app::LoopBranchSpec{1, QString(), 5};
        const auto back = app::parseLoop(app::toJson(spec), QStringLiteral("x"));
        QVERIFY2(back, back ? "" : back.error().c_str());
        QCOMPARE(back.value(), spec);

        QJsonObject json = app::toJson(spec);
        QJsonObject logits = json.value(QStringLiteral("logits")).toObject();
        logits.insert(QStringLiteral("colour"), 1);
        json.insert(QStringLiteral("logits"), logits);
        const auto unknown = app::parseLoop(json, QStringLiteral("x"));
        QVERIFY(!unknown);
        QVERIFY2(QString::fromStdString(unknown.error()).contains(QStringLiteral("colour")), unknown.error().c_str());

        json = app::toJson(spec);
        json.insert(QStringLiteral("branch"),
                    QJsonObject{{QStringLiteral("at"), 1}, {QStringLiteral("token"), QStringLiteral("a")}});
        const auto forced = app::parseLoop(json, QStringLiteral("x"));
        QVERIFY(!forced);
        QVERIFY2(QString::fromStdString(forced.error()).contains(QStringLiteral("branch.token")),
                 forced.error().c_str());

        json = app::toJson(spec);
        json.insert(QStringLiteral("steps"), 9);
        logits = json.value(QStringLiteral("logits")).toObject();
        logits.insert(QStringLiteral("batch"), 0);
        logits.remove(QStringLiteral("sequences"));
        json.insert(QStringLiteral("logits"), logits);
        const app::LoopOutcome tooMany =
            app::runLoop(app::parseLoop(json, QStringLiteral("x")).value(), m_dir.path(), {});
        QVERIFY2(tooMany.status.message.contains(QStringLiteral("steps: 9 asked, but the file holds 4 steps")),
                 qPrintable(tooMany.status.message));
    }

    // A seeded replay repeats, in-process and through `logitlab-cli run`, with the new columns.
    void seededReplayRepeatsThroughTheCli()
    {
        const app::LoopSpec spec = replaySpec(QStringLiteral("temperature=1.5"), 21);
        const app::ExperimentResult a = app::loopResult(spec, app::runLoop(spec, m_dir.path(), {}), m_dir.path());
        const app::ExperimentResult b = app::loopResult(spec, app::runLoop(spec, m_dir.path(), {}), m_dir.path());
        QVERIFY(a.status.finished());
        const app::ResultTable& table = a.tables.front();
        for (std::size_t c = 0; c < table.columns.size(); ++c)
            for (std::size_t r = 0; r < table.rows; ++r)
                QCOMPARE(table.columns[c].cell(r).toString(), b.tables.front().columns[c].cell(r).toString());
        QVERIFY(a.provenance.asText().contains(QStringLiteral("sha256=")));

        const QString file = m_dir.filePath(QStringLiteral("replay.logitlab.json"));
        QVERIFY(app::writeLoopFile(file, spec).isEmpty());
        QTemporaryDir out;
        QProcess cli;
        cli.start(test::binaryPath(QStringLiteral("logitlab-cli")),
                  {QStringLiteral("run"), file, QStringLiteral("--out"), out.path(), QStringLiteral("--formats"),
                   QStringLiteral("csv")});
        QVERIFY(cli.waitForFinished(60000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        QFile csv(QDir(out.path()).filePath(QStringLiteral("replay.csv")));
        QVERIFY2(csv.open(QIODevice::ReadOnly), qPrintable(csv.fileName()));
        const QString written = QString::fromUtf8(csv.readAll());
        QVERIFY(written.contains(QStringLiteral("sha256=")));
        QStringList lines;
        for (const QString& line : written.split(QLatin1Char('\n')))
            if (!line.isEmpty() && !line.startsWith(QLatin1Char('#')))
                lines << line;
        QCOMPARE(lines.front(), table.columnNames().join(QLatin1Char(',')));
        QCOMPARE(static_cast<std::size_t>(lines.size() - 1), table.rows);
        for (const QString& name :
             {QStringLiteral("token_id"), QStringLiteral("actual_id"), QStringLiteral("actual_rank"),
              QStringLiteral("match"), QStringLiteral("actual_cut")}) {
            const auto column = table.columnNames().indexOf(name);
            QVERIFY(column >= 0);
            for (std::size_t r = 0; r < table.rows; ++r)
                QCOMPARE(csvFields(lines[static_cast<qsizetype>(r + 1)])[column].toLongLong(),
                         table.columns[static_cast<std::size_t>(column)].cell(r).toLongLong());
        }
    }
};

QTEST_GUILESS_MAIN(TestLoopReplay)
#include "tst_loop_replay.moc"
