// The Loop page (ui/loop_page.h) driven as a user would: Step and Rewind, Play to N at the
// latency model's speed, Branch here at the shown step (forced or reseeded) diverging exactly
// there, Run N on a worker, bad controls shown inline, the latency arithmetic stated, and the
// shown step's distribution handed to the Explorer.
#include "explorer_page.h"
#include "loop_page.h"
#include "main_window.h"
#include "workbench.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTableView>
#include <QTest>

using namespace logitlab;
using namespace logitlab::ui;

namespace {

app::LoopSpec spec(const QString& chain, qint64 steps)
{
    app::LoopSpec s;
    s.prompt = QStringLiteral("The sampler");
    s.chain = chain;
    s.steps = steps;
    return s;
}

}  // namespace

class TestLoopPage : public QObject {
    Q_OBJECT

private slots:
    void stepAndRewind()
    {
        LoopPage page;
        page.setSpec(spec(QStringLiteral("top-k=40,temperature=0.8"), 50));
        for (int i = 0; i < 6; ++i)
            page.stepOnce();
        QCOMPARE(page.mainLoop()->steps().size(), std::size_t{6});
        const auto tokens = page.mainLoop()->tokens();
        page.rewindOne();
        page.rewindOne();
        QCOMPARE(page.mainLoop()->steps().size(), std::size_t{4});
        page.stepOnce();
        page.stepOnce();
        QCOMPARE(page.mainLoop()->tokens(), tokens);  // the RNG and chain were rewound too
        QCOMPARE(page.shownStepBox()->value(), 5);
        QVERIFY(page.resultTable()->rows == 6);
    }

    void branchDivergesAtTheShownStep_data()
    {
        QTest::addColumn<int>("mode");  // 1 force a token, 2 reseed
        QTest::addColumn<int>("at");
        QTest::newRow("force at 0") << 1 << 0;
        QTest::newRow("force at 4") << 1 << 4;
        QTest::newRow("reseed at 3") << 2 << 3;
    }
    void branchDivergesAtTheShownStep()
    {
        QFETCH(int, mode);
        QFETCH(int, at);
        LoopPage page;
        page.setSpec(spec(QStringLiteral("top-k=40,temperature=1"), 50));
        for (int i = 0; i < 12; ++i)
            page.stepOnce();
        page.shownStepBox()->setValue(at);
        page.branchModeBox()->setCurrentIndex(mode);
        // A token the main run did not choose there.
        const auto& step = page.mainLoop()->steps()[static_cast<std::size_t>(at)];
        const auto other = step.top[0].id == step.token ? step.top[1].id : step.top[0].id;
        page.branchTokenField()->setText(QString::fromStdString(page.mainLoop()->model().tokens()[static_cast<std::size_t>(other)]));
        page.branchHere();
        QTRY_VERIFY(!page.isBranching());
        QVERIFY(page.branchLoop());
        QCOMPARE(page.branchLoop()->steps().size(), std::size_t{12});
        const auto divergence = engine::firstDivergence(page.mainLoop()->steps(), page.branchLoop()->steps());
        if (mode == 1) {
            QVERIFY(divergence);
            QCOMPARE(divergence->step, static_cast<std::size_t>(at));
            QVERIFY2(page.divergenceLabel()->text().startsWith(QStringLiteral("First divergent step: %1.").arg(at)),
                     qPrintable(page.divergenceLabel()->text()));
        } else if (divergence) {
            QVERIFY(divergence->step >= static_cast<std::size_t>(at));
        }
        QCOMPARE(page.resultTable()->rows, std::size_t{24});
    }

    void unknownBranchTokenIsShownInline()
    {
        LoopPage page;
        page.setSpec(spec(QString(), 20));
        page.stepOnce();
        page.branchModeBox()->setCurrentIndex(1);
        page.branchTokenField()->setText(QStringLiteral("qwertyuiop"));
        page.branchHere();
        QVERIFY(!page.branchLoop());
        QVERIFY2(page.errorLabel()->text().contains(QStringLiteral("'qwertyuiop' is not a token")),
                 qPrintable(page.errorLabel()->text()));
    }

    void emptyPromptIsShownInline()
    {
        LoopPage page;
        app::LoopSpec s = spec(QString(), 20);
        page.setSpec(s);
        page.promptField()->setText(QStringLiteral("  "));
        page.stepOnce();
        QVERIFY(!page.mainLoop());
        QVERIFY2(page.errorLabel()->text().contains(QStringLiteral("prompt: must hold at least one word")),
                 qPrintable(page.errorLabel()->text()));
    }

    // Play steps to N at the latency model's speed (1 ms per pass here) without blocking.
    void playStopsAtN()
    {
        LoopPage page;
        page.setSpec(spec(QString(), 20));
        page.passBox()->setValue(1.0);
        page.play();
        QVERIFY(page.isPlaying());
        QTRY_VERIFY(!page.isPlaying());
        QCOMPARE(page.mainLoop()->steps().size(), std::size_t{20});
        QVERIFY2(page.latencyLabel()->text().contains(QStringLiteral("20 passes × 1 ms = <b>0.02 s</b>")),
                 qPrintable(page.latencyLabel()->text()));
    }

    void latencyStatesTheLessonsArithmetic()
    {
        LoopPage page;
        page.setSpec(spec(QString(), 400));
        page.passBox()->setValue(25.0);
        page.prefillBox()->setValue(0.0);
        QVERIFY2(page.latencyLabel()->text().contains(QStringLiteral("400 passes × 25 ms = <b>10.00 s</b>")),
                 qPrintable(page.latencyLabel()->text()));
    }

    // Run N: the file's run on a worker; the page can step on from its end.
    void runNThenStepOn()
    {
        LoopPage page;
        page.setSpec(spec(QStringLiteral("penalties:last-n=64:repeat=1.3,mirostat-v2:tau=3:eta=0.1"), 25));
        page.run();
        QTRY_VERIFY(!page.isRunning());
        QVERIFY(page.mainLoop());
        QCOMPARE(page.mainLoop()->steps().size(), std::size_t{25});
        page.stepOnce();
        QCOMPARE(page.mainLoop()->steps().size(), std::size_t{26});
        QVERIFY(page.mainLoop()->steps().back().mu != 6.0);  // mirostat's mu carried over
    }

    void stepGoesToTheExplorer()
    {
        MainWindow window;
        const Workbench pages = buildWorkbench(window);
        pages.loop->setSpec(spec(QString(), 20));
        pages.loop->stepOnce();
        pages.loop->stepOnce();
        pages.loop->sendTo(QStringLiteral("explorer"));
        QCOMPARE(window.currentPage(), pages.explorer);
        QCOMPARE(static_cast<std::size_t>(pages.explorer->tableView()->model()->rowCount()),
                 pages.loop->mainLoop()->model().vocabSize());
    }
};

QTEST_MAIN(TestLoopPage)
#include "tst_loop_page.moc"
