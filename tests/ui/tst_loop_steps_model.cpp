// The Loop page's growing per-step table (ui/models/loop_steps_model.h) and text pane
// (ui/pages/loop_run_text.h): while the runs gain steps, are rewound, get a branch, a new branch or a
// new main run, the model passes QAbstractItemModelTester (rows inserted and removed, never
// reset) and holds exactly the CSV rows app::loopStepsTable writes for the runs; the text pane
// kept up to date edit by edit reads the same as one built from scratch, with the divergent
// token marked.
#include "app/kinds/loop_spec.h"
#include "engine/rng/rng_factory.h"
#include "ui/models/loop_steps_model.h"
#include "ui/pages/loop_run_text.h"

#include <QAbstractItemModelTester>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextLayout>

#include <optional>

using namespace logitlab;
using namespace logitlab::ui;

namespace {

engine::GenerationLoop loopOf(qint64 seed)
{
    app::LoopSpec spec;
    spec.prompt = QStringLiteral("The sampler");
    spec.chain = QStringLiteral("penalties:last-n=64:repeat=1.3,top-k=40,temperature=1.2");
    spec.seed = seed;
    auto loop = app::makeLoop(spec);
    if (!loop)
        qFatal("%s", loop.error().c_str());
    return std::move(loop).value();
}

// The runs as the page holds them, changed by a script of operations:
// "main+N" / "branch+N" step on, "main-N" / "branch-N" rewind, "branch@K" branches a reseeded
// copy of the main run at step K, "newmain" replaces the main run (another seed), "nobranch"
// drops the branch.
struct Runs {
    std::optional<engine::GenerationLoop> main;
    std::optional<engine::GenerationLoop> branch;
    quint64 mainGeneration = 0;
    quint64 branchGeneration = 0;

    void apply(const QString& op)
    {
        if (op == QStringLiteral("newmain")) {
            main.emplace(loopOf(static_cast<qint64>(mainGeneration) + 100));
            ++mainGeneration;
            return;
        }
        if (op == QStringLiteral("nobranch")) {
            branch.reset();
            return;
        }
        if (op.startsWith(QStringLiteral("branch@"))) {
            branch.emplace(*main, op.mid(7).toULongLong());
            branch->reseed(std::move(engine::makeRng("mulberry32", 7)).value());
            ++branchGeneration;
            return;
        }
        const bool isMain = op.startsWith(QStringLiteral("main"));
        engine::GenerationLoop& loop = isMain ? *main : *branch;
        const QString count = op.mid(isMain ? 4 : 6);
        const int n = count.mid(1).toInt();
        if (count.startsWith(QLatin1Char('+')))
            for (int i = 0; i < n; ++i)
                loop.step();
        else
            loop.rewind(loop.steps().size() - static_cast<std::size_t>(n));
    }

    std::vector<app::LoopTrack> tracks() const
    {
        std::vector<app::LoopTrack> out;
        if (main)
            out.push_back(app::trackOf(*main, QStringLiteral("main")));
        if (branch)
            out.push_back(app::trackOf(*branch, QStringLiteral("branch")));
        return out;
    }

    std::optional<std::size_t> divergence() const
    {
        if (!main || !branch)
            return std::nullopt;
        const auto d = engine::firstDivergence(main->steps(), branch->steps());
        return d ? std::optional<std::size_t>(d->step) : std::nullopt;
    }
};

void addScripts()
{
    QTest::addColumn<QStringList>("script");
    QTest::newRow("main grows and is rewound") << QStringList{"main+5", "main+1", "main-2", "main+3", "main-6"};
    QTest::newRow("a branch grows, main grows past it")
        << QStringList{"main+8", "branch@3", "branch+2", "branch+3", "main+4", "branch-1", "main-2"};
    QTest::newRow("a new branch replaces the old")
        << QStringList{"main+6", "branch@2", "branch+4", "branch@4", "branch+2", "branch@0", "branch+6"};
    QTest::newRow("a new main run, the branch dropped")
        << QStringList{"main+6", "branch@1", "branch+5", "newmain", "nobranch", "main+7", "branch@5", "branch+1"};
    QTest::newRow("rewound to nothing and on again")
        << QStringList{"main+3", "branch@0", "branch+3", "main-3", "branch-3", "main+2"};
}

}  // namespace

class LoopStepsModelTest : public QObject {
    Q_OBJECT
private slots:
    void growsWithTheRuns_data() { addScripts(); }
    void growsWithTheRuns()
    {
        QFETCH(QStringList, script);
        LoopStepsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        Runs runs;
        runs.main.emplace(loopOf(1));
        for (const QString& op : script) {
            runs.apply(op);
            model.sync({runs.main ? &*runs.main : nullptr, runs.mainGeneration},
                       {runs.branch ? &*runs.branch : nullptr, runs.branchGeneration});
            const app::ResultTable expected = app::loopStepsTable(runs.tracks());
            QCOMPARE(static_cast<std::size_t>(model.rowCount()), expected.rows);
            QCOMPARE(model.table().columnNames(), expected.columnNames());
            for (std::size_t r = 0; r < expected.rows; ++r)
                QCOMPARE(app::csvRow(model.table(), r), app::csvRow(expected, r));
        }
        QCOMPARE(resets.count(), 0);  // rows come and go; the model is never reset
    }

    void textKeptUpToDateReadsAsBuiltAnew_data() { addScripts(); }
    void textKeptUpToDateReadsAsBuiltAnew()
    {
        QFETCH(QStringList, script);
        QTextBrowser kept;
        QTextBrowser mainView;
        LoopRunText keptMain(&kept);
        QTextBrowser keptBranchView;
        LoopRunText keptBranch(&keptBranchView);
        Runs runs;
        runs.main.emplace(loopOf(1));
        const QString prompt = QStringLiteral("The sampler");
        for (const QString& op : script) {
            runs.apply(op);
            const auto divergence = runs.divergence();
            keptMain.show(*runs.main, runs.mainGeneration, prompt, divergence, false);
            if (runs.branch)
                keptBranch.show(*runs.branch, runs.branchGeneration, prompt, divergence, true);
            // Built from scratch: a pane that never showed these runs.
            QTextBrowser freshView;
            LoopRunText fresh(&freshView);
            fresh.show(*runs.main, runs.mainGeneration, prompt, divergence, false);
            QCOMPARE(kept.toPlainText(), freshView.toPlainText());
            QCOMPARE(kept.toHtml(), freshView.toHtml());  // the marks too
            if (runs.branch) {
                QTextBrowser freshBranchView;
                LoopRunText freshBranch(&freshBranchView);
                freshBranch.show(*runs.branch, runs.branchGeneration, prompt, divergence, true);
                QCOMPARE(keptBranchView.toPlainText(), freshBranchView.toPlainText());
                QCOMPARE(keptBranchView.toHtml(), freshBranchView.toHtml());
            }
            QVERIFY(kept.toPlainText().startsWith(prompt));
        }
    }

    // During Play the pane shows the newest token: a few lines high, it scrolls with the run,
    // and stays where the reader scrolled to once they scroll up.
    void textFollowsTheNewestToken()
    {
        Runs runs;
        runs.main.emplace(loopOf(1));
        QTextBrowser view;
        view.resize(300, 70);  // about four lines
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        LoopRunText text(&view);
        QScrollBar* bar = view.verticalScrollBar();
        const QString prompt = QStringLiteral("The sampler");
        for (int i = 0; i < 60; ++i) {
            runs.apply(QStringLiteral("main+1"));
            text.show(*runs.main, runs.mainGeneration, prompt, std::nullopt, false);
            QCOMPARE(bar->value(), bar->maximum());
        }
        QVERIFY2(bar->maximum() > 0, "sixty tokens fit in four lines: the test shows nothing");
        // The last line on screen is the text's last line.
        const QTextCursor bottom =
            view.cursorForPosition(QPoint(view.viewport()->width() - 2, view.viewport()->height() - 2));
        QTextCursor end(view.document());
        end.movePosition(QTextCursor::End);
        QCOMPARE(bottom.block().layout()->lineForTextPosition(bottom.positionInBlock()).lineNumber(),
                 end.block().layout()->lineForTextPosition(end.positionInBlock()).lineNumber());
        QCOMPARE(bottom.block().blockNumber(), end.block().blockNumber());

        bar->setValue(0);  // the reader scrolls up to the prompt
        runs.apply(QStringLiteral("main+5"));
        text.show(*runs.main, runs.mainGeneration, prompt, std::nullopt, false);
        QCOMPARE(bar->value(), 0);
    }

    void divergentTokenIsMarked()
    {
        Runs runs;
        runs.main.emplace(loopOf(1));
        runs.apply(QStringLiteral("main+6"));
        runs.apply(QStringLiteral("branch@2"));
        QTextBrowser view;
        LoopRunText text(&view);
        std::optional<std::size_t> divergence;
        // Steps on until the reseeded branch differs, so the mark arrives on a shown text.
        for (int i = 0; i < 40 && !divergence; ++i) {
            text.show(*runs.branch, runs.branchGeneration, QStringLiteral("The sampler"), divergence, true);
            runs.apply(QStringLiteral("branch+1"));
            divergence = runs.divergence();
        }
        QVERIFY(divergence);
        text.show(*runs.branch, runs.branchGeneration, QStringLiteral("The sampler"), divergence, true);
        const QString html = view.toHtml();
        QVERIFY2(html.contains(QStringLiteral("font-weight:700")) || html.contains(QStringLiteral("font-weight:600")),
                 qPrintable(html));
        QVERIFY(html.contains(QStringLiteral("#ffd8d8")));
    }
};

QTEST_MAIN(LoopStepsModelTest)
#include "tst_loop_steps_model.moc"
