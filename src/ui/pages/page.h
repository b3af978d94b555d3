// The contract between the main window and an experiment page: a title for the page list, the
// chart and results table the File menu exports, the provenance those exports carry, the undo
// stack the Edit menu drives, saving and opening the page's experiment, the lesson behind it
// for the Help menu, signals for the status bar (messages, progress, busy state), and the
// hand-off of work between pages: a page offers a distribution to another page by id, and the
// window gives it to that page and shows it.
#pragma once

#include "app/io/provenance.h"
#include "app/kinds/result_table.h"
#include "ui/pages/hand_off.h"

#include <QWidget>

#include <optional>

QT_BEGIN_NAMESPACE
class QAbstractItemModel;
class QChart;
class QUndoStack;
QT_END_NAMESPACE

namespace logitlab::ui {

class Page : public QWidget {
    Q_OBJECT
public:
    // Every page takes typed numbers on commit (numeric_entry.h), wherever it is shown.
    explicit Page(QWidget* parent = nullptr);

    // A name other pages hand work to, e.g. "junk-risk"; empty when the page takes none.
    virtual QString id() const { return {}; }
    virtual QString title() const = 0;
    virtual QChart* chart() const { return nullptr; }
    virtual QAbstractItemModel* resultsModel() const { return nullptr; }
    // The table File > Export table writes: the same columns and rows `logitlab-cli run` writes
    // for the page's experiment. Pages without one export resultsModel() as shown.
    virtual std::optional<app::ResultTable> resultTable() const { return std::nullopt; }
    virtual app::Provenance provenance() const = 0;
    // Stops long work the page runs (the status bar's Cancel). Pages without any ignore it.
    virtual void cancel() {}
    // Parameter and table edits, for Edit > Undo/Redo; nullptr when the page has none.
    virtual QUndoStack* undoStack() const { return nullptr; }
    // The lesson behind the page, as short HTML for Help: ":/lessons/<id>.html" unless overridden.
    virtual QString lessonHtml() const;
    // The lesson's worked example for the page, a file openExperiment() reads (Help loads it):
    // ":/examples/<id>-lesson.json" when the build compiled one in, else empty.
    virtual QString workedExample() const;
    // File > New: back to the page's starting point (undoable where the page has undo).
    virtual void reset() {}
    // Whether the page holds edits its file (or, never saved, its starting point) lacks: the
    // window marks its title and asks before New, Open or Quit would drop them.
    virtual bool isModified() const { return false; }
    // What the page shows now is what its file holds (after Save, Open or New).
    virtual void markSaved() {}
    // The file the page was last opened from or saved to; empty when none.
    QString filePath() const { return m_filePath; }
    void setFilePath(const QString& path) { m_filePath = path; }
    // File > Save/Open experiment. Return an empty string on success, else a message.
    virtual QString saveExperiment(const QString& path)
    {
        return tr("%1: the %2 page has nothing to save").arg(path, title());
    }
    virtual QString openExperiment(const QString& path)
    {
        return tr("%1: the %2 page cannot open files").arg(path, title());
    }
    // File > Open model: the page runs the GGUF model at `path` (opened on a worker); an empty
    // string when it took it, else why not.
    virtual QString openModel(const QString& path) { return tr("%1: the %2 page runs no models").arg(path, title()); }
    // View > Present: the page's view for a class, large (the caller owns it); null: the page's
    // chart, drawn large (ChartPicture).
    virtual QWidget* createPresentation() { return nullptr; }
    // Work handed over by another page (the Explorer's table, a Loop step): true when the page
    // took it and now shows it, ready to run.
    virtual bool acceptDistribution(const HandOff& handOff)
    {
        Q_UNUSED(handOff);
        return false;
    }

signals:
    void statusMessage(const QString& message);
    void progressChanged(int done, int total);
    void busyChanged(bool busy);
    // isModified() may have changed.
    void modifiedChanged();
    // Asks the window to hand `handOff` to the page whose id() is `target` and show it.
    void distributionOffered(const QString& target, const logitlab::ui::HandOff& handOff);

private:
    QString m_filePath;
};

}  // namespace logitlab::ui
