// Seed sweeps at every step of an imported file: on a small .npy written here byte by byte, the
// per-step sweep equals the one-step sweep run at each row; tests that are not valid at a step
// (one token left, too few draws) leave their cells empty; the CSV is the same for 1 and 4
// threads; a range outside the file, or "steps" with "row", is refused naming the key.
#include "app/kinds/experiment_kind.h"
#include "app/kinds/result_table.h"
#include "app/kinds/seed_sweep_job.h"
#include "app/kinds/step_sweep_job.h"
#include "support/small_npy.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace logitlab;

namespace {

QJsonObject sweepFile(const QJsonValue& steps, const QString& chain, int draws)
{
    return QJsonObject{
        {QStringLiteral("logitlab"), 1},
        {QStringLiteral("experiment"), QStringLiteral("seed-sweep")},
        {QStringLiteral("name"), QStringLiteral("steps")},
        {QStringLiteral("distribution"), QJsonObject{{QStringLiteral("kind"), QStringLiteral("file")},
                                                     {QStringLiteral("path"), QStringLiteral("logits.npy")},
                                                     {QStringLiteral("steps"), steps}}},
        {QStringLiteral("semantics"), QStringLiteral("lesson")},
        {QStringLiteral("chain"), chain},
        {QStringLiteral("rng"), QStringLiteral("mulberry32")},
        {QStringLiteral("seeds"), QJsonObject{{QStringLiteral("first"), 1}, {QStringLiteral("count"), 24}}},
        {QStringLiteral("draws"), draws}};
}

}  // namespace

class TestStepSweep : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    app::ExperimentResult run(const QJsonObject& root, int threads)
    {
        app::RunContext context;
        context.source = QStringLiteral("f.json");
        context.baseDir = m_dir.path();
        context.threads = threads;
        return app::findExperimentKind(QStringLiteral("seed-sweep"))->run(root, context);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(test::writeSmallNpy(QDir(m_dir.path()).filePath(QStringLiteral("logits.npy"))));
    }

    void everyStepEqualsTheOneStepSweep_data()
    {
        QTest::addColumn<QJsonValue>("steps");
        QTest::addColumn<QString>("chain");
        QTest::addColumn<int>("draws");
        QTest::addColumn<int>("first");
        QTest::addColumn<int>("count");
        QTest::newRow("all, top-p") << QJsonValue(QStringLiteral("all")) << QStringLiteral("temperature=1,top-p=0.95")
                                    << 400 << 0 << 4;
        QTest::newRow("1..-1, few draws")
            << QJsonValue(QJsonObject{{QStringLiteral("from"), 1}, {QStringLiteral("to"), -1}})
            << QStringLiteral("temperature=1") << 6 << 1 << 3;
        QTest::newRow("one token left") << QJsonValue(
                                               QJsonObject{{QStringLiteral("from"), -2}, {QStringLiteral("to"), 2}})
                                        << QStringLiteral("top-k=1") << 50 << 2 << 1;
    }
    void everyStepEqualsTheOneStepSweep()
    {
        QFETCH(QJsonValue, steps);
        QFETCH(QString, chain);
        QFETCH(int, draws);
        QFETCH(int, first);
        QFETCH(int, count);
        const QJsonObject file = sweepFile(steps, chain, draws);
        const auto result = run(file, 2);
        QVERIFY2(result.status.finished(), qPrintable(result.status.message));
        const auto& rows = std::any_cast<std::shared_ptr<const app::StepSweepRun>>(result.details)->outcome.rows;
        QCOMPARE(int(rows.size()), count);
        const auto spec = app::parseSeedSweep(file, QStringLiteral("f.json"));
        QVERIFY(spec);
        for (int i = 0; i < count; ++i) {
            const auto step = static_cast<std::uint64_t>(first + i);
            const auto& row = rows[static_cast<std::size_t>(i)];
            QCOMPARE(row.step, step);
            // The one-step sweep, run on its own at this row.
            const auto one =
                app::runSeedSweep(app::stepSpec(spec.value(), step), m_dir.path(), QStringLiteral("one"), 1, {});
            QVERIFY(one.status.finished());
            const auto& s = one.summary;
            QCOMPARE(row.outcomes, std::uint64_t(s.tokens.size()));
            QCOMPARE(row.pooledBins, s.pooledBins);
            QCOMPARE(row.ksP.has_value(), s.tested());
            if (row.ksP)
                QCOMPARE(*row.ksP, s.chiSquareUniformity.pValue);
            QCOMPARE(row.pooledP.has_value(), s.tested() && s.pooledChiSquare.tested);
            if (row.pooledP)
                QCOMPARE(*row.pooledP, s.pooledChiSquare.pValue);
            std::uint64_t drawn = 0;
            for (const auto& t : s.tokens)
                drawn += t.pooled > 0 ? 1 : 0;
            QCOMPARE(row.distinctDrawn, drawn);
            QVERIFY(row.entropyBits >= 0.0 && row.entropyBits <= std::log2(double(test::kSmallNpyVocabulary)) + 1e-12);
            // A step without a valid test says why, in the same words as the one-step sweep.
            QCOMPARE(row.noTest, QString::fromStdString(s.noTest));
        }
        if (chain == QStringLiteral("top-k=1"))
            QVERIFY(!rows.front().ksP && !rows.front().pooledP && !rows.front().noTest.isEmpty());
    }

    void sameCsvForAnyThreadCount()
    {
        const QJsonObject file = sweepFile(QStringLiteral("all"), QStringLiteral("temperature=0.8"), 300);
        const auto one = run(file, 1);
        const auto four = run(file, 4);
        QVERIFY(one.status.finished() && four.status.finished());
        QCOMPARE(app::resultTableCsv(four.provenance, four.tables.front()),
                 app::resultTableCsv(one.provenance, one.tables.front()));
        QVERIFY(app::resultTableCsv(one.provenance, one.tables.front()).contains(QLatin1String(" steps=all")));
    }

    void badRangeNamesTheKey_data()
    {
        QTest::addColumn<QJsonValue>("steps");
        QTest::addColumn<bool>("withRow");
        QTest::addColumn<QString>("message");
        QTest::newRow("from outside") << QJsonValue(QJsonObject{{QStringLiteral("from"), 9}}) << false
                                      << QStringLiteral(
                                             "f.json: distribution: steps: from 9 is outside the array's 4 steps");
        QTest::newRow("to before from") << QJsonValue(
                                               QJsonObject{{QStringLiteral("from"), 3}, {QStringLiteral("to"), 1}})
                                        << false << QStringLiteral("f.json: distribution.steps.to:");
        QTest::newRow("not all") << QJsonValue(QStringLiteral("every")) << false
                                 << QStringLiteral("f.json: distribution.steps:");
        QTest::newRow("with row") << QJsonValue(QStringLiteral("all")) << true
                                  << QStringLiteral("f.json: distribution.steps: cannot be given with \"row\"");
    }
    void badRangeNamesTheKey()
    {
        QFETCH(QJsonValue, steps);
        QFETCH(bool, withRow);
        QFETCH(QString, message);
        QJsonObject file = sweepFile(steps, QStringLiteral("temperature=1"), 10);
        if (withRow) {
            QJsonObject d = file.value(QStringLiteral("distribution")).toObject();
            d.insert(QStringLiteral("row"), 1);
            file.insert(QStringLiteral("distribution"), d);
        }
        const auto result = run(file, 1);
        QVERIFY(!result.status.finished());
        QVERIFY2(result.status.message.startsWith(message), qPrintable(result.status.message));
    }
};

QTEST_GUILESS_MAIN(TestStepSweep)
#include "tst_step_sweep.moc"
