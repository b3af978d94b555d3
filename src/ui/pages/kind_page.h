// The one page shape every experiment kind has: its form on the left, its results on the right.
// Run hands the form's JSON to the kind's own run() (the same call `logitlab-cli run` makes)
// on the page's RunController, and the ResultsPane shows the ExperimentResult that comes back:
// summary, charts from experimentCharts(), tables. Open, Save, the stale banner, the first-show
// run, the provenance and the exports are written here once; a kind brings a KindForm and, when
// it has them, views of its own (pageTab()).
#pragma once

#include "app/kinds/experiment_kind.h"
#include "app/run/run_controller.h"
#include "ui/pages/experiment_page.h"

QT_BEGIN_NAMESPACE
class QGroupBox;
QT_END_NAMESPACE

namespace logitlab::ui {

class KindForm;
class ResultsPane;

class KindPage : public ExperimentPage {
    Q_OBJECT
public:
    // The page takes `form` (reparented). `kind` lives as long as the program (the registry's).
    KindPage(const app::ExperimentKind& kind, KindForm* form, QWidget* parent = nullptr);
    ~KindPage() override;

    QString id() const override { return m_kind.id(); }
    QString title() const override { return m_kind.title(); }
    QChart* chart() const override;
    QAbstractItemModel* resultsModel() const override;
    std::optional<app::ResultTable> resultTable() const override;
    app::Provenance provenance() const override;
    void reset() override;
    void run() override;
    // File > Open model: the form takes the model (KindForm::useModel) and, unless the page says
    // otherwise, the page runs it.
    QString openModel(const QString& path) override;

    const app::ExperimentKind& kind() const { return m_kind; }
    KindForm* form() const { return m_form; }
    ResultsPane* results() const { return m_results; }
    // Whether the first show runs the controls' experiment (pages that must show something).
    void setRunOnFirstShow(bool run) { m_runOnFirstShow = run; }
    // Whether File > Open model runs at once (a study that can take minutes waits for Run).
    void setRunOnOpenModel(bool run) { m_runOnOpenModel = run; }

signals:
    // A finished run's result is on screen.
    void resultShown();

protected:
    QString readExperimentFile(const QString& path) override;
    QString writeExperimentFile(const QString& path) override;
    QJsonObject controlsJson() const override;
    void showEvent(QShowEvent* event) override;
    // The box around the form and the page's buttons, for a page that adds rows under it.
    QGroupBox* controlBox() const { return m_controlBox; }

private:
    void showResult(app::ExperimentResult& result);

    const app::ExperimentKind& m_kind;
    KindForm* m_form;
    ResultsPane* m_results;
    QGroupBox* m_controlBox;
    app::RunController<app::ExperimentResult>* m_runs;
    bool m_runOnFirstShow = true;
    bool m_runOnOpenModel = true;
    bool m_shownOnce = false;
};

}  // namespace logitlab::ui
