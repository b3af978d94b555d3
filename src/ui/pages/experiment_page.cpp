#include "ui/pages/experiment_page.h"

#include "app/run/busy_counter.h"
#include "app/text/one_line_text.h"
#include "ui/forms/numeric_entry.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMetaObject>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>

namespace logitlab::ui {

ExperimentPage::ExperimentPage(QWidget* parent)
    : Page(parent), m_busy(new app::BusyCounter(this)), m_open(new QPushButton(tr("Open…"))),
      m_save(new QPushButton(tr("Save…"))), m_run(new QPushButton(tr("&Run"))), m_cancel(new QPushButton(tr("Cancel"))),
      m_error(new QLabel),
      m_stale(new QLabel(tr("These results are for earlier settings: the controls have changed since the run. "
                            "Press Run (Ctrl+R) to compute them for the settings shown.")))
{
    m_stale->setObjectName(QStringLiteral("staleLabel"));
    m_stale->setWordWrap(true);
    m_stale->setStyleSheet(
        QStringLiteral("background: #fff3cd; color: #5c4400; padding: 4px; border: 1px solid #e0c36c"));
    m_stale->hide();
    setRunText(m_run->text());
    m_error->setObjectName(QStringLiteral("errorLabel"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b00020"));
    m_error->setTextFormat(Qt::PlainText);  // a token like "<b>" in a message is text
    m_error->hide();
    m_cancel->setEnabled(false);
    connect(m_busy, &app::BusyCounter::busyChanged, this, &Page::busyChanged);
    connect(m_run, &QPushButton::clicked, this, [this] {
        NumericEntry::commitTyped();  // Ctrl+R in a box: the value it shows
        run();
    });
    connect(m_cancel, &QPushButton::clicked, this, &ExperimentPage::cancel);
    connect(m_open, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open experiment"), m_baseDir, tr("Experiment files (*.json)"));
        if (!path.isEmpty())
            openExperiment(path);
    });
    connect(m_save, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save experiment"), m_baseDir, tr("Experiment files (*.json)"));
        if (!path.isEmpty())
            saveExperiment(path);
    });
}

void ExperimentPage::setRunText(const QString& text)
{
    m_run->setText(text);
    m_run->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
}

ExperimentPage::~ExperimentPage()
{
    // The window may be half destroyed: nothing the stop reports may reach it.
    blockSignals(true);
    for (app::RunControllerBase* runs : m_runs) {
        runs->blockSignals(true);
        runs->cancel();
    }
    for (app::RunControllerBase* runs : m_runs)
        runs->waitForWorkers();
}

void ExperimentPage::setExperimentRuns(app::RunControllerBase* runs)
{
    addRuns(runs);
    m_experimentRuns = runs;
    connect(runs, &app::RunControllerBase::progressChanged, this, &Page::progressChanged);
    connect(runs, &app::RunControllerBase::failed, this, [this](int, const QString& message) {
        showError(message);
        runFinished(false);
    });
}

void ExperimentPage::addRuns(app::RunControllerBase* runs)
{
    m_runs << runs;
    connect(runs, &app::RunControllerBase::busyChanged, m_busy, &app::BusyCounter::change);
    connect(runs, &app::RunControllerBase::busyChanged, this, &ExperimentPage::updateButtons);
}

bool ExperimentPage::isRunning() const { return m_experimentRuns && m_experimentRuns->isRunning(); }

void ExperimentPage::cancel()
{
    bool stoppedExperiment = false;
    for (app::RunControllerBase* runs : m_runs)
        if (runs->cancel() && runs == m_experimentRuns)
            stoppedExperiment = true;
    if (!stoppedExperiment)
        return;
    emit statusMessage(tr("Cancelled; the results shown are from the previous run"));
    QMetaObject::invokeMethod(
        this, [this] { emit runEnded(false); }, Qt::QueuedConnection);
}

void ExperimentPage::runFinished(bool completed)
{
    runStateChanged();
    emit runEnded(completed);
}

void ExperimentPage::updateButtons()
{
    const bool running = isRunning();
    m_run->setEnabled(!running);
    m_cancel->setEnabled(running);
    runStateChanged();
}

QString ExperimentPage::openExperiment(const QString& path)
{
    const QString error = readExperimentFile(path);
    showError(error);
    if (error.isEmpty()) {
        setFilePath(path);
        markSaved();
        emit statusMessage(tr("Opened %1").arg(path));
    }
    return error;
}

QString ExperimentPage::saveExperiment(const QString& path)
{
    NumericEntry::commitTyped();  // Ctrl+S in a box: the value it shows is saved
    const QString error = writeExperimentFile(path);
    showError(error);
    if (error.isEmpty()) {
        setFilePath(path);
        markSaved();
        emit statusMessage(tr("Saved %1").arg(path));
    }
    return error;
}

bool ExperimentPage::resultsStale() const { return m_shownSpec.has_value() && controlsJson() != *m_shownSpec; }

void ExperimentPage::watchControls(QWidget* panel, const QList<QWidget*>& except)
{
    // Several controls change together when a file or a hand-off sets them: one check after.
    const auto queueCheck = [this] {
        if (m_staleCheckQueued)
            return;
        m_staleCheckQueued = true;
        QMetaObject::invokeMethod(
            this,
            [this] {
                m_staleCheckQueued = false;
                updateStale();
            },
            Qt::QueuedConnection);
    };
    for (QWidget* w : panel->findChildren<QWidget*>()) {
        if (except.contains(w))
            continue;
        if (auto* box = qobject_cast<QSpinBox*>(w))
            connect(box, &QSpinBox::valueChanged, this, queueCheck);
        else if (auto* box = qobject_cast<QDoubleSpinBox*>(w))
            connect(box, &QDoubleSpinBox::valueChanged, this, queueCheck);
        else if (auto* combo = qobject_cast<QComboBox*>(w))
            connect(combo, &QComboBox::currentIndexChanged, this, queueCheck);
        else if (auto* check = qobject_cast<QCheckBox*>(w))
            connect(check, &QCheckBox::toggled, this, queueCheck);
        else if (auto* line = qobject_cast<QLineEdit*>(w);
                 line != nullptr && qobject_cast<QAbstractSpinBox*>(w->parentWidget()) == nullptr)
            connect(line, &QLineEdit::textChanged, this, queueCheck);
        else if (auto* text = qobject_cast<QPlainTextEdit*>(w))
            connect(text, &QPlainTextEdit::textChanged, this, queueCheck);
    }
}

void ExperimentPage::resultsShownFor(const QJsonObject& spec)
{
    m_shownSpec = spec;
    updateStale();
}

void ExperimentPage::updateStale()
{
    m_stale->setVisible(resultsStale());
    if (isModified() != m_reportedModified) {
        m_reportedModified = !m_reportedModified;
        emit modifiedChanged();
    }
}

bool ExperimentPage::isModified() const { return m_savedSpec.has_value() && controlsJson() != *m_savedSpec; }

void ExperimentPage::markSaved()
{
    m_savedSpec = controlsJson();
    updateStale();
}

void ExperimentPage::showError(const QString& raw)
{
    const QString message = app::oneLineText(raw);  // it may quote a file's bytes
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
    if (!message.isEmpty())
        emit statusMessage(message);
}

}  // namespace logitlab::ui
