// The main window's wiring: menus with the standard shortcuts, Edit > Undo following the
// current page's undo stack, recent files, geometry and splitter sizes that survive a restart,
// Copy table / Copy chart image, and pages plugging in through addPage.
#include "app/io/gguf_model_file.h"
#include "app/kinds/batch_invariance_job.h"
#include "app/kinds/sequence_sweep_job.h"
#include "engine/models/synthetic_vocabulary.h"
#include "support/tiny_gguf_model.h"
#include "ui/forms/batch_invariance_form.h"
#include "ui/forms/junk_risk_form.h"
#include "ui/forms/seed_sweep_form.h"
#include "ui/models/logits_table_model.h"
#include "ui/pages/batch_invariance_page.h"
#include "ui/pages/chart_picture.h"
#include "ui/pages/experiment_page.h"
#include "ui/pages/explorer_page.h"
#include "ui/pages/explorer_presentation.h"
#include "ui/pages/junk_risk_page.h"
#include "ui/pages/loop_page.h"
#include "ui/pages/loop_presentation.h"
#include "ui/pages/loop_token_strip.h"
#include "ui/pages/page.h"
#include "ui/pages/seed_sweep_page.h"
#include "ui/pages/summation_page.h"
#include "ui/window/main_window.h"
#include "ui/window/presentation_window.h"
#include "ui/window/presentation_zoom.h"
#include "ui/window/workbench.h"

#include <QAbstractAxis>
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QClipboard>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTextCursor>
#include <QUndoGroup>
#include <QUndoStack>

using namespace logitlab;
using namespace logitlab::ui;

namespace {

// A page with nothing but an undo stack, to see the Edit menu follow the current page.
class StackPage : public Page {
public:
    StackPage() : m_stack(new QUndoStack(this)) {}
    QString title() const override { return QStringLiteral("Other"); }
    app::Provenance provenance() const override { return app::Provenance(QStringLiteral("other")); }
    QUndoStack* undoStack() const override { return m_stack; }

private:
    QUndoStack* m_stack;
};

QAction* findAction(const QMainWindow& window, const QString& menu, const QString& text)
{
    for (QAction* top : window.menuBar()->actions()) {
        if (top->text().remove(QLatin1Char('&')) != menu)
            continue;
        for (QAction* a : top->menu()->actions())
            if (a->text().remove(QLatin1Char('&')).startsWith(text))
                return a;
    }
    return nullptr;
}

}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("LogitLabTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_main_window"));
    }
    void init() { QSettings().clear(); }

    void menusHaveTheStandardShortcuts_data()
    {
        QTest::addColumn<QString>("menu");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QKeySequence>("shortcut");
        QTest::newRow("New") << "File"
                             << "New" << QKeySequence(QKeySequence::New);
        QTest::newRow("Open") << "File"
                              << "Open experiment..." << QKeySequence(QKeySequence::Open);
        QTest::newRow("Save") << "File"
                              << "Save experiment..." << QKeySequence(QKeySequence::Save);
        QTest::newRow("Export chart") << "File"
                                      << "Export chart..." << QKeySequence(QStringLiteral("Ctrl+E"));
        QTest::newRow("Export table") << "File"
                                      << "Export table as CSV..." << QKeySequence(QStringLiteral("Ctrl+Shift+E"));
        QTest::newRow("Quit") << "File"
                              << "Quit" << QKeySequence(QKeySequence::Quit);
        QTest::newRow("Undo") << "Edit"
                              << "Undo" << QKeySequence(QKeySequence::Undo);
        QTest::newRow("Redo") << "Edit"
                              << "Redo" << QKeySequence(QKeySequence::Redo);
        QTest::newRow("Copy table") << "Edit"
                                    << "Copy table" << QKeySequence(QKeySequence::Copy);
        QTest::newRow("Copy chart") << "Edit"
                                    << "Copy chart image" << QKeySequence(QStringLiteral("Ctrl+Shift+C"));
        QTest::newRow("Full screen") << "View"
                                     << "Full screen" << QKeySequence(QKeySequence::FullScreen);
        QTest::newRow("Zoom in") << "View"
                                 << "Zoom in" << QKeySequence(QKeySequence::ZoomIn);
        QTest::newRow("Zoom out") << "View"
                                  << "Zoom out" << QKeySequence(QKeySequence::ZoomOut);
        QTest::newRow("Reset zoom") << "View"
                                    << "Reset zoom" << QKeySequence(QStringLiteral("Ctrl+0"));
        QTest::newRow("Lesson") << "Help"
                                << "What this page shows" << QKeySequence(QKeySequence::HelpContents);
    }
    // Ctrl+R runs the page shown, on every page with a Run button (the banners say so), with the
    // focus wherever a teacher left it: in a numeric field, on the page list.
    void ctrlRRunsThePageShown_data()
    {
        QTest::addColumn<int>("row");
        MainWindow window;
        buildWorkbench(window);
        for (int row = 0; row < window.pageList()->count(); ++row)
            QTest::newRow(qPrintable(window.pageList()->item(row)->text())) << row;
    }
    void ctrlRRunsThePageShown()
    {
        QFETCH(int, row);
        MainWindow window;
        buildWorkbench(window);
        window.pageList()->setCurrentRow(row);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        auto* page = qobject_cast<ExperimentPage*>(window.currentPage());
        if (!page)
            QSKIP("this page computes as its controls change: it has no Run");
        QTRY_VERIFY_WITH_TIMEOUT(!page->isRunning(), 60000);  // the first-show run
        QPushButton* run = nullptr;
        for (QPushButton* button : page->findChildren<QPushButton*>())
            if (button->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_R))
                run = button;
        QVERIFY2(run && run->isVisibleTo(page),
                 qPrintable(page->title() + QStringLiteral(": no Run button with Ctrl+R shown")));
        const QList<QWidget*> focuses{window.pageList(), page->findChild<QAbstractSpinBox*>()};
        for (QWidget* focus : focuses) {
            if (!focus)
                continue;
            focus->setFocus();
            QSignalSpy clicked(run, &QPushButton::clicked);
            QTest::keyClick(focus, Qt::Key_R, Qt::ControlModifier);
            // A button's shortcut animates the press: the click comes about 100 ms later.
            QTRY_VERIFY2(clicked.count() == 1,
                         qPrintable(page->title() + QStringLiteral(": Ctrl+R in ") + focus->metaObject()->className()));
            QTRY_VERIFY_WITH_TIMEOUT(!page->isRunning(), 60000);
        }
    }

    // Presentation mode: the zoom scales the window's font and every chart's (title 1.15x,
    // axes and legend 1.1x the window's), steps back down, persists, and resets to the start.
    void zoomScalesTheWindowAndItsCharts()
    {
        const double base = QApplication::font().pointSizeF();
        {
            MainWindow window;
            auto* explorer = new ExplorerPage;
            window.addPage(explorer);
            PresentationZoom* zoom = window.zoom();
            QCOMPARE(zoom->percent(), 100);
            QCOMPARE(explorer->chart()->titleFont().pointSizeF(), base * 1.15);
            zoom->zoomIn();
            QCOMPARE(zoom->percent(), 110);
            QCOMPARE(QApplication::font().pointSizeF(), base * 1.1);
            zoom->setPercent(200);
            QCOMPARE(QApplication::font().pointSizeF(), base * 2.0);
            QCOMPARE(explorer->chart()->titleFont().pointSizeF(), base * 2.0 * 1.15);
            QCOMPARE(explorer->chart()->axes().first()->labelsFont().pointSizeF(), base * 2.0 * 1.1);
            zoom->zoomOut();
            QCOMPARE(zoom->percent(), 175);
            zoom->setPercent(1000);
            QCOMPARE(zoom->percent(), PresentationZoom::kMaxPercent);
            zoom->setPercent(150);
        }
        {
            MainWindow again;  // the next session starts at the saved zoom
            QCOMPARE(again.zoom()->percent(), 150);
            again.zoom()->reset();
            QCOMPARE(QApplication::font().pointSizeF(), base);
        }
    }

    // The title names the page's file and marks unsaved changes; New, Open and Quit ask before
    // dropping them (Cancel keeps everything, Discard drops, Save writes the page's file first).
    void unsavedChangesAreMarkedAndAskedAbout()
    {
        QTemporaryDir dir;
        MainWindow window;
        const Workbench pages = buildWorkbench(window);
        QStringList asked;
        QMessageBox::StandardButton answer = QMessageBox::Cancel;
        window.setUnsavedQuestion([&](const QString& question) {
            asked << question;
            return answer;
        });
        window.show();
        QVERIFY2(window.windowTitle().startsWith(QStringLiteral("untitled[*] — Explorer")),
                 qPrintable(window.windowTitle()));
        QVERIFY(!window.isWindowModified());

        pages.explorer->topPBox()->setValue(0.5);
        QVERIFY(window.isWindowModified());
        window.newOnCurrentPage();  // Cancel
        QCOMPARE(asked.size(), 1);
        QVERIFY(asked.first().contains(QLatin1String("Explorer")));
        QCOMPARE(pages.explorer->topPBox()->value(), 0.5);
        answer = QMessageBox::Discard;
        window.newOnCurrentPage();
        QCOMPARE(asked.size(), 2);
        QCOMPARE(pages.explorer->topPBox()->value(), 0.9);
        QVERIFY(!window.isWindowModified());
        window.newOnCurrentPage();  // nothing to ask about
        QCOMPARE(asked.size(), 2);

        const QString path = dir.filePath(QStringLiteral("state.json"));
        pages.explorer->topPBox()->setValue(0.75);
        QCOMPARE(window.saveExperimentTo(path), QString());
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("state.json[*] — Explorer")));
        QVERIFY(!window.isWindowModified());

        // Another page's edits are its own, and Save writes them to its file.
        window.showPage(pages.junkRisk);
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("untitled[*] — Junk risk")));
        const QString junkPath = dir.filePath(QStringLiteral("junk.json"));
        QCOMPARE(window.saveExperimentTo(junkPath), QString());
        pages.junkRisk->junkForm()->repliesBox()->setValue(pages.junkRisk->junkForm()->repliesBox()->value() + 1);
        QTRY_VERIFY(window.isWindowModified());
        QCOMPARE(window.windowTitle().left(9), QStringLiteral("junk.json"));
        pages.explorer->topPBox()->setValue(0.5);

        answer = QMessageBox::Cancel;
        QVERIFY(!window.close());
        QVERIFY(window.isVisible());
        QCOMPARE(asked.size(), 3);
        answer = QMessageBox::Save;  // both pages have files: no dialog
        QVERIFY(window.close());
        QCOMPARE(asked.size(), 5);
        QVERIFY(!pages.explorer->isModified());
        QVERIFY(!pages.junkRisk->isModified());
        QFile saved(path);
        QVERIFY(saved.open(QIODevice::ReadOnly));
        QVERIFY(saved.readAll().contains("\"top-p\": 0.5"));
    }

    void menusHaveTheStandardShortcuts()
    {
        QFETCH(QString, menu);
        QFETCH(QString, text);
        QFETCH(QKeySequence, shortcut);
        MainWindow window;
        window.addPage(new ExplorerPage);
        QAction* action = findAction(window, menu, text);
        QVERIFY2(action, qPrintable(menu + QStringLiteral(" > ") + text));
        QCOMPARE(action->shortcut(), shortcut);
        QVERIFY(findAction(window, QStringLiteral("Help"), QStringLiteral("About LogitLab")));
        QVERIFY(findAction(window, QStringLiteral("File"), QStringLiteral("Open recent")));
    }

    void undoFollowsTheCurrentPage()
    {
        MainWindow window;
        auto* explorer = new ExplorerPage;
        auto* other = new StackPage;
        window.addPage(explorer);
        window.addPage(other);
        QCOMPARE(window.pageList()->count(), 2);
        QCOMPARE(window.undoGroup()->activeStack(), explorer->undoStack());
        QAction* undo = findAction(window, QStringLiteral("Edit"), QStringLiteral("Undo"));
        QVERIFY(!undo->isEnabled());
        explorer->topPBox()->setValue(0.75);
        QVERIFY(undo->isEnabled());
        window.pageList()->setCurrentRow(1);
        QCOMPARE(window.currentPage(), other);
        QCOMPARE(window.undoGroup()->activeStack(), other->undoStack());
        QVERIFY(!undo->isEnabled());
        window.pageList()->setCurrentRow(0);
        undo->trigger();
        QCOMPARE(explorer->topPBox()->value(), 0.9);
        QCOMPARE(explorer->model()->survivors().size(), std::size_t{3});
    }

    void saveNamesFilesAsLogitLabFiles_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("written");
        QTest::newRow("no extension") << "/tmp/run1"
                                      << "/tmp/run1.logitlab.json";
        QTest::newRow("plain json kept") << "/tmp/run1.json"
                                         << "/tmp/run1.json";
        QTest::newRow("already logitlab") << "/tmp/run1.logitlab.json"
                                          << "/tmp/run1.logitlab.json";
        QTest::newRow("dotted folder") << "/tmp/v1.2/run"
                                       << "/tmp/v1.2/run.logitlab.json";
    }
    void saveNamesFilesAsLogitLabFiles()
    {
        QFETCH(QString, typed);
        QFETCH(QString, written);
        QCOMPARE(MainWindow::experimentFileName(typed), written);
    }

    void newGoesBackToTheLessonExample()
    {
        MainWindow window;
        auto* explorer = new ExplorerPage;
        window.addPage(explorer);
        explorer->applyPreset(1);
        int asked = 0;
        window.setUnsavedQuestion([&asked](const QString&) {
            ++asked;
            return QMessageBox::Discard;
        });
        findAction(window, QStringLiteral("File"), QStringLiteral("New"))->trigger();
        QCOMPARE(asked, 1);  // the preset was an unsaved change
        QCOMPARE(explorer->model()->tokenName(0), QStringLiteral("users"));
    }

    void recentFilesRememberSavesAndOpens()
    {
        QTemporaryDir dir;
        MainWindow window;
        window.addPage(new ExplorerPage);
        const QString a = dir.filePath(QStringLiteral("a.json"));
        const QString b = dir.filePath(QStringLiteral("b.json"));
        QCOMPARE(window.saveExperimentTo(a), QString());
        QCOMPARE(window.saveExperimentTo(b), QString());
        QCOMPARE(window.recentFiles(), (QStringList{b, a}));
        QCOMPARE(window.openExperimentFrom(a), QString());
        QCOMPARE(window.recentFiles(), (QStringList{a, b}));
        // A failed open is not remembered.
        QVERIFY(!window.openExperimentFrom(dir.filePath(QStringLiteral("missing.csv"))).isEmpty());
        QCOMPARE(window.recentFiles().size(), 2);
        // A second window (the next start) sees the same list.
        MainWindow next;
        QCOMPARE(next.recentFiles(), (QStringList{a, b}));
    }

    // File > Open model on a page that runs no models (Summation order): the Loop page takes the
    // GGUF model, opens it on a worker and steps; the model joins Recent models; a missing file
    // is refused and not remembered.
    void openModelRunsItOnTheLoopPage()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tiny.gguf"));
        QVERIFY(test::tinyLlama(engine::gguf::GgmlType::F32, true, 64).writeFile(path.toStdString()));
        MainWindow window;
        window.addPage(new SummationPage);
        auto* loop = new LoopPage;
        window.addPage(loop);
        loop->promptField()->setText(QStringLiteral("hi!"));
        QCOMPARE(window.openModelFrom(path), QString());
        QCOMPARE(window.currentPage(), loop);
        QCOMPARE(loop->sourceBox()->currentIndex(), 2);
        QTRY_VERIFY(loop->mainLoop() && !loop->mainLoop()->steps().empty());
        QCOMPARE(loop->mainLoop()->prompt(), (std::vector<std::int32_t>{1, 7, 9}));
        QCOMPARE(window.recentModels(), QStringList{path});
        QVERIFY(findAction(window, QStringLiteral("File"), QStringLiteral("Open model...")));
        // A missing file is refused on the page the user is on.
        window.showPage(window.page(QStringLiteral("summation-order")));
        const QString missing = dir.filePath(QStringLiteral("missing.gguf"));
        QCOMPARE(window.openModelFrom(missing), missing + QStringLiteral(": no such file"));
        QCOMPARE(window.currentPage(), window.page(QStringLiteral("summation-order")));
        QCOMPARE(window.recentModels(), QStringList{path});
    }

    // On the Batch invariance page, File > Open model chooses its model-decode study and model
    // (shown in the window, the study's rows in place of the toy model's); the Loop is not opened.
    void openModelOnTheBatchInvariancePage()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tiny.gguf"));
        QVERIFY(test::tinyLlama(engine::gguf::GgmlType::F32, true, 64).writeFile(path.toStdString()));
        MainWindow window;
        auto* loop = new LoopPage;
        window.addPage(loop);
        auto* batch = new BatchInvariancePage;
        window.addPage(batch);
        window.showPage(batch);
        // As `logitlab --page "Batch invariance" --model F` does: the model before the window shows.
        QCOMPARE(window.openModelFrom(path), QString());
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.currentPage(), batch);
        QCOMPARE(batch->batchForm()->studyBox()->currentText(), QStringLiteral("decode a GGUF model"));
        QCOMPARE(batch->batchForm()->modelFileEdit()->text(), path);
        QTRY_VERIFY(batch->batchForm()->modelFileEdit()->isVisible());
        QVERIFY(batch->batchForm()->promptEdit()->isVisible());
        QVERIFY(!batch->batchForm()->runsBox()->isVisible());
        // Rows shown again get their height (a word-wrapped label once left them none).
        QVERIFY(batch->batchForm()->modelFileEdit()->height() >=
                batch->batchForm()->modelFileEdit()->minimumSizeHint().height());
        QVERIFY(batch->batchForm()->promptEdit()->height() >=
                batch->batchForm()->promptEdit()->minimumSizeHint().height());
        QVERIFY(!loop->mainLoop());
        QCOMPARE(window.recentModels(), QStringList{path});
    }

    // Issue 36: a model of each architecture through every page that runs models, as File >
    // Open model gives it to the page on screen: the Explorer's table becomes its next-token
    // distribution, the Loop steps it, Junk risk walks its reply, the Seed sweep samples its
    // replies and Batch invariance decodes it under each kernel; each names the model's hash.
    void everyArchitectureOnEveryModelPage_data()
    {
        QTest::addColumn<int>("arch");
        QTest::addColumn<QString>("page");
        using engine::transformer::Architecture;
        for (const auto& [arch, name] :
             {std::pair{Architecture::Llama, "llama"}, std::pair{Architecture::Qwen2, "qwen2"},
              std::pair{Architecture::Gpt2, "gpt2"}})
            for (const char* page : {"explorer", "loop", "junk-risk", "seed-sweep", "batch-invariance"})
                QTest::addRow("%s on %s", name, page) << int(arch) << QString::fromLatin1(page);
    }
    void everyArchitectureOnEveryModelPage()
    {
        QFETCH(int, arch);
        QFETCH(QString, page);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tiny.gguf"));
        QVERIFY(test::tinyModel(static_cast<engine::transformer::Architecture>(arch), engine::gguf::GgmlType::Q8_0)
                    .writeFile(path.toStdString()));
        const QString prompt = QStringLiteral("hi!");
        MainWindow window;
        const Workbench pages = buildWorkbench(window);
        pages.explorer->modelPromptField()->setText(prompt);
        pages.loop->promptField()->setText(prompt);
        pages.junkRisk->junkForm()->promptField()->setText(prompt);
        pages.junkRisk->junkForm()->replyLengthBox()->setValue(5);
        pages.junkRisk->junkForm()->repliesBox()->setValue(200);
        pages.seedSweep->sweepForm()->promptEdit()->setText(prompt);
        pages.seedSweep->sweepForm()->stepsBox()->setValue(5);
        pages.seedSweep->sweepForm()->seedCountBox()->setValue(6);
        pages.batchInvariance->batchForm()->promptEdit()->setText(prompt);
        Page* target = window.page(page);
        QVERIFY(target);
        window.showPage(target);
        auto* experiment = qobject_cast<ExperimentPage*>(target);
        std::unique_ptr<QSignalSpy> ended;
        if (experiment)
            ended = std::make_unique<QSignalSpy>(experiment, &ExperimentPage::runEnded);
        QCOMPARE(window.openModelFrom(path), QString());
        QCOMPARE(window.currentPage(), target);
        QCOMPARE(window.recentModels(), QStringList{path});
        const auto finished = [&ended] {
            return ended->size() == 1 || ended->wait(60000) ? ended->front().front().toBool() : false;
        };
        const QString sha = QStringLiteral("sha256=");
        if (target == pages.explorer) {
            QTRY_COMPARE(pages.explorer->model()->rowCount(), static_cast<int>(test::kTinyTokens.size()));
            const auto expected = app::ggufNextTokenDistribution(path, prompt);
            QVERIFY(expected);
            QVERIFY((pages.explorer->model()->distribution().logits == expected->logits).all());
        } else if (target == pages.loop) {
            QTRY_VERIFY(pages.loop->mainLoop() && !pages.loop->mainLoop()->steps().empty());
            QCOMPARE(pages.loop->mainLoop()->prompt(), (std::vector<std::int32_t>{1, 7, 9}));
            QCOMPARE(pages.loop->tokenStrip()->stepCount(), pages.loop->mainLoop()->steps().size());
        } else if (target == pages.junkRisk) {
            QVERIFY(finished());
            QCOMPARE(pages.junkRisk->junkForm()->replyModelField()->text(), path);
            QVERIFY(pages.junkRisk->resultsModel()->rowCount() > 0);
        } else if (target == pages.seedSweep) {
            QVERIFY(finished());
            QVERIFY(pages.seedSweep->repliesRun());
            QCOMPARE(pages.seedSweep->repliesRun()->outcome.replies.size(), std::size_t{6});
        } else {
            QCOMPARE(pages.batchInvariance->batchForm()->modelFileEdit()->text(), path);
            pages.batchInvariance->run();
            QVERIFY(finished());
            QVERIFY(pages.batchInvariance->outcome());
            QVERIFY(!pages.batchInvariance->outcome()->model.rows.empty());
        }
        if (target != pages.loop && target != pages.explorer)
            QVERIFY2(target->provenance().asText().contains(sha), qPrintable(target->provenance().asText()));
    }

    // View > Present (F5): the page on screen full screen in large type, Esc leaves. The
    // Explorer's sliders are the page's own parameters (each move an undo step, each edit of the
    // page moves them); the Loop steps on Space with its newest token marked; a page without a
    // view of its own shows its chart, drawn large after its run.
    void presentShowsThePageLarge()
    {
        MainWindow window;
        const Workbench pages = buildWorkbench(window);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(findAction(window, QStringLiteral("View"), QStringLiteral("Present")));
        QCOMPARE(findAction(window, QStringLiteral("View"), QStringLiteral("Present"))->shortcut(),
                 QKeySequence(Qt::Key_F5));

        window.showPage(pages.explorer);
        window.present();
        QVERIFY(window.presentation());
        QCOMPARE(window.presentation()->font().pointSizeF(),
                 window.font().pointSizeF() * PresentationWindow::kFontScale);
        auto* explorer = qobject_cast<ExplorerPresentation*>(window.presentation()->content());
        QVERIFY(explorer);
        const int undo = pages.explorer->undoStack()->count();
        explorer->temperatureSlider()->setValue(50);
        QCOMPARE(pages.explorer->temperatureBox()->value(), 0.5);
        QTRY_VERIFY(pages.explorer->undoStack()->count() > undo);
        QCOMPARE(explorer->readouts()->text(), pages.explorer->readoutText());
        pages.explorer->topPBox()->setValue(0.5);
        QCOMPARE(explorer->topPSlider()->value(), 50);
        QCOMPARE(explorer->readouts()->text(), pages.explorer->readoutText());
        QTest::keyClick(window.presentation(), Qt::Key_Escape);
        QTRY_VERIFY(!window.presentation());

        window.showPage(pages.loop);
        window.present();
        auto* loop = qobject_cast<LoopPresentation*>(window.presentation()->content());
        QVERIFY(loop);
        const std::size_t before = pages.loop->mainLoop() ? pages.loop->mainLoop()->steps().size() : 0;
        QTest::keyClick(loop, Qt::Key_Space);
        QCOMPARE(pages.loop->mainLoop()->steps().size(), before + 1);
        // The newest token is the marked one: the text's last characters carry the highlight.
        QTextCursor end(loop->text()->document());
        end.movePosition(QTextCursor::End);
        QCOMPARE(end.charFormat().background().color(), QColor(0xff, 0xe0, 0x66));
        QTest::keyClick(loop, Qt::Key_Backspace);
        QCOMPARE(pages.loop->mainLoop()->steps().size(), before);
        end.movePosition(QTextCursor::End);
        QCOMPARE(end.charFormat().background().color(), QColor(0xff, 0xe0, 0x66));
        window.present();  // F5 again: leaves
        QTRY_VERIFY(!window.presentation());

        QSignalSpy ran(pages.junkRisk, &ExperimentPage::runEnded);
        window.showPage(pages.junkRisk);  // its first show runs the worked example
        QVERIFY(ran.wait(60000));
        window.present();
        auto* picture = qobject_cast<ChartPicture*>(window.presentation()->content());
        QVERIFY(picture);
        QTRY_VERIFY(!picture->picture().isNull());
        QCOMPARE(picture->picture().size(), picture->size());
    }

    void geometryAndSplittersPersist()
    {
        QList<int> saved;
        QSize size;
        {
            MainWindow window;
            window.addPage(new ExplorerPage);
            window.resize(1300, 760);  // above the minimum size, and not what a new window picks
            window.show();
            auto* splitter = window.findChild<QSplitter*>(QStringLiteral("explorerParametersSplitter"));
            QVERIFY(splitter);
            splitter->setSizes({420, 560});
            saved = splitter->sizes();
            size = window.size();
            window.close();  // saves
        }
        MainWindow again;
        again.addPage(new ExplorerPage);
        again.show();
        QCOMPARE(again.size(), size);
        QCOMPARE(size, QSize(1300, 760));
        QCOMPARE(again.findChild<QSplitter*>(QStringLiteral("explorerParametersSplitter"))->sizes(), saved);
    }

    void copyTableAndChart()
    {
        MainWindow window;
        window.addPage(new ExplorerPage);
        window.show();
        window.copyTable();
        const QString text = QApplication::clipboard()->text();
        QVERIFY2(text.startsWith(QLatin1String("token\tlogit\tp at T\tsurvivor\trenormalised p\trank\n")),
                 qPrintable(text));
        QVERIFY(text.contains(QLatin1String("users\t3\t0.5770\tyes\t0.6285\t1\n")));
        window.copyChartImage();
        const QImage image = QApplication::clipboard()->image();
        QCOMPARE(image.size(), QSize(1920, 1200));
    }

    // A table of 50,000 rows is read a slice at a time under a progress dialog: the file is the
    // same, byte for byte, as the one written in one go; Cancel writes nothing.
    void largeTablesAreWrittenInSlices()
    {
        QTemporaryDir dir;
        MainWindow window;
        auto* page = new ExplorerPage;
        window.addPage(page);
        window.show();
        logitlab::engine::SyntheticSpec spec;
        spec.size = 50'000;
        page->generateVocabulary(spec);
        QTRY_VERIFY_WITH_TIMEOUT(!page->loading(), 30'000);

        const QString once = dir.filePath(QStringLiteral("once.csv"));
        QCOMPARE(window.exportTableTo(once), QString());
        QSignalSpy done(&window, &MainWindow::tableTextDone);
        const QString sliced = dir.filePath(QStringLiteral("sliced.csv"));
        window.startTableExport(sliced);
        QVERIFY(!QFile::exists(sliced));  // still being read: the event loop runs between slices
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60'000);
        QCOMPARE(done.first().first().toString(), QString());
        QFile a(once), b(sliced);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QCOMPARE(b.readAll(), a.readAll());

        const QString stopped = dir.filePath(QStringLiteral("stopped.csv"));
        window.startTableExport(stopped);
        auto* dialog = window.findChild<QProgressDialog*>();
        QVERIFY(dialog);
        dialog->cancel();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, 60'000);
        QCOMPARE(done.last().first().toString(), QStringLiteral("cancelled"));
        QVERIFY(!QFile::exists(stopped));

        window.copyTable();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 3, 60'000);
        QCOMPARE(QApplication::clipboard()->text().count(QLatin1Char('\n')), 50'001);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
