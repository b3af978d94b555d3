#include "ui/pages/kind_page.h"

#include "app/io/experiment_file.h"
#include "app/io/save_text.h"
#include "ui/forms/kind_form.h"
#include "ui/models/result_table_model.h"
#include "ui/pages/control_scroll.h"
#include "ui/pages/results_pane.h"

#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QShowEvent>
#include <QSplitter>
#include <QVBoxLayout>

namespace logitlab::ui {

KindPage::KindPage(const app::ExperimentKind& kind, KindForm* form, QWidget* parent)
    : ExperimentPage(parent), m_kind(kind), m_form(form), m_results(new ResultsPane),
      m_controlBox(new QGroupBox(tr("Experiment"))),
      m_runs(new app::RunController<app::ExperimentResult>(app::RunControllerBase::Mode::Supersede, this))
{
    setExperimentRuns(m_runs);
    auto* buttons = new QHBoxLayout;
    for (QPushButton* b : {openButton(), saveButton(), runButton(), cancelButton()})
        buttons->addWidget(b);
    auto* controls = new QVBoxLayout(m_controlBox);
    controls->addWidget(m_form);
    controls->addLayout(buttons);
    controls->addWidget(errorLabel());
    controls->addStretch();

    auto* right = new QWidget;
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(staleLabel());
    rightLayout->addWidget(m_results, 1);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(controlScroll(m_controlBox));  // scrolls rather than squeezes on a small screen
    split->addWidget(right);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    m_results->setSummaryText(tr("Press Run (Ctrl+R) to compute the experiment the controls describe."));
    connect(m_results, &ResultsPane::resultShown, this, &KindPage::resultShown);
    watchControls(m_form, m_form->displayOnlyControls());
    markSaved();
}

KindPage::~KindPage() = default;

QChart* KindPage::chart() const { return m_results->currentChart(); }

QAbstractItemModel* KindPage::resultsModel() const { return m_results->model(); }

std::optional<app::ResultTable> KindPage::resultTable() const { return m_results->currentTable(); }

app::Provenance KindPage::provenance() const
{
    if (const app::ExperimentResult* shown = m_results->result())
        return shown->provenance;
    // Nothing run yet: what an export would be of, the controls' experiment.
    app::Provenance provenance(m_kind.id());
    const auto json = m_form->experimentJson();
    if (json)
        provenance.add(QStringLiteral("experiment file"),
                       QString::fromUtf8(QJsonDocument(json.value()).toJson(QJsonDocument::Compact)));
    return provenance;
}

QString KindPage::openModel(const QString& path)
{
    const QFileInfo info(path);
    if (!info.isFile())
        return tr("%1: no such file").arg(path);
    if (!m_form->useModel(info.absoluteFilePath()))
        return ExperimentPage::openModel(path);
    if (m_runOnOpenModel)
        run();
    return {};
}

void KindPage::reset()
{
    m_form->reset();
    setBaseDir(m_form->baseDir());
}

QJsonObject KindPage::controlsJson() const
{
    const auto json = m_form->experimentJson();
    return json ? json.value() : QJsonObject();
}

QString KindPage::readExperimentFile(const QString& path)
{
    const auto root = app::readExperimentJson(path);
    if (!root)
        return QString::fromStdString(root.error());
    const QString error = m_form->setExperimentJson(root.value(), path, QFileInfo(path).absolutePath());
    if (error.isEmpty())
        setBaseDir(m_form->baseDir());
    return error;
}

QString KindPage::writeExperimentFile(const QString& path)
{
    const auto json = m_form->experimentJson();
    if (!json)
        return QString::fromStdString(json.error());
    return app::saveBytes(path, QJsonDocument(json.value()).toJson(QJsonDocument::Indented));
}

void KindPage::run()
{
    const auto json = m_form->experimentJson();
    if (!json) {
        showError(QString::fromStdString(json.error()));
        return;
    }
    showError(QString());
    app::RunContext context{tr("page"), m_form->baseDir(), m_form->workerThreads(), {}};
    m_runs->start(
        [kind = &m_kind, root = json.value(), context](const app::WorkControl& control) {
            app::RunContext c = context;
            c.control = control;
            return kind->run(root, c);
        },
        [this, root = json.value()](app::ExperimentResult& result) {
            if (!result.status.finished()) {
                showError(result.status.message);
                runStateChanged();
                emit runEnded(false);
                return;
            }
            showResult(result);
            resultsShownFor(root);
            runStateChanged();
            emit runEnded(true);
        });
    emit statusMessage(tr("Running %1…").arg(m_kind.title()));
    runStateChanged();
}

void KindPage::showResult(app::ExperimentResult& result)
{
    const QString summary = result.summary;
    m_results->setResult(std::move(result));
    emit statusMessage(summary);
}

void KindPage::showEvent(QShowEvent* event)
{
    ExperimentPage::showEvent(event);
    // Never a blank pane: the first time the page is on screen without results, run what the
    // controls describe.
    if (m_shownOnce || !m_runOnFirstShow)
        return;
    m_shownOnce = true;
    if (!m_results->hasResult() && !isRunning())
        run();
}

}  // namespace logitlab::ui
