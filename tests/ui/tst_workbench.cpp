// The workbench main() shows, built the way main() builds it: the pages in order, and the
// hand-offs between them through the page interface. The Explorer's "Junk risk of these
// logits" and "Seed sweep of these logits" give its table to the target page, which shows it
// and becomes current; a hand-off to a page that takes none, or to no page, changes nothing.
#include "support/example_files.h"
#include "ui/forms/junk_risk_form.h"
#include "ui/forms/seed_sweep_form.h"
#include "ui/models/logits_table_model.h"
#include "ui/pages/batch_invariance_page.h"
#include "ui/pages/explorer_page.h"
#include "ui/pages/junk_risk_page.h"
#include "ui/pages/loop_page.h"
#include "ui/pages/seed_sweep_page.h"
#include "ui/pages/summation_page.h"
#include "ui/window/main_window.h"
#include "ui/window/workbench.h"

#include <QComboBox>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace logitlab;
using namespace logitlab::ui;

namespace {

// What a page would run on, as the experiment file's distribution spec.
app::DistributionSpec shownDistribution(const Workbench& pages, const QString& target)
{
    if (target == QLatin1String("junk-risk")) {
        const auto spec = pages.junkRisk->junkForm()->spec();
        return spec ? spec->distribution : app::DistributionSpec{};
    }
    const auto spec = pages.seedSweep->sweepForm()->spec();
    return spec ? spec->distribution : app::DistributionSpec{};
}

}  // namespace

class TestWorkbench : public QObject {
    Q_OBJECT
private slots:
    // File > Open finds the page by the file's kind, whatever page is showing.
    void openGoesToTheFilesPage_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("page");
        QTest::newRow("junk risk") << QStringLiteral("junk-risk-lesson.json") << QStringLiteral("junk-risk");
        QTest::newRow("seed sweep") << QStringLiteral("seed-sweep-lesson.json") << QStringLiteral("seed-sweep");
        QTest::newRow("explorer state") << QStringLiteral("explorer-llama-xtc.json") << QStringLiteral("explorer");
        QTest::newRow("logits file") << QStringLiteral("lesson-logits.csv") << QStringLiteral("explorer");
    }
    void openGoesToTheFilesPage()
    {
        QFETCH(QString, file);
        QFETCH(QString, page);
        MainWindow window;
        const Workbench workbench = buildWorkbench(window);
        // Start on a page that is not the file's.
        window.showPage(page == QLatin1String("junk-risk") ? static_cast<Page*>(workbench.seedSweep)
                                                           : workbench.junkRisk);
        QCOMPARE(window.openExperimentFrom(test::examplePath(file)), QString());
        QCOMPARE(window.currentPage()->id(), page);
        QTRY_VERIFY_WITH_TIMEOUT(!workbench.explorer->loading(), 30000);
    }

    void pagesInOrder()
    {
        MainWindow window;
        const Workbench pages = buildWorkbench(window);
        QCOMPARE(window.pageList()->count(), 6);
        QCOMPARE(window.currentPage(), pages.explorer);
        QCOMPARE(window.page(QStringLiteral("explorer")), pages.explorer);
        QCOMPARE(window.page(QStringLiteral("junk-risk")), pages.junkRisk);
        QCOMPARE(window.page(QStringLiteral("seed-sweep")), pages.seedSweep);
        QCOMPARE(window.page(QStringLiteral("loop")), pages.loop);
        QCOMPARE(window.page(QStringLiteral("summation-order")), pages.summation);
        QCOMPARE(window.page(QStringLiteral("batch-invariance")), pages.batchInvariance);
        QCOMPARE(window.page(QStringLiteral("no-such-page")), nullptr);
    }

    void explorerHandsItsTableOver_data()
    {
        QTest::addColumn<QString>("button");
        QTest::addColumn<QString>("target");
        QTest::newRow("junk risk") << "junkRiskButton"
                                   << "junk-risk";
        QTest::newRow("seed sweep") << "seedSweepButton"
                                    << "seed-sweep";
    }
    void explorerHandsItsTableOver()
    {
        QFETCH(QString, button);
        QFETCH(QString, target);
        MainWindow window;
        const Workbench pages = buildWorkbench(window);
        QSignalSpy finished(pages.explorer, &ExplorerPage::loadFinished);
        pages.explorer->pasteText(QStringLiteral("alpha\t2.5\nbeta\t1\ngamma\t-0.5\n"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30'000);
        QVERIFY(shownDistribution(pages, target).values != QList<double>({2.5, 1.0, -0.5}));

        pages.explorer->findChild<QPushButton*>(button)->click();
        QCOMPARE(window.currentPage(), window.page(target));
        QCOMPARE(window.pageList()->currentItem()->text(), window.page(target)->title());
        const app::DistributionSpec shown = shownDistribution(pages, target);
        QCOMPARE(shown.kind, app::DistributionSpec::Kind::Logits);
        QCOMPARE(shown.values, QList<double>({2.5, 1.0, -0.5}));
        QCOMPARE(shown.tokens, QStringList({QStringLiteral("alpha"), QStringLiteral("beta"), QStringLiteral("gamma")}));
        if (target == QLatin1String("seed-sweep")) {
            QCOMPARE(pages.seedSweep->findChild<QComboBox*>(QStringLiteral("distributionSource"))->currentIndex(),
                     int(SeedSweepForm::ExplorerLogits));
            QCOMPARE(pages.seedSweep->sweepForm()->modeBox()->currentIndex(), int(SeedSweepForm::DrawsMode));
        }
    }

    void aHandOffNobodyTakesChangesNothing()
    {
        MainWindow window;
        const Workbench pages = buildWorkbench(window);
        window.showPage(pages.junkRisk);
        const engine::Distribution d = pages.explorer->model()->distribution();
        QVERIFY(!window.handOff(QStringLiteral("loop"), d));  // the Loop page takes no hand-offs
        QVERIFY(!window.handOff(QStringLiteral("no-such-page"), d));
        QCOMPARE(window.currentPage(), pages.junkRisk);
        QVERIFY(window.handOff(QStringLiteral("seed-sweep"), d));
        QCOMPARE(window.currentPage(), pages.seedSweep);
        // The Explorer takes one (the Loop page's step) as an undo step.
        QVERIFY(window.handOff(QStringLiteral("explorer"), d));
        QCOMPARE(window.currentPage(), pages.explorer);
    }
};

QTEST_MAIN(TestWorkbench)
#include "tst_workbench.moc"
