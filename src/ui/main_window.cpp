#include "main_window.h"

#include "build_info.h"
#include "chart_export.h"
#include "model_csv.h"
#include "page.h"
#include "save_text.h"

#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeySequence>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>

namespace logitlab::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      m_pageList(new QListWidget),
      m_pages(new QStackedWidget),
      m_status(new QLabel),
      m_progress(new QProgressBar),
      m_cancel(new QPushButton(tr("Cancel")))
{
    setWindowTitle(tr("LogitLab"));
    m_pageList->setMaximumWidth(200);
    m_pageList->setMinimumWidth(120);
    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(m_pageList);
    splitter->addWidget(m_pages);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({150, 1130});
    setCentralWidget(splitter);

    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    m_progress->setMaximumWidth(200);
    m_progress->hide();
    m_cancel->hide();
    m_cancel->setToolTip(tr("Stop the running experiment (Esc)"));
    m_cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        if (Page* page = currentPage())
            page->cancel();
    });
    connect(m_pageList, &QListWidget::currentRowChanged, m_pages, &QStackedWidget::setCurrentIndex);

    createMenus();
    m_status->setText(tr("Ready"));
}

void MainWindow::addPage(Page* page)
{
    m_pages->addWidget(page);
    m_pageList->addItem(page->title());
    connect(page, &Page::statusMessage, this, &MainWindow::showPageStatus);
    connect(page, &Page::busyChanged, this, &MainWindow::setBusy);
    connect(page, &Page::progressChanged, this, [this](int done, int total) {
        m_progress->setRange(0, total);
        m_progress->setValue(done);
    });
    if (m_pageList->currentRow() < 0)
        m_pageList->setCurrentRow(0);
}

Page* MainWindow::currentPage() const
{
    return qobject_cast<Page*>(m_pages->currentWidget());
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* exportChart = file->addAction(tr("Export &chart..."), this, &MainWindow::exportChartInteractive);
    exportChart->setShortcut(QKeySequence(tr("Ctrl+E")));
    QAction* exportTable = file->addAction(tr("Export &table as CSV..."), this, &MainWindow::exportTableInteractive);
    exportTable->setShortcut(QKeySequence(tr("Ctrl+Shift+E")));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About LogitLab"), this, &MainWindow::showAbout);
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
    return app::saveText(path, app::modelToCsv(*page->resultsModel(), page->provenance()));
}

void MainWindow::exportChartInteractive()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export chart"), QString(),
                                                      tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
    if (path.isEmpty())
        return;
    const QString error = exportChartTo(path);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Export chart"), error);
    else
        m_status->setText(tr("Chart written to %1").arg(path));
}

void MainWindow::exportTableInteractive()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export table"), QString(), tr("CSV table (*.csv)"));
    if (path.isEmpty())
        return;
    const QString error = exportTableTo(path);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Export table"), error);
    else
        m_status->setText(tr("Table written to %1").arg(path));
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About LogitLab"),
                       tr("<h3>LogitLab %1</h3><p>git %2</p><p>A workbench for experiments with how language "
                          "models turn logits into text.</p>")
                           .arg(app::appVersion(), app::gitHash()));
}

void MainWindow::showPageStatus(const QString& message)
{
    m_status->setText(message);
}

void MainWindow::setBusy(bool busy)
{
    m_progress->setVisible(busy);
    m_cancel->setVisible(busy);
}

}  // namespace logitlab::ui
