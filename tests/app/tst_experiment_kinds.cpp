// The registry of experiment kinds: every example file finds its kind, every kind runs its
// example to a result whose tables are full (no empty cell where a value belongs), the
// Explorer's saved state runs without the window, and a file of no known kind is refused with
// the kinds named. Also the pooled goodness-of-fit test the Explorer's draws report.
#include "app/io/experiment_file.h"
#include "app/kinds/experiment_kind.h"
#include "app/kinds/explorer_run.h"
#include "engine/stats/pooled_fit_test.h"
#include "support/example_files.h"
#include "support/run_experiment_file.h"

#include <QTest>

#include <numeric>

using namespace logitlab;

namespace {

QJsonObject exampleRoot(const QString& name, const QStringList& overrides = {})
{
    auto root = app::readExperimentJson(test::examplePath(name));
    if (!root)
        qFatal("%s", root.error().c_str());
    QJsonObject json = root.value();
    for (const QString& o : overrides)
        json = app::applyOverride(json, o).value();
    return json;
}

app::ExperimentResult runExample(const QString& name, const QStringList& overrides = {})
{
    auto result = test::runExperimentFile(test::examplePath(name), overrides);
    if (!result)
        qFatal("%s", result.error().c_str());
    return std::move(result).value();
}

}  // namespace

class TestExperimentKinds : public QObject {
    Q_OBJECT

private slots:
    void idsAreUniqueAndFound()
    {
        const QStringList ids = app::experimentKindIds();
        QVERIFY(ids.contains(QStringLiteral("junk-risk")));
        QVERIFY(ids.contains(QStringLiteral("seed-sweep")));
        QVERIFY(ids.contains(QStringLiteral("explorer")));
        QCOMPARE(QSet<QString>(ids.begin(), ids.end()).size(), ids.size());
        for (const QString& id : ids)
            QCOMPARE(app::findExperimentKind(id)->id(), id);
        QCOMPARE(app::findExperimentKind(QStringLiteral("nope")), nullptr);
    }

    void everyExampleFindsItsKind_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("kind");
        for (const QFileInfo& f : QDir(test::examplePath(QString())).entryInfoList({QStringLiteral("*.json")})) {
            const QByteArray name = f.fileName().toUtf8();
            // The experiment files' own names say what they are; the data files say nothing.
            if (name.startsWith("junk-risk") && !name.contains("logits"))
                QTest::newRow(name.constData()) << f.fileName() << QStringLiteral("junk-risk");
            else if (name.startsWith("seed-sweep"))
                QTest::newRow(name.constData()) << f.fileName() << QStringLiteral("seed-sweep");
            else if (name.startsWith("summation-order"))
                QTest::newRow(name.constData()) << f.fileName() << QStringLiteral("summation-order");
            else if (name.startsWith("explorer"))
                QTest::newRow(name.constData()) << f.fileName() << QStringLiteral("explorer");
            else if (name.startsWith("loop"))
                QTest::newRow(name.constData()) << f.fileName() << QStringLiteral("loop");
            else if (name.startsWith("batch-invariance"))
                QTest::newRow(name.constData()) << f.fileName() << QStringLiteral("batch-invariance");
        }
    }
    void everyExampleFindsItsKind()
    {
        QFETCH(QString, file);
        QFETCH(QString, kind);
        const QJsonObject root = exampleRoot(file);
        const auto found = app::kindOfFile(root, file);
        QVERIFY2(found, found ? "" : found.error().c_str());
        QCOMPARE(found.value()->id(), kind);
        const QString problem = found.value()->check(root, file);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void sniffedKind_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("kind");
        QTest::newRow("experiment") << QByteArray(R"({"logitlab": 1, "experiment": "seed-sweep"})")
                                    << QStringLiteral("seed-sweep");
        QTest::newRow("key after a big array")
            << QByteArray(R"({"distribution": {"logits": [1,2,3]}, "experiment" :"junk-risk"})")
            << QStringLiteral("junk-risk");
        QTest::newRow("explorer state") << QByteArray(R"({"format":"logitlab-explorer","version":3})")
                                        << QStringLiteral("explorer");
        QTest::newRow("unknown kind") << QByteArray(R"({"experiment": "beam-search"})") << QString();
        QTest::newRow("not a string") << QByteArray(R"({"experiment": 3})") << QString();
        QTest::newRow("nothing") << QByteArray("1,2,3\n") << QString();
    }
    void sniffedKind()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, kind);
        QCOMPARE(app::sniffKindId(bytes), kind);
    }

    void unknownKindNamesTheKinds_data()
    {
        QTest::addColumn<QString>("json");
        QTest::newRow("no experiment key") << QStringLiteral(R"({"logitlab":1,"name":"x"})");
        QTest::newRow("unknown experiment") << QStringLiteral(R"({"logitlab":1,"experiment":"beam-search"})");
        QTest::newRow("not a string") << QStringLiteral(R"({"logitlab":1,"experiment":3})");
        QTest::newRow("explorer named as an experiment") << QStringLiteral(R"({"logitlab":1,"experiment":"explorer"})");
        QTest::newRow("other format") << QStringLiteral(R"({"format":"something-else"})");
    }
    void unknownKindNamesTheKinds()
    {
        QFETCH(QString, json);
        const auto root = app::parseExperimentJson(json.toUtf8(), QStringLiteral("f.json"));
        QVERIFY(root);
        const auto kind = app::kindOfFile(root.value(), QStringLiteral("f.json"));
        QVERIFY(!kind);
        const QString message = QString::fromStdString(kind.error());
        QVERIFY2(message.startsWith(QStringLiteral("f.json: experiment: must be one of junk-risk, seed-sweep")),
                 qPrintable(message));
        QVERIFY(message.contains(QStringLiteral("logitlab-explorer")));
    }

    // Every kind's example: finished, named, with tables whose every cell holds a value.
    void examplesRunToFullTables_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("overrides");
        QTest::addColumn<QStringList>("suffixes");
        QTest::newRow("junk risk") << QStringLiteral("junk-risk-lesson.json")
                                   << QStringList{QStringLiteral("replies=500")} << QStringList{QString()};
        QTest::newRow("seed sweep") << QStringLiteral("seed-sweep-lesson.json") << QStringList{}
                                    << QStringList{QString(), QStringLiteral("-seeds")};
        QTest::newRow("summation order") << QStringLiteral("summation-order-normal.json")
                                         << QStringList{QStringLiteral("shuffles=50")}
                                         << QStringList{QString(), QStringLiteral("-shuffles"),
                                                        QStringLiteral("-histogram"), QStringLiteral("-spread"),
                                                        QStringLiteral("-lesson")};
        QTest::newRow("summation order, a list")
            << QStringLiteral("summation-order-hard-cases.json") << QStringList{}
            << QStringList{QString(), QStringLiteral("-shuffles"), QStringLiteral("-histogram"),
                           QStringLiteral("-lesson")};
        QTest::newRow("explorer") << QStringLiteral("explorer-llama-xtc.json") << QStringList{}
                                  << QStringList{QString(), QStringLiteral("-sweep"), QStringLiteral("-draws"),
                                                 QStringLiteral("-compare")};
        QTest::newRow("batch invariance, decode")
            << QStringLiteral("batch-invariance-decode.json") << QStringList{QStringLiteral("measure_cost=false")}
            << QStringList{QString(), QStringLiteral("-divergences"), QStringLiteral("-completions"),
                           QStringLiteral("-steps")};
        QTest::newRow("batch invariance, one step")
            << QStringLiteral("batch-invariance-one-step.json")
            << QStringList{QStringLiteral("model.vocabulary=1024"), QStringLiteral("model.hidden=64"),
                           QStringLiteral("search.prompts=3")}
            << QStringList{QString(), QStringLiteral("-points")};
    }
    void examplesRunToFullTables()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, overrides);
        QFETCH(QStringList, suffixes);
        const app::ExperimentResult result = runExample(file, overrides);
        QVERIFY2(result.status.finished(), qPrintable(result.status.message));
        QVERIFY(!result.name.isEmpty());
        QVERIFY(!result.summary.isEmpty());
        QVERIFY(result.details.has_value());
        QStringList got;
        for (const auto& table : result.tables) {
            got << table.suffix;
            QVERIFY2(table.rows > 0, qPrintable(table.suffix));
            for (std::size_t r = 0; r < table.rows; ++r)
                for (const auto& column : table.columns) {
                    // A compared preset that cannot run these values has no numbers; the
                    // provenance says why.
                    const QString preset = column.name.mid(2);
                    if (table.suffix == QLatin1String("-compare") &&
                        result.provenance.asText().contains(QStringLiteral("result: %1 cannot run").arg(preset)))
                        continue;
                    QVERIFY2(!app::csvCell(column, r).isEmpty(),
                             qPrintable(QStringLiteral("%1%2: row %3, column %4 is empty")
                                            .arg(file, table.suffix)
                                            .arg(r)
                                            .arg(column.name)));
                }
        }
        QCOMPARE(got, suffixes);
    }

    void badInputIsFlagged()
    {
        const app::ExperimentResult result =
            runExample(QStringLiteral("junk-risk-lesson.json"), {QStringLiteral("replies=-1")});
        QCOMPARE(result.status.state, app::RunStatus::State::Failed);
        QVERIFY(result.badInput);
        QVERIFY2(result.status.message.contains(QStringLiteral("replies")), qPrintable(result.status.message));
    }

    // The Explorer's saved state without the window: the chain's survivors, probabilities that
    // sum to 1, draws that add up, and the same result for the same file.
    void explorerStateRunsHeadless()
    {
        const app::ExperimentResult result = runExample(QStringLiteral("explorer-llama-xtc.json"));
        QVERIFY2(result.status.finished(), qPrintable(result.status.message));
        QCOMPARE(result.name, QStringLiteral("explorer-llama-xtc"));
        const auto& run = *std::any_cast<std::shared_ptr<const app::ExplorerRun>>(result.details);
        QCOMPARE(run.table->distribution.tokens.size(), std::size_t{5});
        const auto& p = run.analysis->probabilities;
        QCOMPARE(std::accumulate(p.begin(), p.end(), 0.0), 1.0);
        const auto* tokens = result.table(QString());
        QVERIFY(tokens);
        QCOMPARE(tokens->columnNames(),
                 (QStringList{QStringLiteral("token_id"), QStringLiteral("token"), QStringLiteral("logit"),
                              QStringLiteral("p"), QStringLiteral("survivor"), QStringLiteral("p_renormalised"),
                              QStringLiteral("rank")}));
        double renormalised = 0.0;
        qint64 survivors = 0;
        for (std::size_t r = 0; r < tokens->rows; ++r) {
            survivors += tokens->columns[4].cell(r).toLongLong();
            renormalised += tokens->columns[5].cell(r).toDouble();
        }
        QCOMPARE(survivors, qint64(run.analysis->survivors.size()));
        QVERIFY(qAbs(renormalised - 1.0) < 1e-12);
        const auto* draws = result.table(QStringLiteral("-draws"));
        qint64 drawn = 0;
        for (std::size_t r = 0; r < draws->rows; ++r)
            drawn += draws->columns[4].cell(r).toLongLong();
        QCOMPARE(drawn, run.state.draws);
        const auto* compare = result.table(QStringLiteral("-compare"));
        QCOMPARE(compare->columns.size(), std::size_t{2 + 4});

        const app::ExperimentResult again = runExample(QStringLiteral("explorer-llama-xtc.json"));
        for (std::size_t t = 0; t < result.tables.size(); ++t)
            QCOMPARE(app::resultTableCsv(result.provenance, again.tables[t]),
                     app::resultTableCsv(result.provenance, result.tables[t]));
    }

    // The fit test the Explorer's draws show: pooled so it is valid, absent where it cannot be.
    void pooledFitTest_data()
    {
        QTest::addColumn<std::vector<std::uint64_t>>("observed");
        QTest::addColumn<std::vector<double>>("expected");
        QTest::addColumn<int>("bins");
        QTest::addColumn<QString>("text");
        QTest::newRow("one outcome") << std::vector<std::uint64_t>{1000} << std::vector<double>{1.0} << 1
                                     << QStringLiteral("no test: one outcome");
        QTest::newRow("lesson draws") << std::vector<std::uint64_t>{493, 393, 114} << std::vector<double>{0.5, 0.4, 0.1}
                                      << 3 << QStringLiteral("chi-square p = 0.336 (3 bins)");
        QTest::newRow("tail pooled") << std::vector<std::uint64_t>{90, 6, 2, 1, 1}
                                     << std::vector<double>{0.9, 0.05, 0.03, 0.01, 0.01} << 3
                                     << QStringLiteral("chi-square p = 0.819 (3 bins after pooling)");
        QTest::newRow("too few draws") << std::vector<std::uint64_t>{3, 0} << std::vector<double>{0.5, 0.5} << 1
                                       << QStringLiteral("no test: too few draws for two bins expecting 5 or more");
    }
    void pooledFitTest()
    {
        QFETCH(std::vector<std::uint64_t>, observed);
        QFETCH(std::vector<double>, expected);
        QFETCH(int, bins);
        QFETCH(QString, text);
        const auto fit = engine::pooledChiSquare(observed, expected);
        QCOMPARE(fit.bins, bins);
        QCOMPARE(QString::fromStdString(fit.describe()), text);
    }
};

QTEST_GUILESS_MAIN(TestExperimentKinds)
#include "tst_experiment_kinds.moc"
