// The main window: the list of experiment pages on the left, the page in the centre, the
// menus (File, Edit, View, Help) with standard shortcuts, and a status bar with progress and
// Cancel for long work. It only wires pages together; pages do their own work. Window
// geometry, every named splitter's sizes and the recent files persist in QSettings.
#pragma once

#include "ui/pages/hand_off.h"

#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>

#include <functional>

QT_BEGIN_NAMESPACE
class QAction;
class QLabel;
class QListWidget;
class QMenu;
class QProgressBar;
class QPushButton;
class QSplitter;
class QStackedWidget;
class QUndoGroup;
QT_END_NAMESPACE

namespace logitlab::app {
class BusyCounter;
}

namespace logitlab::ui {

class Page;
class PresentationWindow;
class PresentationZoom;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    static constexpr int kMaxRecentFiles = 8;

    explicit MainWindow(QWidget* parent = nullptr);

    // Adds a page to the list (the first one added is shown) and restores its splitters.
    void addPage(Page* page);
    // Whether any page has work under way (--screenshot waits for it).
    bool anyPageBusy() const;
    Page* currentPage() const;
    // The page whose id() is `id`, or nullptr.
    Page* page(const QString& id) const;
    void showPage(Page* page);
    // Gives `distribution` to the page `target` and shows it when the page takes it; the
    // pages' distributionOffered() comes here. Returns whether a page took it.
    bool handOff(const QString& target, const HandOff& handOff);
    QListWidget* pageList() const { return m_pageList; }
    QUndoGroup* undoGroup() const { return m_undoGroup; }
    PresentationZoom* zoom() const { return m_zoom; }
    QStringList recentFiles() const;
    QStringList recentModels() const;

    // Menu actions without their dialogs, also used by tests. Each returns an empty string on
    // success, else the message it showed.
    QString exportChartTo(const QString& path, int dpi = 300);
    QString exportTableTo(const QString& path);
    QString saveExperimentTo(const QString& path);
    // The name Save experiment writes for what was typed: ".logitlab.json" added when it has no
    // extension (LogitLab's file type, packaging/logitlab-mime.xml), else as typed.
    static QString experimentFileName(const QString& typed);
    // Opens on the page of the file's kind (an experiment's "experiment", an Explorer state,
    // a plain logits file for the Explorer) and shows that page.
    QString openExperimentFrom(const QString& path);
    // File > Open model: the page on screen runs the GGUF model when it runs models (all but
    // Summation order), else the Loop page does and is shown.
    QString openModelFrom(const QString& path);
    // View > Present (F5): the current page full screen in large type (PresentationWindow);
    // again while it is open, it closes.
    void present();
    PresentationWindow* presentation() const;
    Page* pageFor(const QString& path) const;
    void copyChartImage();
    // Copy table and the table export of File > Export read a large table a slice of rows per
    // pass of the event loop, under a window-modal progress dialog with Cancel, so the window
    // keeps painting; a small one is written at once. Each ends with tableTextDone().
    void copyTable();
    void startTableExport(const QString& path);
    // Help: opens the current page's worked example on it (empty string on success, else why
    // not), and the About box's text (version, git hash, Qt, licences).
    QString loadWorkedExample();
    // The page list as wide as its longest name at the current zoom.
    void fitPageList();
    // View > Controls (Ctrl+K): every page's column of controls shown or hidden.
    void showControls(bool on);
    QAction* controlsAction() const { return m_controlsAction; }
    QString aboutText() const;

    void saveSettings() const;

    // How the window asks before New, Open or Quit drops a page's unsaved changes: Save,
    // Discard or Cancel. A message box by default; tests answer it themselves.
    using UnsavedQuestion = std::function<QMessageBox::StandardButton(const QString& question)>;
    void setUnsavedQuestion(UnsavedQuestion ask) { m_askUnsaved = std::move(ask); }
    // File > New on the current page, after settling its unsaved changes.
    void newOnCurrentPage();

signals:
    // `error` is empty on success, "cancelled" when the user stopped it, else why it failed.
    void tableTextDone(const QString& error);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createMenus();
    void restoreSplitters(QWidget* root) const;
    void rememberRecent(const QString& path);
    void rememberRecentModel(const QString& path);
    void rebuildRecentMenu();
    void rebuildRecentModelsMenu();
    void openModelInteractive();
    void exportChartInteractive();
    void exportTableInteractive();
    void saveInteractive();
    void openInteractive();
    void showLesson();
    void showAbout();
    void showPageStatus(const QString& message);
    void setBusy(bool busy);  // from the count of busy pages
    void buildTableText(bool csv, const QString& what, const std::function<QString(const QString&)>& finish);
    void pageChanged(int index);
    void updateTitle();  // the current page's file, [*] when it has unsaved changes
    // True when `page` may drop what it holds: nothing unsaved, or saved, or discarded.
    bool settleUnsaved(Page* page);

    QListWidget* m_pageList;
    QAction* m_controlsAction = nullptr;
    QStackedWidget* m_pages;
    QSplitter* m_splitter;
    QUndoGroup* m_undoGroup;
    app::BusyCounter* m_busyPages;  // pages with work under way: the bar shows while any has
    QMenu* m_recentMenu = nullptr;
    QMenu* m_recentModelsMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QLabel* m_status;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    PresentationZoom* m_zoom;
    UnsavedQuestion m_askUnsaved;
    QPointer<PresentationWindow> m_presentation;
};

}  // namespace logitlab::ui
