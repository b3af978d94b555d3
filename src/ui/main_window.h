// The main window: the list of experiment pages on the left, the page in the centre, menus,
// and a status bar with progress and Cancel for long work. It only wires pages together; pages
// do their own work.
#pragma once

#include <QMainWindow>

QT_BEGIN_NAMESPACE
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QStackedWidget;
QT_END_NAMESPACE

namespace logitlab::ui {

class Page;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    void addPage(Page* page);
    Page* currentPage() const;
    QListWidget* pageList() const { return m_pageList; }

    // File menu actions, also used by tests.
    QString exportChartTo(const QString& path, int dpi = 300);
    QString exportTableTo(const QString& path);

private:
    void createMenus();
    void exportChartInteractive();
    void exportTableInteractive();
    void showAbout();
    void showPageStatus(const QString& message);
    void setBusy(bool busy);

    QListWidget* m_pageList;
    QStackedWidget* m_pages;
    QLabel* m_status;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
};

}  // namespace logitlab::ui
