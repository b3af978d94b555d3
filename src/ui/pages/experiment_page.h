// What every experiment page shares, written once: the Open / Save / Run / Cancel buttons and
// their file dialogs, the error label next to the controls, and the run lifecycle on a
// RunController. One run at a time (a new Run supersedes the one in flight, whose result is
// dropped); Run and Cancel enabled to match; progress and busy to the status bar, busy counted
// over every controller the page registers; a finished outcome to the page's own display, a
// failed one to the error label, a cancelled one leaving the previous results as they were.
// A page brings its controls, its file format and what it shows of an outcome. Results on
// screen are marked stale (a banner over them) while the controls describe another experiment
// than the one they were computed for, so a chart never silently answers other settings.
#pragma once

#include "app/run/run_controller.h"
#include "ui/pages/page.h"

#include <QJsonObject>
#include <QList>

#include <optional>

#include <functional>

QT_BEGIN_NAMESPACE
class QLabel;
class QPushButton;
QT_END_NAMESPACE

namespace logitlab::app {
class BusyCounter;
}

namespace logitlab::ui {

class ExperimentPage : public Page {
    Q_OBJECT
public:
    explicit ExperimentPage(QWidget* parent = nullptr);
    ~ExperimentPage() override;  // cancels every run of the page and waits for its workers

    // Stops every run of the page. A stopped experiment run ends with runEnded(false).
    void cancel() override;
    // File > Open/Save experiment and the page's own buttons: the error is shown inline and
    // returned, success goes to the status bar.
    QString openExperiment(const QString& path) override;
    QString saveExperiment(const QString& path) override;
    QString openFile(const QString& path) { return openExperiment(path); }
    QString saveFile(const QString& path) { return saveExperiment(path); }

    // Runs the experiment the controls describe; bad controls are shown inline instead.
    virtual void run() = 0;
    bool isRunning() const;  // the experiment run (not other work such as a replay)
    QLabel* errorLabel() const { return m_error; }
    // Modified: the controls describe another experiment than the one last saved or opened.
    bool isModified() const override;
    void markSaved() override;
    // Whether the results shown were computed for other settings than the controls show now.
    bool resultsStale() const;
    QLabel* staleLabel() const { return m_stale; }

signals:
    // After every experiment run: finished with results, or not (cancelled or failed). Never
    // from inside run() or cancel(): always from the event loop.
    void runEnded(bool completed);

protected:
    // The page's file format: empty on success, else the message (naming the file and field).
    virtual QString readExperimentFile(const QString& path) = 0;
    virtual QString writeExperimentFile(const QString& path) = 0;
    // Run, Cancel or other work started or ended: enable the page's controls to match.
    virtual void runStateChanged() {}
    // The experiment the controls describe now, as its file's JSON (empty when they are
    // invalid): what shown results are compared with.
    virtual QJsonObject controlsJson() const = 0;
    // Every value control under `panel` (spin boxes, combo boxes, check boxes, text) rechecks
    // staleness when it changes. Display-only controls are listed in `except`.
    void watchControls(QWidget* panel, const QList<QWidget*>& except = {});
    // The page has just shown results computed for `spec` (its JSON, as controlsJson()).
    void resultsShownFor(const QJsonObject& spec);
    // Shows or hides the stale banner and reports a change of isModified() (after a
    // programmatic change of the controls, say).
    void updateStale();

    // The experiment's controller (Run/Cancel follow it); a child of the page.
    void setExperimentRuns(app::RunControllerBase* runs);
    // Other background work of the page (a child): counted in busy, stopped by cancel().
    void addRuns(app::RunControllerBase* runs);

    // Starts a run on the experiment's controller. `Outcome` has `status`, `draws` and
    // `seconds`; `show` puts a finished one on screen.
    template <class Outcome>
    void startRun(app::RunController<Outcome>& runs, const QString& message,
                  typename app::RunController<Outcome>::Job job, std::function<void(Outcome&)> show)
    {
        showError(QString());
        runs.start(std::move(job), [this, show = std::move(show)](Outcome& outcome) {
            if (!outcome.status.finished()) {
                showError(outcome.status.message);
                runFinished(false);
                return;
            }
            show(outcome);
            // `draws` counts draws unless the outcome names what it counts (sums, evaluations).
            QString noun = tr("draws");
            if constexpr (requires { Outcome::kWorkNoun; })
                noun = tr(Outcome::kWorkNoun);
            emit statusMessage(tr("%L1 %2 in %3 s").arg(outcome.draws).arg(noun).arg(outcome.seconds, 0, 'f', 2));
            runFinished(true);
        });
        emit statusMessage(message);
        runStateChanged();
    }

    // Shows `message` next to the controls (and in the status bar); empty hides it.
    void showError(const QString& message);
    // Where relative paths in the experiment file are resolved; the file dialogs start there.
    QString baseDir() const { return m_baseDir; }
    void setBaseDir(const QString& dir) { m_baseDir = dir; }

    QPushButton* openButton() const { return m_open; }
    QPushButton* saveButton() const { return m_save; }
    QPushButton* runButton() const { return m_run; }
    // Renames Run and keeps its Ctrl+R (QAbstractButton::setText would replace it with the
    // text's mnemonic).
    void setRunText(const QString& text);
    QPushButton* cancelButton() const { return m_cancel; }

private:
    void runFinished(bool completed);
    void updateButtons();

    app::BusyCounter* m_busy;
    app::RunControllerBase* m_experimentRuns = nullptr;
    QList<app::RunControllerBase*> m_runs;  // every controller of the page, the experiment's included
    QString m_baseDir;
    QPushButton* m_open;
    QPushButton* m_save;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QLabel* m_error;
    QLabel* m_stale;
    std::optional<QJsonObject> m_shownSpec;  // what the results on screen were computed for
    std::optional<QJsonObject> m_savedSpec;  // what the page's file holds (its start until saved)
    bool m_reportedModified = false;
    bool m_staleCheckQueued = false;
};

}  // namespace logitlab::ui
