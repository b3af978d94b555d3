#include "ui/window/main_window.h"

#include "app/io/build_info.h"
#include "app/io/input_file.h"
#include "app/io/model_csv.h"
#include "app/io/save_text.h"
#include "app/kinds/experiment_kind.h"
#include "app/kinds/explorer_state.h"
#include "app/kinds/loop_spec.h"
#include "app/run/busy_counter.h"
#include "app/text/one_line_text.h"
#include "app/text/table_text_builder.h"
#include "charts/chart_export.h"
#include "ui/forms/chart_export_dialog.h"
#include "ui/forms/wheel_guard.h"
#include "ui/pages/control_scroll.h"
#include "ui/pages/page.h"
#include "ui/window/page_stack.h"
#include "ui/window/presentation_window.h"
#include "ui/window/presentation_zoom.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDir>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeySequence>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QProgressDialog>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QUndoGroup>
#include <QUndoStack>

#include <functional>

namespace logitlab::ui {

namespace {

const QString kRecentKey = QStringLiteral("recentFiles");
const QString kRecentModelsKey = QStringLiteral("recentModels");

// `path` first in the list QSettings keeps under `key`, at most `most` long.
void rememberIn(const QString& key, const QString& path, int most)
{
    QStringList files = QSettings().value(key).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > most)
        files.removeLast();
    QSettings().setValue(key, files);
}

// The menu lists the files kept under `key`, each opened by `open`, then "Clear the list".
void fillRecentMenu(QMenu* menu, const QString& key, QObject* context, const std::function<void(const QString&)>& open,
                    const std::function<void()>& cleared)
{
    menu->clear();
    const QStringList files = QSettings().value(key).toStringList();
    for (const QString& path : files)
        menu->addAction(QDir::toNativeSeparators(path), context, [open, path] { open(path); });
    if (files.isEmpty()) {
        menu->addAction(QObject::tr("(none yet)"))->setEnabled(false);
        return;
    }
    menu->addSeparator();
    menu->addAction(QObject::tr("Clear the list"), context, [key, cleared] {
        QSettings().remove(key);
        cleared();
    });
}
const QString kGeometryKey = QStringLiteral("window/geometry");
const QString kStateKey = QStringLiteral("window/state");

QString splitterKey(const QSplitter* splitter) { return QStringLiteral("splitters/") + splitter->objectName(); }

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_pageList(new QListWidget), m_pages(new PageStack),
      m_splitter(new QSplitter(Qt::Horizontal)), m_undoGroup(new QUndoGroup(this)),
      m_busyPages(new app::BusyCounter(this)), m_status(new QLabel), m_progress(new QProgressBar),
      m_cancel(new QPushButton(tr("Cancel"))), m_zoom(new PresentationZoom(this))
{
    WheelGuard::install();
    setWindowTitle(tr("LogitLab"));
    m_pageList->setMaximumWidth(220);
    m_pageList->setMinimumWidth(100);
    m_pageList->setToolTip(tr("Experiment pages (Ctrl+1, Ctrl+2, ...)"));
    m_splitter->setObjectName(QStringLiteral("mainSplitter"));
    m_splitter->addWidget(m_pageList);
    m_splitter->addWidget(m_pages);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({110, 1170});
    setCentralWidget(m_splitter);

    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    m_progress->setMaximumWidth(200);
    m_progress->hide();
    m_cancel->hide();
    m_cancel->setToolTip(tr("Stop the running work (Esc)"));
    m_cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        if (Page* page = currentPage())
            page->cancel();
    });
    connect(m_pageList, &QListWidget::currentRowChanged, this, &MainWindow::pageChanged);
    connect(m_busyPages, &app::BusyCounter::busyChanged, this, &MainWindow::setBusy);

    m_askUnsaved = [this](const QString& question) {
        return QMessageBox::question(this, tr("Unsaved changes"), question,
                                     QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    };
    createMenus();
    m_status->setText(tr("Ready"));

    const QSettings settings;
    restoreGeometry(settings.value(kGeometryKey).toByteArray());
    restoreState(settings.value(kStateKey).toByteArray());
    restoreSplitters(this);
}

bool MainWindow::anyPageBusy() const { return m_busyPages->isBusy(); }

void MainWindow::fitPageList()
{
    // Wide enough for the longest title at the zoom's type size, so no page name is cut off
    // (as far as the page's own minimum width leaves room: the splitter keeps that).
    m_pageList->setMaximumWidth(220 * m_zoom->percent() / 100);
    const int wanted =
        std::min(m_pageList->maximumWidth(), m_pageList->sizeHintForColumn(0) + 2 * m_pageList->frameWidth() + 6);
    if (QList<int> sizes = m_splitter->sizes(); sizes.size() == 2 && sizes[0] < wanted) {
        sizes[1] = std::max(0, sizes[1] - (wanted - sizes[0]));
        sizes[0] = wanted;
        m_splitter->setSizes(sizes);
    }
}

void MainWindow::addPage(Page* page)
{
    m_pages->addWidget(page);
    m_pageList->addItem(page->title());
    fitPageList();
    if (QUndoStack* stack = page->undoStack())
        m_undoGroup->addStack(stack);
    connect(page, &Page::statusMessage, this, &MainWindow::showPageStatus);
    connect(page, &Page::busyChanged, m_busyPages, &app::BusyCounter::change);
    connect(page, &Page::distributionOffered, this, &MainWindow::handOff);
    connect(page, &Page::modifiedChanged, this, [this, page] {
        if (page == currentPage())
            updateTitle();
    });
    connect(page, &Page::progressChanged, this, [this](int done, int total) {
        m_progress->setRange(0, total);
        m_progress->setValue(done);
    });
    const int index = m_pages->count() - 1;
    if (index < 9) {
        QAction* go = m_viewMenu->addAction(page->title(), this, [this, index] { m_pageList->setCurrentRow(index); });
        go->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + index)));
    }
    restoreSplitters(page);
    if (m_pageList->currentRow() < 0)
        m_pageList->setCurrentRow(0);
}

void MainWindow::showControls(bool on)
{
    for (int i = 0; i < m_pages->count(); ++i)
        for (QScrollArea* controls : m_pages->widget(i)->findChildren<QScrollArea*>(QLatin1String(kPageControls)))
            controls->setVisible(on);
    // Without its controls a page needs less width: the page list takes what its names need,
    // once the pages have laid out again.
    QTimer::singleShot(0, this, &MainWindow::fitPageList);
    showPageStatus(on ? tr("Controls shown") : tr("Controls hidden: View > Controls (Ctrl+K) brings them back"));
}

Page* MainWindow::currentPage() const { return qobject_cast<Page*>(m_pages->currentWidget()); }

Page* MainWindow::page(const QString& id) const
{
    for (int i = 0; i < m_pages->count(); ++i)
        if (auto* page = qobject_cast<Page*>(m_pages->widget(i)); page && !id.isEmpty() && page->id() == id)
            return page;
    return nullptr;
}

void MainWindow::showPage(Page* page)
{
    const int index = m_pages->indexOf(page);
    if (index >= 0)
        m_pageList->setCurrentRow(index);
}

bool MainWindow::handOff(const QString& target, const HandOff& handOff)
{
    Page* page = this->page(target);
    if (!page || !page->acceptDistribution(handOff))
        return false;
    showPage(page);
    return true;
}

void MainWindow::pageChanged(int index)
{
    m_pages->setCurrentIndex(index);
    Page* page = currentPage();
    m_undoGroup->setActiveStack(page ? page->undoStack() : nullptr);
    updateTitle();
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* fresh = file->addAction(tr("&New"), this, &MainWindow::newOnCurrentPage);
    fresh->setShortcut(QKeySequence::New);
    fresh->setToolTip(tr("Back to the page's starting point (undoable)"));
    file->addAction(tr("&Open experiment..."), this, &MainWindow::openInteractive)->setShortcut(QKeySequence::Open);
    file->addAction(tr("&Save experiment..."), this, &MainWindow::saveInteractive)->setShortcut(QKeySequence::Save);
    m_recentMenu = file->addMenu(tr("Open &recent"));
    rebuildRecentMenu();
    file->addAction(tr("Open &model..."), this, &MainWindow::openModelInteractive)
        ->setShortcut(QKeySequence(tr("Ctrl+Shift+O")));
    m_recentModelsMenu = file->addMenu(tr("Recent mo&dels"));
    rebuildRecentModelsMenu();
    file->addSeparator();
    file->addAction(tr("Export &chart..."), this, &MainWindow::exportChartInteractive)
        ->setShortcut(QKeySequence(tr("Ctrl+E")));
    file->addAction(tr("Export &table as CSV..."), this, &MainWindow::exportTableInteractive)
        ->setShortcut(QKeySequence(tr("Ctrl+Shift+E")));
    file->addSeparator();
    file->addAction(tr("&Quit"), this, &QWidget::close)->setShortcut(QKeySequence::Quit);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_undoGroup->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_undoGroup->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    edit->addAction(tr("Copy chart &image"), this, &MainWindow::copyChartImage)
        ->setShortcut(QKeySequence(tr("Ctrl+Shift+C")));
    edit->addAction(tr("&Copy table"), this, &MainWindow::copyTable)->setShortcut(QKeySequence::Copy);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    QAction* list = m_viewMenu->addAction(tr("&Page list"));
    list->setCheckable(true);
    list->setChecked(true);
    list->setShortcut(QKeySequence(tr("Ctrl+L")));
    connect(list, &QAction::toggled, m_pageList, &QWidget::setVisible);
    // Every page's column of controls, hidden for the charts' sake at a high zoom or on a small
    // screen; the page keeps its values, its keyboard shortcuts and Run.
    m_controlsAction = m_viewMenu->addAction(tr("&Controls"));
    m_controlsAction->setCheckable(true);
    m_controlsAction->setChecked(true);
    m_controlsAction->setShortcut(QKeySequence(tr("Ctrl+K")));
    connect(m_controlsAction, &QAction::toggled, this, &MainWindow::showControls);
    QAction* full = m_viewMenu->addAction(tr("&Full screen"));
    full->setCheckable(true);
    full->setShortcut(QKeySequence::FullScreen);
    connect(full, &QAction::toggled, this, [this](bool on) { on ? showFullScreen() : showNormal(); });
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(tr("Zoom &in"), m_zoom, &PresentationZoom::zoomIn)
        ->setShortcuts({QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    m_viewMenu->addAction(tr("Zoom &out"), m_zoom, &PresentationZoom::zoomOut)->setShortcut(QKeySequence::ZoomOut);
    m_viewMenu->addAction(tr("&Reset zoom"), m_zoom, &PresentationZoom::reset)
        ->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    connect(m_zoom, &PresentationZoom::zoomChanged, this, [this](int percent) {
        showPageStatus(tr("Zoom %1%").arg(percent));
        fitPageList();
    });
    m_viewMenu->addAction(tr("&Present"), this, &MainWindow::present)->setShortcut(QKeySequence(Qt::Key_F5));
    m_viewMenu->addSeparator();

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&What this page shows"), this, &MainWindow::showLesson)
        ->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("Load the lesson's &worked example"), this, [this] {
        const QString error = loadWorkedExample();
        if (!error.isEmpty())
            QMessageBox::warning(this, tr("Worked example"), app::oneLineText(error));
    });
    help->addSeparator();
    help->addAction(tr("&About LogitLab"), this, &MainWindow::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

QStringList MainWindow::recentFiles() const { return QSettings().value(kRecentKey).toStringList(); }

QStringList MainWindow::recentModels() const { return QSettings().value(kRecentModelsKey).toStringList(); }

void MainWindow::rememberRecent(const QString& path)
{
    rememberIn(kRecentKey, path, kMaxRecentFiles);
    rebuildRecentMenu();
}

void MainWindow::rememberRecentModel(const QString& path)
{
    rememberIn(kRecentModelsKey, path, kMaxRecentFiles);
    rebuildRecentModelsMenu();
}

void MainWindow::rebuildRecentMenu()
{
    fillRecentMenu(
        m_recentMenu, kRecentKey, this,
        [this](const QString& path) {
            if (!settleUnsaved(pageFor(path)))
                return;
            const QString error = openExperimentFrom(path);
            if (!error.isEmpty())
                QMessageBox::warning(this, tr("Open experiment"), app::oneLineText(error));
        },
        [this] { rebuildRecentMenu(); });
}

void MainWindow::rebuildRecentModelsMenu()
{
    fillRecentMenu(
        m_recentModelsMenu, kRecentModelsKey, this,
        [this](const QString& path) {
            const QString error = openModelFrom(path);
            if (!error.isEmpty())
                QMessageBox::warning(this, tr("Open model"), app::oneLineText(error));
        },
        [this] { rebuildRecentModelsMenu(); });
}

PresentationWindow* MainWindow::presentation() const { return m_presentation; }

void MainWindow::present()
{
    if (m_presentation) {
        m_presentation->close();
        return;
    }
    Page* page = currentPage();
    if (!page)
        return;
    m_presentation = new PresentationWindow(page, this);
    m_presentation->showFullScreen();
    m_presentation->activateWindow();
}

QString MainWindow::openModelFrom(const QString& path)
{
    // A missing file is said where the user is, not after a switch to the Loop page.
    if (!QFileInfo(path).isFile())
        return tr("%1: no such file").arg(path);
    // The page on screen when it runs models (all but Summation order), else the Loop.
    if (Page* current = currentPage();
        current && current != page(app::loopKind().id()) && current->openModel(path).isEmpty()) {
        rememberRecentModel(path);
        m_status->setText(tr("%1 chosen on the %2 page").arg(path, current->title()));
        return {};
    }
    Page* loop = page(app::loopKind().id());
    if (!loop)
        return tr("There is no page to run a model in.");
    showPage(loop);
    const QString error = loop->openModel(path);
    if (error.isEmpty()) {
        rememberRecentModel(path);
        m_status->setText(tr("Opening %1 on the Loop page…").arg(path));
    }
    return error;
}

void MainWindow::openModelInteractive()
{
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open model"), QString(), tr("GGUF models (*.gguf);;All files (*)"));
    if (path.isEmpty())
        return;
    const QString error = openModelFrom(path);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Open model"), app::oneLineText(error));
}

QString MainWindow::exportChartTo(const QString& path, int dpi)
{
    Page* page = currentPage();
    if (!page || !page->chart())
        return tr("This page has no chart to export.");
    const auto format = chartFormatFromName(QFileInfo(path).suffix());
    if (!format)
        return tr("%1: choose a .png, .svg or .pdf file name").arg(path);
    return exportChart(page->chart(), path, *format, page->provenance(), dpi);
}

QString MainWindow::exportTableTo(const QString& path)
{
    Page* page = currentPage();
    if (!page || !page->resultsModel())
        return tr("This page has no table to export.");
    if (const auto table = page->resultTable())
        return app::saveText(path, app::resultTableCsv(page->provenance(), *table));
    return app::saveText(path, app::modelToCsv(*page->resultsModel(), page->provenance()));
}

QString MainWindow::saveExperimentTo(const QString& path)
{
    Page* page = currentPage();
    if (!page)
        return tr("There is no page to save.");
    const QString error = page->saveExperiment(path);
    if (error.isEmpty()) {
        page->setFilePath(path);
        page->markSaved();
        updateTitle();
        rememberRecent(path);
        m_status->setText(tr("Saved %1").arg(path));
    }
    return error;
}

QString MainWindow::experimentFileName(const QString& typed)
{
    return QFileInfo(typed).suffix().isEmpty() ? typed + QStringLiteral(".logitlab.json") : typed;
}

Page* MainWindow::pageFor(const QString& path) const
{
    // A plain logits file is the Explorer's; a JSON file names its kind, whose page shows it.
    if (QFileInfo(path).suffix().compare(QLatin1String("json"), Qt::CaseInsensitive) != 0)
        return page(app::explorerKind().id()) ? page(app::explorerKind().id()) : currentPage();
    if (!app::inputFileProblem(path))
        if (const auto bytes = app::readInputFile(path))
            if (Page* found = page(app::sniffKindId(bytes.value())))
                return found;
    return currentPage();  // it reads the file and says what is wrong with it
}

QString MainWindow::openExperimentFrom(const QString& path)
{
    Page* page = pageFor(path);
    if (!page)
        return tr("There is no page to open it in.");
    showPage(page);
    const QString error = page->openExperiment(path);
    if (error.isEmpty()) {
        page->setFilePath(path);
        page->markSaved();
        updateTitle();
        rememberRecent(path);
        m_status->setText(tr("Opened %1").arg(path));
    }
    return error;
}

void MainWindow::copyChartImage()
{
    Page* page = currentPage();
    if (!page || !page->chart()) {
        m_status->setText(tr("This page has no chart to copy."));
        return;
    }
    QApplication::clipboard()->setImage(chartImage(page->chart()));
    m_status->setText(tr("Chart copied as an image"));
}

void MainWindow::copyTable()
{
    Page* page = currentPage();
    if (!page || !page->resultsModel()) {
        m_status->setText(tr("This page has no table to copy."));
        return;
    }
    buildTableText(false, tr("Copying the table..."), [this](const QString& text) {
        QApplication::clipboard()->setText(text);
        m_status->setText(tr("Table copied (tab-separated)"));
        return QString();
    });
}

void MainWindow::startTableExport(const QString& path)
{
    Page* page = currentPage();
    if (!page || !page->resultsModel()) {
        const QString error = tr("This page has no table to export.");
        QMessageBox::warning(this, tr("Export table"), app::oneLineText(error));
        emit tableTextDone(error);
        return;
    }
    buildTableText(true, tr("Writing %1...").arg(QFileInfo(path).fileName()), [this, path](const QString& text) {
        const QString error = app::saveText(path, text);
        if (!error.isEmpty())
            QMessageBox::warning(this, tr("Export table"), app::oneLineText(error));
        else
            m_status->setText(tr("Table written to %1").arg(path));
        return error;
    });
}

void MainWindow::buildTableText(bool csv, const QString& what, const std::function<QString(const QString&)>& finish)
{
    constexpr int kAtOnce = 20'000;  // rows written without a dialog (a few ms)
    constexpr int kSliceMs = 15;     // per pass of the event loop: the window still paints
    Page* page = currentPage();
    const auto table = csv ? page->resultTable() : std::nullopt;
    auto builder =
        table ? std::make_shared<app::TableTextBuilder>(*table, page->provenance())
              : std::make_shared<app::TableTextBuilder>(
                    *page->resultsModel(), csv ? std::optional<app::Provenance>(page->provenance()) : std::nullopt);
    if (builder->rowCount() <= kAtOnce) {
        builder->addRows(kAtOnce);
        emit tableTextDone(finish(builder->text()));
        return;
    }
    // Window-modal, so the table cannot be edited while it is read.
    auto* dialog = new QProgressDialog(what, tr("Cancel"), 0, builder->rowCount(), this);
    dialog->setWindowModality(Qt::WindowModal);
    dialog->setMinimumDuration(0);
    dialog->setAutoClose(false);
    dialog->setAutoReset(false);
    auto* timer = new QTimer(dialog);
    connect(timer, &QTimer::timeout, this, [this, dialog, timer, builder, finish] {
        if (!dialog->wasCanceled()) {
            QElapsedTimer slice;
            slice.start();
            while (!builder->finished() && slice.elapsed() < kSliceMs)
                builder->addRows(500);
            dialog->setValue(builder->rowsDone());
        }
        if (!dialog->wasCanceled() && !builder->finished())
            return;
        timer->stop();
        dialog->hide();
        dialog->deleteLater();
        if (dialog->wasCanceled()) {
            m_status->setText(
                tr("Stopped after %L1 of %L2 rows; nothing written").arg(builder->rowsDone()).arg(builder->rowCount()));
            emit tableTextDone(QStringLiteral("cancelled"));
            return;
        }
        emit tableTextDone(finish(builder->text()));
    });
    timer->start(0);
}

void MainWindow::exportChartInteractive()
{
    Page* page = currentPage();
    if (!page || !page->chart()) {
        QMessageBox::information(this, tr("Export chart"), tr("This page has no chart to export."));
        return;
    }
    ChartExportDialog dialog(page->chart(), page->title(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QString path = dialog.path();
    const QString error = exportChart(page->chart(), path, dialog.format(), page->provenance(), dialog.options());
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Export chart"), app::oneLineText(error));
    else
        m_status->setText(tr("Chart written to %1").arg(path));
}

void MainWindow::exportTableInteractive()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export table"), QString(), tr("CSV table (*.csv)"));
    if (!path.isEmpty())
        startTableExport(path);
}

void MainWindow::saveInteractive()
{
    // *.logitlab.json is LogitLab's file type (packaging/logitlab-mime.xml): double-clicking such
    // a file opens it here. A name the user ends in plain .json is kept as typed.
    const QString path = QFileDialog::getSaveFileName(this, tr("Save experiment"), QString(),
                                                      tr("LogitLab experiment (*.logitlab.json)"));
    if (path.isEmpty())
        return;
    const QString error = saveExperimentTo(experimentFileName(path));
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Save experiment"), app::oneLineText(error));
}

void MainWindow::openInteractive()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open experiment"), QString(),
                                                      tr("LogitLab experiment (*.logitlab.json *.json);;Logits (*.csv "
                                                         "*.txt *.tsv *.npy *.npz *.safetensors);;All files (*)"));
    if (path.isEmpty() || !settleUnsaved(pageFor(path)))
        return;
    const QString error = openExperimentFrom(path);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Open experiment"), app::oneLineText(error));
}

void MainWindow::showLesson()
{
    Page* page = currentPage();
    const QString html = page ? page->lessonHtml() : QString();
    QMessageBox box(this);
    box.setObjectName(QStringLiteral("lessonBox"));
    box.setWindowTitle(tr("What %1 shows").arg(page ? page->title() : tr("this page")));
    box.setTextFormat(Qt::RichText);
    box.setText(html.isEmpty() ? tr("This page has no lesson text yet.") : html);
    QPushButton* load = nullptr;
    if (page && !page->workedExample().isEmpty())
        load = box.addButton(tr("Load the worked example"), QMessageBox::AcceptRole);
    box.addButton(QMessageBox::Close);
    box.exec();
    if (load && box.clickedButton() == load) {
        const QString error = loadWorkedExample();
        if (!error.isEmpty())
            QMessageBox::warning(this, tr("Worked example"), app::oneLineText(error));
    }
}

QString MainWindow::loadWorkedExample()
{
    Page* page = currentPage();
    if (!page || page->workedExample().isEmpty())
        return tr("This page has no worked example.");
    // Not through openExperimentFrom: a compiled-in example is no recent file.
    const QString error = page->openExperiment(page->workedExample());
    if (error.isEmpty())
        m_status->setText(tr("Loaded the lesson's worked example for %1").arg(page->title()));
    return error;
}

QString MainWindow::aboutText() const
{
    return tr("<h3>LogitLab %1</h3><p>git %2 &middot; Qt %3 (built with %4)</p>"
              "<p>A workbench for experiments with how language models turn logits into text.</p>"
              "<p><b>Licences.</b> LogitLab: %5. It uses Qt %3 (Core, Gui, Widgets, Svg, Concurrent: "
              "LGPL-3.0; Charts: GPL-3.0), Eigen (MPL-2.0) and Boost (BSL-1.0). The Help texts are "
              "summaries written for LogitLab from its decoding lesson and, like the example files, "
              "are under LogitLab's licence.</p>")
        .arg(app::appVersion(), app::gitHash(), QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR),
             QStringLiteral(LOGITLAB_LICENSE));
}

void MainWindow::showAbout() { QMessageBox::about(this, tr("About LogitLab"), aboutText()); }

void MainWindow::showPageStatus(const QString& message)
{
    // A page working in the background must not overwrite what the page in view says.
    if (auto* from = qobject_cast<Page*>(sender()); from != nullptr && from != currentPage())
        return;
    m_status->setText(message);
}

void MainWindow::updateTitle()
{
    Page* page = currentPage();
    if (page == nullptr) {
        setWindowTitle(tr("LogitLab"));
        setWindowModified(false);
        return;
    }
    const QString file = page->filePath().isEmpty() ? tr("untitled") : QFileInfo(page->filePath()).fileName();
    // "[*]" is where Qt puts the modified mark.
    setWindowTitle(tr("%1[*] — %2 — LogitLab").arg(file, page->title()));
    setWindowModified(page->isModified());
}

bool MainWindow::settleUnsaved(Page* page)
{
    if (page == nullptr || !page->isModified())
        return true;
    const QString file = page->filePath().isEmpty() ? tr("untitled") : QFileInfo(page->filePath()).fileName();
    const QMessageBox::StandardButton choice =
        m_askUnsaved(tr("The %1 page has unsaved changes (%2). Save them first?").arg(page->title(), file));
    if (choice == QMessageBox::Discard)
        return true;
    if (choice != QMessageBox::Save)
        return false;
    showPage(page);
    QString path = page->filePath();
    if (path.isEmpty())
        path = QFileDialog::getSaveFileName(this, tr("Save experiment"), QString(),
                                            tr("LogitLab experiment (*.logitlab.json)"));
    if (path.isEmpty())
        return false;
    path = experimentFileName(path);
    const QString error = saveExperimentTo(path);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Save experiment"), app::oneLineText(error));
    return error.isEmpty();
}

void MainWindow::newOnCurrentPage()
{
    Page* page = currentPage();
    if (page == nullptr || !settleUnsaved(page))
        return;
    page->reset();
    page->setFilePath(QString());
    page->markSaved();
    updateTitle();
}

void MainWindow::setBusy(bool busy)
{
    m_progress->setVisible(busy);
    m_cancel->setVisible(busy);
    if (busy)
        m_progress->setRange(0, 0);  // until the page reports progress: a busy indicator
}

void MainWindow::restoreSplitters(QWidget* root) const
{
    const QSettings settings;
    for (QSplitter* splitter : root->findChildren<QSplitter*>())
        if (!splitter->objectName().isEmpty() && settings.contains(splitterKey(splitter)))
            splitter->restoreState(settings.value(splitterKey(splitter)).toByteArray());
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, saveState());
    for (QSplitter* splitter : findChildren<QSplitter*>())
        if (!splitter->objectName().isEmpty())
            settings.setValue(splitterKey(splitter), splitter->saveState());
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    for (int i = 0; i < m_pages->count(); ++i)
        if (!settleUnsaved(qobject_cast<Page*>(m_pages->widget(i)))) {
            event->ignore();
            return;
        }
    saveSettings();
    // Work under way stops now; each page's controllers wait for their workers when destroyed.
    for (int i = 0; i < m_pages->count(); ++i)
        if (auto* page = qobject_cast<Page*>(m_pages->widget(i)))
            page->cancel();
    QMainWindow::closeEvent(event);
}

}  // namespace logitlab::ui
