// The Loop page (ui/pages/loop_page.h) driven as a user would: Step and Rewind, Play to N at the
// latency model's speed, Branch here at the shown step (forced or reseeded) diverging exactly
// there, Run N on a worker, bad controls shown inline, the latency arithmetic stated, and the
// shown step's distribution handed to the Explorer. A replay of an imported file (written here
// as safetensors): opened on a worker, the model's token shown against the pick, a bad file
// named next to the source inputs, and a greedy near tie handed to the Batch invariance page. A
// GGUF model (the test writer's tiny llama) opened on a worker and stepped live.
#include "charts/loop_charts.h"
#include "charts/token_display.h"
#include "support/array_fixtures.h"
#include "support/tiny_gguf_model.h"
#include "ui/forms/batch_invariance_form.h"
#include "ui/models/logits_table_model.h"
#include "ui/pages/batch_invariance_page.h"
#include "ui/pages/explorer_page.h"
#include "ui/pages/loop_page.h"
#include "ui/pages/loop_token_strip.h"
#include "ui/window/main_window.h"
#include "ui/window/workbench.h"

#include <QAction>
#include <QChart>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QHelpEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <bit>
#include <cmath>

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

QByteArray littleEndian(std::uint64_t bits, int size)
{
    QByteArray out(size, '\0');
    for (int i = 0; i < size; ++i)
        out[i] = static_cast<char>((bits >> (8 * i)) & 0xFF);
    return out;
}

// A safetensors dump: logits [4, 5] float64 whose step 2 is a near tie (token 1 leads token 3 by
// 0.01), and sequences [6] int64 (prompt 0, 1; the model's reply 1, 2, 3, 4) unless
// `sequencesDtype` is empty; "F64" makes a malformed one.
QString writeDump(const QTemporaryDir& dir, const QByteArray& sequencesDtype = "I64")
{
    QByteArray logits;
    for (int step = 0; step < 4; ++step)
        for (int token = 0; token < 5; ++token) {
            double value = token == (step + 1) % 5 ? 2.0 : 0.0;
            if (step == 2 && token == 1)
                value = 2.01;
            if (step == 2 && token == 3)
                value = 2.0;
            logits += littleEndian(std::bit_cast<std::uint64_t>(value), 8);
        }
    QByteArray header = R"({"logits":{"dtype":"F64","shape":[4,5],"data_offsets":[0,160]})";
    QByteArray data = logits;
    if (!sequencesDtype.isEmpty()) {
        header += R"(,"sequences":{"dtype":")" + sequencesDtype + R"(","shape":[6],"data_offsets":[160,208]})";
        for (qint64 id : {0, 1, 1, 2, 3, 4})
            data += sequencesDtype == "F64" ? littleEndian(std::bit_cast<std::uint64_t>(double(id)), 8)
                                            : littleEndian(static_cast<std::uint64_t>(id), 8);
    }
    header += "}";
    return test::writeFixture(dir, QStringLiteral("dump.safetensors"), test::safetensorsFile(header, data));
}

app::LoopSpec replay(const QString& path, const QString& chain)
{
    app::LoopSpec s;
    s.chain = chain;
    s.steps = 0;
    s.replay = app::LoopReplaySpec{path, QStringLiteral("logits"), 0, std::nullopt, QString()};
    return s;
}

}  // namespace

class TestLoopPage : public QObject {
    Q_OBJECT

private slots:
    // The last step's bars: a y range of whole ticks above the tallest bar (not 0.22, 0.45, ...).
    void stepChartTicksAreRound_data()
    {
        QTest::addColumn<double>("tallest");
        QTest::addColumn<double>("high");
        QTest::addColumn<int>("ticks");
        QTest::newRow("0.81") << 0.81 << 1.0 << 6;
        QTest::newRow("0.4") << 0.4 << 0.5 << 6;
        QTest::newRow("0.166") << 0.166 << 0.2 << 5;
        QTest::newRow("0.03") << 0.03 << 0.05 << 6;
    }
    void stepChartTicksAreRound()
    {
        QFETCH(double, tallest);
        QFETCH(double, high);
        QFETCH(int, ticks);
        engine::LoopStep step;
        step.top = {{0, tallest, tallest / 2}, {1, tallest / 3, tallest / 4}};
        ui::LoopStepChart chart;
        chart.setStep(step, {"a", "b"});
        QValueAxis* y = nullptr;
        for (QAbstractAxis* axis : chart.chart()->axes(Qt::Vertical))
            y = qobject_cast<QValueAxis*>(axis);
        QVERIFY(y);
        QCOMPARE(y->min(), 0.0);
        QVERIFY(std::fabs(y->max() - high) < 1e-12);
        QCOMPARE(y->tickCount(), ticks);
    }

    // "p of each chosen token": each step's p up to 100 steps; past that a trailing mean (about
    // 50 windows a run), so 400 steps alternating 0.1 and 0.9 read as a flat 0.5, not a sawtooth.
    void longRunsShowAWindowedMean_data()
    {
        QTest::addColumn<int>("steps");
        QTest::addColumn<int>("window");
        QTest::newRow("40 steps, raw") << 40 << 1;
        QTest::newRow("100 steps, raw") << 100 << 1;
        QTest::newRow("101 steps") << 101 << 5;
        QTest::newRow("400 steps") << 400 << 8;
        QTest::newRow("4096 steps") << 4096 << 82;
    }
    void longRunsShowAWindowedMean()
    {
        QFETCH(int, steps);
        QFETCH(int, window);
        QCOMPARE(ui::loopMeanWindow(static_cast<std::size_t>(steps)), static_cast<std::size_t>(window));
        std::vector<engine::LoopStep> run(static_cast<std::size_t>(steps));
        for (std::size_t i = 0; i < run.size(); ++i) {
            run[i].index = i;
            run[i].probability = i % 2 == 0 ? 0.1 : 0.9;
        }
        const QList<QPointF> points = ui::loopStepPoints(run);
        QCOMPARE(points.size(), static_cast<qsizetype>(steps));
        for (qsizetype i = 0; i < points.size(); ++i) {
            QCOMPARE(points[i].x(), static_cast<double>(i));
            if (window == 1) {
                QCOMPARE(points[i].y(), run[static_cast<std::size_t>(i)].probability);
            } else if (i >= window) {  // a full window: within one step's share of 0.5
                QVERIFY2(std::fabs(points[i].y() - 0.5) <= 0.4 / window + 1e-12, qPrintable(QString::number(i)));
            }
        }
        ui::LoopStepsChart chart;
        chart.setTracks({{QStringLiteral("main"), &run}}, std::nullopt);
        const auto* line = qobject_cast<QLineSeries*>(chart.chart()->series().front());
        QVERIFY(line);
        QCOMPARE(line->name(),
                 window == 1 ? QStringLiteral("main") : QStringLiteral("main (mean of the last %1 steps)").arg(window));
    }

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
        page.branchTokenField()->setText(
            QString::fromStdString(page.mainLoop()->model().tokens()[static_cast<std::size_t>(other)]));
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

    // The step goes to the Explorer with the run's chain and the tokens before it: the Explorer
    // cuts it as the run did (same survivors, same p). A chain the Explorer cannot hold leaves
    // the Explorer's own and says why.
    void stepGoesToTheExplorer_data()
    {
        QTest::addColumn<QString>("chain");
        QTest::addColumn<bool>("carried");
        QTest::newRow("library defaults") << QString() << true;
        QTest::newRow("penalties see the history")
            << QStringLiteral("penalties:last-n=64:repeat=1.5,top-k=12,temperature=0.7") << true;
        QTest::newRow("reordered") << QStringLiteral("temperature=1.3,min-p=0.08") << true;
        QTest::newRow("mirostat") << QStringLiteral("temperature=0.9,mirostat-v2:tau=3:eta=0.1") << true;
        QTest::newRow("a stage twice") << QStringLiteral("top-k=40,top-k=8") << false;
    }
    void stepGoesToTheExplorer()
    {
        QFETCH(QString, chain);
        QFETCH(bool, carried);
        MainWindow window;
        const Workbench pages = buildWorkbench(window);
        const engine::ExplorerChain before = pages.explorer->model()->chain();
        pages.loop->setSpec(spec(chain, 20));
        for (int i = 0; i < 6; ++i)
            pages.loop->stepOnce();
        pages.loop->shownStepBox()->setValue(4);
        QSignalSpy said(pages.explorer, &Page::statusMessage);
        pages.loop->sendTo(QStringLiteral("explorer"));
        QCOMPARE(window.currentPage(), pages.explorer);
        QCOMPARE(static_cast<std::size_t>(pages.explorer->tableView()->model()->rowCount()),
                 pages.loop->mainLoop()->model().vocabSize());
        const engine::ExplorerChain& got = pages.explorer->model()->chain();
        QStringList notes;
        for (const auto& args : said)
            notes << args.at(0).toString();
        if (!carried) {
            QVERIFY(got == before);
            QVERIFY2(notes.join(QLatin1Char('\n')).contains(QStringLiteral("keeps its own chain: top-k: listed twice")),
                     qPrintable(notes.join(QLatin1Char('\n'))));
            return;
        }
        const auto& loop = *pages.loop->mainLoop();
        QCOMPARE(got.semantics, loop.chain().semantics());
        std::vector<std::int32_t> context = loop.prompt();
        const auto history = loop.history();
        context.insert(context.end(), history.begin(), history.begin() + 4);
        QVERIFY(got.context == context);
        const auto& step = loop.steps()[4];
        const auto& survivors = pages.explorer->model()->analysis().survivors;
        // Mirostat's mu is the run's own at that step; the Explorer starts it afresh and says so.
        if (chain.contains(QStringLiteral("mirostat"))) {
            QVERIFY2(notes.join(QLatin1Char('\n')).contains(QStringLiteral("Mirostat starts afresh")),
                     qPrintable(notes.join(QLatin1Char('\n'))));
            return;
        }
        QCOMPARE(survivors.size(), step.survivors);
        for (const auto& candidate : step.top)
            if (candidate.finalP > 0.0) {
                const auto found = std::find_if(survivors.begin(), survivors.end(),
                                                [&](const auto& s) { return s.id == candidate.id; });
                QVERIFY(found != survivors.end());
                QVERIFY(std::abs(found->p - candidate.finalP) < 1e-12);
            }
    }

    // The per-token strip: a chip per step, left to right, each describing its step's pick,
    // candidates and cut; the shown step framed; a rewind takes the chip away.
    void tokenStripShowsEveryStep()
    {
        LoopPage page;
        page.setSpec(spec(QStringLiteral("top-k=40,temperature=0.8"), 50));
        for (int i = 0; i < 6; ++i)
            page.stepOnce();
        const LoopTokenStrip* strip = page.tokenStrip();
        QCOMPARE(strip->stepCount(), std::size_t{6});
        QCOMPARE(strip->stepCount(LoopTokenStrip::Branch), std::size_t{0});
        QCOMPARE(strip->currentStep(), std::optional<std::size_t>(5));
        const auto& loop = *page.mainLoop();
        for (std::size_t i = 0; i < 6; ++i) {
            const auto& step = loop.steps()[i];
            if (i > 0)
                QVERIFY(strip->chipRect(i).left() > strip->chipRect(i - 1).right());
            const QString text = strip->describe(i);
            const QString pick = shownLoopToken(loop.vocabulary()[static_cast<std::size_t>(step.token)]);
            QVERIFY2(text.contains(QStringLiteral("step %1</b>: '%2'").arg(i).arg(pick.toHtmlEscaped())),
                     qPrintable(text));
            QVERIFY2(text.contains(QStringLiteral("%1 survivors").arg(step.survivors)), qPrintable(text));
            // Every listed candidate with its model p; the pick marked once.
            for (std::size_t c = 0; c < std::min<std::size_t>(step.top.size(), LoopTokenStrip::kMenuCandidates); ++c)
                QVERIFY2(text.contains(QString::number(step.top[c].modelP, 'g', 3)), qPrintable(text));
            QCOMPARE(text.count(QStringLiteral("◀ pick")), step.rank <= LoopTokenStrip::kMenuCandidates ? 1 : 0);
        }
        page.rewindOne();
        QCOMPARE(strip->stepCount(), std::size_t{5});
        QVERIFY(strip->chipRect(5).isEmpty());
    }

    // A click on a chip shows its step (the chart follows), the arrow keys move along, and a
    // hover shows the step's description.
    void clickingATokenShowsItsStep()
    {
        LoopPage page;
        page.resize(1280, 800);
        page.setSpec(spec(QStringLiteral("top-k=40,temperature=0.8"), 50));
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        // The first show takes up to 40 steps within a time slice: fewer on a slow build (ASan),
        // where the chips then did not reach the middle of the view. Step on to 41 either way.
        QVERIFY(page.mainLoop());
        while (page.mainLoop()->steps().size() < 41)
            page.stepOnce();
        LoopTokenStrip* strip = page.tokenStrip();
        const std::size_t last = page.mainLoop()->steps().size() - 1;
        QCOMPARE(last, std::size_t{40});
        // The strip follows the newest step: its chip is in view; a click on the one mid-way.
        QVERIFY(strip->viewport()->rect().contains(strip->chipRect(last)));
        const auto hit = strip->hitAt(QPoint(strip->viewport()->width() / 2, strip->chipRect(last).center().y()));
        QVERIFY(hit && hit->step < last);
        QTest::mouseClick(strip->viewport(), Qt::LeftButton, {}, strip->chipRect(hit->step).center());
        QCOMPARE(page.shownStepBox()->value(), static_cast<int>(hit->step));
        QCOMPARE(strip->currentStep(), std::optional<std::size_t>(hit->step));
        QVERIFY2(page.chart()->title().startsWith(QStringLiteral("Step %1:").arg(hit->step)),
                 qPrintable(page.chart()->title()));
        strip->setFocus();
        QTest::keyClick(strip, Qt::Key_Left);
        QCOMPARE(page.shownStepBox()->value(), static_cast<int>(hit->step) - 1);
        QTest::keyClick(strip, Qt::Key_Home);
        QCOMPARE(page.shownStepBox()->value(), 0);
        QVERIFY(strip->viewport()->rect().contains(strip->chipRect(0)));  // scrolled back to it
        QTest::keyClick(strip, Qt::Key_End);
        QCOMPARE(page.shownStepBox()->value(), static_cast<int>(last));
        const QPoint at = strip->chipRect(last - 1).center();
        QHelpEvent help(QEvent::ToolTip, at, strip->viewport()->mapToGlobal(at));
        QCoreApplication::sendEvent(strip->viewport(), &help);
        QTRY_COMPARE(QToolTip::text(), strip->describe(last - 1));
        QToolTip::hideText();
    }

    // The branch menu of a chip: forcing a candidate branches there with that token (the field
    // then names it, so Save keeps the branch); reseeding branches with the branch seed.
    void tokenStripBranchesFromAStep_data()
    {
        QTest::addColumn<int>("at");
        QTest::addColumn<bool>("force");
        QTest::newRow("force at 0") << 0 << true;
        QTest::newRow("force at 3") << 3 << true;
        QTest::newRow("reseed at 2") << 2 << false;
    }
    void tokenStripBranchesFromAStep()
    {
        QFETCH(int, at);
        QFETCH(bool, force);
        LoopPage page;
        page.setSpec(spec(QStringLiteral("top-k=40,temperature=1"), 50));
        for (int i = 0; i < 8; ++i)
            page.stepOnce();
        const auto step = page.mainLoop()->steps()[static_cast<std::size_t>(at)];
        std::unique_ptr<QMenu> menu(page.tokenStrip()->branchMenu(static_cast<std::size_t>(at), nullptr));
        QList<QAction*> actions;
        for (QAction* a : menu->actions())
            if (!a->isSeparator())
                actions << a;
        QVERIFY(actions.size() >= 2);
        QCOMPARE(actions.back()->text(), QStringLiteral("Reseed the draws here"));
        const auto other = step.top[0].id == step.token ? step.top[1].id : step.top[0].id;
        const QString otherName =
            QString::fromStdString(page.mainLoop()->vocabulary()[static_cast<std::size_t>(other)]);
        QVERIFY2(actions.front()->text().startsWith(
                     QStringLiteral("Force '%1'").arg(shownLoopToken(otherName.toStdString()))),
                 qPrintable(actions.front()->text()));
        (force ? actions.front() : actions.back())->trigger();
        QTRY_VERIFY(!page.isBranching());
        QVERIFY(page.branchLoop());
        QCOMPARE(page.branchLoop()->steps().size(), std::size_t{8});
        QCOMPARE(page.shownStepBox()->value(), at);
        QCOMPARE(page.tokenStrip()->stepCount(LoopTokenStrip::Branch), std::size_t{8});
        if (force) {
            const auto& forced = page.branchLoop()->steps()[static_cast<std::size_t>(at)];
            QCOMPARE(forced.token, other);
            QVERIFY(forced.forced);
            QCOMPARE(page.branchModeBox()->currentIndex(), 1);
            QCOMPARE(page.branchTokenField()->text(),
                     otherName == QStringLiteral("\n") ? QStringLiteral("\\n") : otherName);
            QCOMPARE(engine::firstDivergence(page.mainLoop()->steps(), page.branchLoop()->steps())->step,
                     static_cast<std::size_t>(at));
            QVERIFY(page.tokenStrip()
                        ->describe(static_cast<std::size_t>(at), LoopTokenStrip::Branch)
                        .contains(QStringLiteral("(forced)")));
        } else {
            QCOMPARE(page.branchModeBox()->currentIndex(), 2);
            QVERIFY(!page.branchLoop()->steps()[static_cast<std::size_t>(at)].forced);
        }
    }

    // Step opens the file on a worker, then replays: the model's tokens are the history, the
    // picks are shown against them, and stepping stops at the file's end.
    void replayStepsThroughTheFile()
    {
        QTemporaryDir dir;
        LoopPage page;
        page.setSpec(replay(writeDump(dir), QStringLiteral("temperature=1")));
        QCOMPARE(page.sourceBox()->currentIndex(), 1);
        page.stepOnce();
        QTRY_VERIFY(page.mainLoop() && page.mainLoop()->steps().size() == 1);
        QVERIFY(page.importedSource());
        for (int i = 0; i < 6; ++i)
            page.stepOnce();
        QCOMPARE(page.mainLoop()->steps().size(), std::size_t{4});  // the file's steps, no more
        QCOMPARE(page.mainLoop()->history(), (std::vector<std::int32_t>{1, 2, 3, 4}));
        QCOMPARE(page.mainLoop()->prompt(), (std::vector<std::int32_t>{0, 1}));
        QVERIFY(!page.replayLabel()->isHidden());
        QVERIFY(page.replayLabel()->text().contains(QStringLiteral("Teacher-forced")));
        QVERIFY2(page.replayLabel()->text().contains(QStringLiteral("of 4 steps")),
                 qPrintable(page.replayLabel()->text()));
        QVERIFY(page.resultTable()->columnNames().contains(QStringLiteral("actual_rank")));
        QVERIFY(page.loadProgress()->isHidden());
        // The strip: each chip says whether its pick is the model's token; a replay's history is
        // the model's whatever is picked, so its branch menu only reseeds.
        QCOMPARE(page.tokenStrip()->stepCount(), std::size_t{4});
        for (std::size_t i = 0; i < 4; ++i) {
            const auto& step = page.mainLoop()->steps()[i];
            const QString text = page.tokenStrip()->describe(i);
            QVERIFY2(text.contains(QStringLiteral("Model's token: '&lt;id %1&gt;'").arg(step.actual)),
                     qPrintable(text));
            QVERIFY2(
                text.contains(step.matches() ? QStringLiteral("the pick matches") : QStringLiteral("the pick differs")),
                qPrintable(text));
        }
        std::unique_ptr<QMenu> menu(page.tokenStrip()->branchMenu(1, nullptr));
        QStringList texts;
        for (QAction* a : menu->actions())
            if (!a->isSeparator())
                texts << a->text();
        QCOMPARE(texts, QStringList{QStringLiteral("Reseed the draws here")});
    }

    // Issue 34 item 14: a loop file's relative logits.path starts at the file's folder, as the CLI
    // reads it, not at the process's working folder.
    void relativeReplayPathStartsAtTheFilesFolder()
    {
        QTemporaryDir dir;
        writeDump(dir);
        const QString file = dir.filePath(QStringLiteral("replay.json"));
        QCOMPARE(app::writeLoopFile(file, replay(QStringLiteral("dump.safetensors"), QStringLiteral("temperature=1"))),
                 QString());
        QVERIFY(QDir::current().absolutePath() != dir.path());
        LoopPage page;
        QCOMPARE(page.openFile(file), QString());
        page.stepOnce();
        QTRY_VERIFY(page.mainLoop() && page.mainLoop()->steps().size() == 1);
        QVERIFY(page.importedSource());
    }

    void badFileShownNextToTheSource_data()
    {
        QTest::addColumn<QByteArray>("sequencesDtype");
        QTest::addColumn<bool>("missing");
        QTest::addColumn<QString>("expected");
        QTest::newRow("missing file") << QByteArray("I64") << true << QStringLiteral("nowhere.npz");
        QTest::newRow("float sequences") << QByteArray("F64") << false << QStringLiteral("'sequences'.dtype is 'F64'");
    }
    void badFileShownNextToTheSource()
    {
        QFETCH(QByteArray, sequencesDtype);
        QFETCH(bool, missing);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = missing ? dir.filePath(QStringLiteral("nowhere.npz")) : writeDump(dir, sequencesDtype);
        LoopPage page;
        page.setSpec(replay(path, QStringLiteral("temperature=1")));
        page.stepOnce();
        QTRY_VERIFY(!page.sourceErrorLabel()->isHidden());
        QVERIFY2(page.sourceErrorLabel()->text().contains(expected), qPrintable(page.sourceErrorLabel()->text()));
        QVERIFY(!page.mainLoop());
        // The page keeps working: back to the built-in model, Step steps.
        page.sourceBox()->setCurrentIndex(0);
        page.promptField()->setText(QStringLiteral("The sampler"));
        page.stepOnce();
        QVERIFY(page.mainLoop() && page.mainLoop()->steps().size() == 1);
    }

    // A GGUF model (the test writer's tiny llama): Step opens it on a worker with the progress
    // bar, then steps free running; the model's shape is shown; Run N gives the same tokens as
    // the steps; a branch forces a token by its text; the page refuses to step past the cache.
    void ggufModelStepsLive()
    {
        QTemporaryDir dir;
        QVERIFY(test::tinyLlama(engine::gguf::GgmlType::Q8_0, true, 40)
                    .writeFile(dir.filePath(QStringLiteral("tiny.gguf")).toStdString()));
        const QString file = dir.filePath(QStringLiteral("model.json"));
        app::LoopSpec s;
        s.modelFile = QStringLiteral("tiny.gguf");  // relative: the experiment file's folder
        s.prompt = QStringLiteral("hi!");
        s.chain = QStringLiteral("temperature=1.5");
        s.steps = 8;
        QCOMPARE(app::writeLoopFile(file, s), QString());
        LoopPage page;
        QCOMPARE(page.openFile(file), QString());
        QCOMPARE(page.sourceBox()->currentIndex(), 2);
        QVERIFY(!page.modelFileField()->isHidden());
        page.stepOnce();
        QVERIFY(!page.loadProgress()->isHidden());
        QTRY_VERIFY(page.mainLoop() && page.mainLoop()->steps().size() == 1);
        QVERIFY(page.loadProgress()->isHidden());
        QVERIFY(page.modelSource());
        QVERIFY2(page.modelInfoLabel()->text().startsWith(QStringLiteral("llama, 1 layers")),
                 qPrintable(page.modelInfoLabel()->text()));
        QCOMPARE(page.mainLoop()->prompt(), (std::vector<std::int32_t>{1, 7, 9}));
        for (int i = 0; i < 7; ++i)
            page.stepOnce();
        const std::vector<std::int32_t> stepped = page.mainLoop()->history();
        QCOMPARE(stepped.size(), std::size_t{8});
        QVERIFY(page.replayLabel()->isHidden());  // free running, not a replay
        QVERIFY(page.mainText()->toPlainText().startsWith(QStringLiteral("hi!")));

        page.run();
        QTRY_VERIFY(!page.isRunning());
        QCOMPARE(page.mainLoop()->history(), stepped);

        page.shownStepBox()->setValue(3);
        page.branchModeBox()->setCurrentIndex(1);
        page.branchTokenField()->setText(QStringLiteral("x"));
        page.branchHere();
        QTRY_VERIFY(!page.isBranching());
        QVERIFY(page.branchLoop());
        QCOMPARE(page.branchLoop()->steps()[3].token, std::int32_t{11});
        page.branchTokenField()->setText(QStringLiteral("zebra"));
        page.branchHere();
        QVERIFY(page.errorLabel()->text().contains(QStringLiteral("'zebra' is not a token of the model")));

        // The cache holds 40 positions: 3 for the prompt, room for 37 steps.
        for (int i = 0; i < 40; ++i)
            page.stepOnce();
        QCOMPARE(page.mainLoop()->steps().size(), std::size_t{37});
        QVERIFY2(page.errorLabel()->text().contains(QStringLiteral("context is full")),
                 qPrintable(page.errorLabel()->text()));
    }

    void missingModelShownNextToTheSource()
    {
        LoopPage page;
        app::LoopSpec s;
        s.modelFile = QStringLiteral("/nowhere/model.gguf");
        s.prompt = QStringLiteral("hi");
        page.setSpec(s);
        page.stepOnce();
        QTRY_VERIFY(!page.sourceErrorLabel()->isHidden());
        QVERIFY2(page.sourceErrorLabel()->text().contains(QStringLiteral("/nowhere/model.gguf: no such file")),
                 qPrintable(page.sourceErrorLabel()->text()));
        QVERIFY(!page.mainLoop());
    }

    // Greedy over the file: step 2's near tie is listed, and the action explains it on the Batch
    // invariance page with the gap.
    void greedyNearTieOpensBatchInvariance()
    {
        QTemporaryDir dir;
        MainWindow window;
        const Workbench pages = buildWorkbench(window);
        pages.loop->setSpec(replay(writeDump(dir, QByteArray()), QStringLiteral("temperature=0")));
        pages.loop->run();
        QTRY_VERIFY(!pages.loop->isRunning() && pages.loop->mainLoop());
        QCOMPARE(pages.loop->mainLoop()->steps().size(), std::size_t{4});
        QVERIFY(!pages.loop->nearTieButton()->isHidden());
        QVERIFY2(pages.loop->nearTieLabel()->text().contains(QStringLiteral("1 steps (2)")),
                 qPrintable(pages.loop->nearTieLabel()->text()));
        pages.loop->openNearTie();
        QCOMPARE(pages.loop->shownStepBox()->value(), 2);
        QCOMPARE(window.currentPage(), pages.batchInvariance);
        QVERIFY(!pages.batchInvariance->fromLoopLabel()->isHidden());
        QVERIFY2(pages.batchInvariance->fromLoopLabel()->text().contains(QStringLiteral("0.01")),
                 qPrintable(pages.batchInvariance->fromLoopLabel()->text()));
        QCOMPARE(pages.batchInvariance->batchForm()->studyBox()->currentIndex(), 0);
    }
};

QTEST_MAIN(TestLoopPage)
#include "tst_loop_page.moc"
