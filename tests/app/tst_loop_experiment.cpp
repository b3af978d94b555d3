// The loop experiment kind (app/kinds/loop_spec.h, app/kinds/loop_job.h): its strict reader refuses bad
// files with the key named, a run replays bit for bit, a branch diverges at its step, and
// `logitlab-cli run` on an example writes the per-step CSV whose values equal the in-process
// run (read back from the file).
#include "app/kinds/experiment_kind.h"
#include "app/kinds/loop_job.h"
#include "app/kinds/loop_spec.h"
#include "app/kinds/result_table.h"
#include "support/example_files.h"
#include "support/test_support.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace logitlab;

namespace {

QJsonObject exampleRoot(const QString& name)
{
    const auto root = app::readExperimentJson(test::examplePath(name));
    if (!root)
        qFatal("%s", root.error().c_str());
    return root.value();
}

app::LoopSpec example(const QString& name)
{
    const auto spec = app::parseLoop(exampleRoot(name), name);
    if (!spec)
        qFatal("%s", spec.error().c_str());
    return spec.value();
}

}  // namespace

class TestLoopExperiment : public QObject {
    Q_OBJECT

private slots:
    void badFilesAreRefused_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty prompt") << QStringLiteral("prompt") << QJsonValue(QStringLiteral("  "))
                                      << QStringLiteral("f.json: prompt: must hold at least one word");
        QTest::newRow("no steps") << QStringLiteral("steps") << QJsonValue(0) << QStringLiteral("f.json: steps:");
        QTest::newRow("too many steps") << QStringLiteral("steps") << QJsonValue(app::kMaxLoopSteps + 1)
                                        << QStringLiteral("f.json: steps:");
        QTest::newRow("unknown branch token")
            << QStringLiteral("branch") << QJsonValue(QJsonObject{{"at", 1}, {"token", "qwertyuiop"}})
            << QStringLiteral("f.json: branch.token: 'qwertyuiop' is not a token of the built-in model");
        QTest::newRow("branch token and seed")
            << QStringLiteral("branch") << QJsonValue(QJsonObject{{"at", 1}, {"token", "the"}, {"seed", 3}})
            << QStringLiteral("f.json: branch: needs exactly one of");
        QTest::newRow("branch past the end")
            << QStringLiteral("branch") << QJsonValue(QJsonObject{{"at", 30}, {"seed", 3}})
            << QStringLiteral("f.json: branch.at:");
        QTest::newRow("unknown stage") << QStringLiteral("chain") << QJsonValue(QStringLiteral("beam=4"))
                                       << QStringLiteral("f.json: chain:");
        QTest::newRow("unknown key") << QStringLiteral("temperature") << QJsonValue(1.0)
                                     << QStringLiteral("f.json: temperature:");
        QTest::newRow("other model") << QStringLiteral("model") << QJsonValue(QStringLiteral("gpt-2"))
                                     << QStringLiteral("f.json: model:");
    }
    void badFilesAreRefused()
    {
        QFETCH(QString, key);
        QFETCH(QJsonValue, value);
        QFETCH(QString, message);
        QJsonObject root = exampleRoot(QStringLiteral("loop-greedy-branch.json"));
        root.insert(key, value);
        const auto spec = app::parseLoop(root, QStringLiteral("f.json"));
        QVERIFY(!spec);
        QVERIFY2(QString::fromStdString(spec.error()).startsWith(message), spec.error().c_str());
    }

    void fileRoundTrips()
    {
        const app::LoopSpec spec = example(QStringLiteral("loop-mirostat-penalties.json"));
        const auto again = app::parseLoop(app::toJson(spec), QStringLiteral("again"));
        QVERIFY2(again, again ? "" : again.error().c_str());
        QVERIFY(again.value() == spec);
    }

    // Each example: a branch differs first at its own step (forced) or later (reseeded), and the
    // same file gives the same CSV bytes.
    void runsReplayAndBranchesDiverge_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("defaults") << QStringLiteral("loop-lesson.json");
        QTest::newRow("greedy branch") << QStringLiteral("loop-greedy-branch.json");
        QTest::newRow("mirostat penalties") << QStringLiteral("loop-mirostat-penalties.json");
    }
    void runsReplayAndBranchesDiverge()
    {
        QFETCH(QString, file);
        const app::LoopSpec spec = example(file);
        const app::ExperimentResult a = app::loopResult(spec, app::runLoop(spec, {}));
        const app::ExperimentResult b = app::loopResult(spec, app::runLoop(spec, {}));
        QVERIFY2(a.status.finished(), qPrintable(a.status.message));
        for (std::size_t t = 0; t < a.tables.size(); ++t)
            QCOMPARE(app::resultTableCsv(a.provenance, a.tables[t]), app::resultTableCsv(b.provenance, b.tables[t]));
        const auto& run = *std::any_cast<std::shared_ptr<const app::LoopRun>>(a.details);
        QCOMPARE(run.outcome.tracks.front().steps.size(), static_cast<std::size_t>(spec.steps));
        if (!spec.branch) {
            QCOMPARE(run.outcome.tracks.size(), std::size_t{1});
            return;
        }
        QCOMPARE(run.outcome.tracks.size(), std::size_t{2});
        const auto at = static_cast<std::size_t>(spec.branch->at);
        const auto& main = run.outcome.tracks[0].steps;
        const auto& branch = run.outcome.tracks[1].steps;
        for (std::size_t i = 0; i < at; ++i)
            QCOMPARE(branch[i].token, main[i].token);
        if (!spec.branch->token.isEmpty()) {
            QVERIFY(branch[at].forced);
            if (main[at].token != branch[at].token)
                QCOMPARE(run.outcome.divergence->step, at);
        } else if (run.outcome.divergence) {
            QVERIFY(run.outcome.divergence->step >= at);
        }
    }

    // `logitlab-cli run` writes the same steps: the CSV read back holds the in-process values.
    void cliWritesTheSameSteps()
    {
        const QString file = QStringLiteral("loop-greedy-branch.json");
        const app::LoopSpec spec = example(file);
        const app::ExperimentResult result = app::loopResult(spec, app::runLoop(spec, {}));
        QTemporaryDir out;
        QProcess cli;
        cli.start(test::binaryPath(QStringLiteral("logitlab-cli")),
                  {QStringLiteral("run"), test::examplePath(file), QStringLiteral("--out"), out.path(),
                   QStringLiteral("--formats"), QStringLiteral("csv")});
        QVERIFY(cli.waitForFinished(120000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        QFile csv(QDir(out.path()).filePath(spec.name + QStringLiteral(".csv")));
        QVERIFY2(csv.open(QIODevice::ReadOnly), qPrintable(csv.fileName()));
        QStringList lines;
        for (const QString& line : QString::fromUtf8(csv.readAll()).split(QLatin1Char('\n')))
            if (!line.isEmpty() && !line.startsWith(QLatin1Char('#')))
                lines << line;
        const app::ResultTable& table = result.tables.front();
        QCOMPARE(lines.front(), table.columnNames().join(QLatin1Char(',')));
        QCOMPARE(static_cast<std::size_t>(lines.size() - 1), table.rows);
        const int probability = static_cast<int>(table.columnNames().indexOf(QStringLiteral("probability")));
        const int token = static_cast<int>(table.columnNames().indexOf(QStringLiteral("token_id")));
        for (std::size_t r = 0; r < table.rows; ++r) {
            const QStringList cells = test::csvFields(lines[static_cast<qsizetype>(r + 1)]);
            QCOMPARE(cells[token].toLongLong(), table.columns[static_cast<std::size_t>(token)].cell(r).toLongLong());
            QCOMPARE(cells[probability].toDouble(),
                     table.columns[static_cast<std::size_t>(probability)].cell(r).toDouble());
        }
        QVERIFY(QFile::exists(QDir(out.path()).filePath(spec.name + QStringLiteral("-text.csv"))));
    }
};

QTEST_GUILESS_MAIN(TestLoopExperiment)
#include "tst_loop_experiment.moc"
