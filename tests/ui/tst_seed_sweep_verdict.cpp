// The seed sweep in plain words: the sentence beside the statistics follows the same statistics
// as the verdict (a correct sampler "looks right", a biased claim "looks wrong", too few draws
// "not enough draws"); the page never opens blank (its first show runs the lesson's sweep), each
// statistic's meaning is its tooltip, and a statistic that tests nothing is not shown as a number.
#include "app/kinds/seed_sweep_job.h"
#include "engine/experiments/seed_sweep.h"
#include "engine/experiments/sweep_source.h"
#include "engine/models/synthetic_logits.h"
#include "engine/sampler/candidates.h"
#include "engine/sampler/lesson_examples.h"
#include "support/misreporting_source.h"
#include "ui/forms/seed_sweep_form.h"
#include "ui/models/result_table_model.h"
#include "ui/pages/seed_sweep_page.h"

#include <QLabel>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

#include <memory>
#include <numeric>

using namespace logitlab;

namespace {

engine::SeedSweepSummary sweep(std::shared_ptr<const engine::SweepSource> source, std::uint64_t seeds,
                               std::uint64_t draws)
{
    engine::SeedSweepParameters p;
    p.source = std::move(source);
    p.seeds.resize(seeds);
    std::iota(p.seeds.begin(), p.seeds.end(), 1000);
    p.drawsPerSeed = draws;
    auto e = engine::SeedSweepExperiment::prepare(p);
    if (!e)
        qFatal("%s", e.error().c_str());
    auto results = e->emptyResults();
    for (std::size_t k = 0; k < e->itemCount(); ++k)
        e->runItem(k, results);
    return e->summarise(results);
}

engine::CandidateList exercise()
{
    return engine::candidates(engine::lessonExercise().logits, {1.0, std::nullopt, 0.9});
}

}  // namespace

class TestSeedSweepVerdict : public QObject {
    Q_OBJECT
private slots:
    void plainWordsFollowTheStatistics_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<qulonglong>("draws");
        QTest::addColumn<QString>("words");
        QTest::addColumn<bool>("consistent");
        QTest::newRow("correct sampler") << "correct" << 2000ull << "the sampler looks right" << true;
        QTest::newRow("claim biased by 2 points") << "biased" << 2000ull << "looks wrong" << false;
        QTest::newRow("2,000 tokens, 3 draws a seed")
            << "wide" << 3ull << "Not enough draws for the test to say anything" << false;
        QTest::newRow("one token") << "one" << 100ull << "Nothing to test" << false;
    }
    void plainWordsFollowTheStatistics()
    {
        QFETCH(QString, source);
        QFETCH(qulonglong, draws);
        QFETCH(QString, words);
        QFETCH(bool, consistent);
        std::shared_ptr<const engine::SweepSource> s;
        if (source == QLatin1String("correct"))
            s = std::make_shared<engine::CandidateSource>(exercise(), "exercise");
        else if (source == QLatin1String("biased"))
            s = std::make_shared<test::MisreportingSource>(exercise(), 0.02);
        else if (source == QLatin1String("wide"))
            s = std::make_shared<engine::CandidateSource>(
                engine::candidates(engine::zipfLogits(2000, 0.0), {1.0, {}, {}}), "flat 2000");
        else
            s = std::make_shared<engine::CandidateSource>(engine::CandidateList(1, engine::Candidate{0, 1.0, 1.0}),
                                                          "one");
        const auto summary = sweep(s, 200, draws);
        QCOMPARE(app::seedSweepConsistent(summary), consistent);
        const QString text = app::seedSweepPlainWords(summary);
        QVERIFY2(text.contains(words), qPrintable(text));
    }

    void pageOpensWithResultsAndExplainsThem()
    {
        ui::SeedSweepPage page;
        QSignalSpy ended(&page, &ui::SeedSweepPage::runEnded);
        page.show();  // the first show runs the sweep the controls describe (the lesson's exercise)
        QVERIFY(page.isRunning() || !ended.isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 1, 120000);
        QCOMPARE(ended.first().first().toBool(), true);
        QVERIFY(page.drawsRun());
        QVERIFY(page.drawsRun()->outcome.summary.tokens.size() > 0);
        QVERIFY2(page.plainWordsLabel()->text().contains(QStringLiteral("the sampler looks right")),
                 qPrintable(page.plainWordsLabel()->text()));
        for (const QString& key :
             {QStringLiteral("ks"), QStringLiteral("g-ks"), QStringLiteral("pooled"), QStringLiteral("bins")}) {
            QLabel* value = page.statisticLabel(key);
            QVERIFY(value);
            QVERIFY2(!value->toolTip().isEmpty(), qPrintable(key));
            QVERIFY2(!value->text().startsWith(QStringLiteral("not valid")), qPrintable(value->text()));
        }
        QVERIFY(page.statisticLabel(QStringLiteral("ks"))->text().startsWith(QStringLiteral("D = ")));
        // Shown again: no second run.
        page.hide();
        page.show();
        QTest::qWait(50);
        QCOMPARE(ended.size(), 1);

        // Too few draws for the pooled bins: no statistic is shown as a number.
        page.sweepForm()->drawsBox()->setValue(1);
        page.sweepForm()->seedCountBox()->setValue(20);
        QSignalSpy again(&page, &ui::SeedSweepPage::runEnded);
        page.run();
        QTRY_COMPARE_WITH_TIMEOUT(again.size(), 1, 60000);
        QVERIFY2(page.plainWordsLabel()->text().contains(QStringLiteral("Not enough draws")),
                 qPrintable(page.plainWordsLabel()->text()));
        for (const QString& key : {QStringLiteral("ks"), QStringLiteral("g-ks"), QStringLiteral("pooled")})
            QVERIFY2(page.statisticLabel(key)->text().startsWith(QStringLiteral("not valid")),
                     qPrintable(page.statisticLabel(key)->text()));
    }
};

QTEST_MAIN(TestSeedSweepVerdict)
#include "tst_seed_sweep_verdict.moc"
