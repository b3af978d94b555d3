// The Distribution Explorer: the page a teacher projects and a researcher keeps open. A table
// of tokens and logits, the sampler chain's controls, one-click lesson presets, a synthetic
// vocabulary generator, and three charts (what the sampler keeps, the temperature sweep, and
// seeded draws against expectation) with readouts. Every number comes from the engine; every
// parameter and table edit is an undo step.
#pragma once

#include "distribution.h"
#include "explorer_chain.h"
#include "draw_counts.h"
#include "page.h"
#include "prepared_distribution.h"
#include "sampler_settings.h"
#include "synthetic_vocabulary.h"
#include "temperature_sweep.h"

#include <QFutureWatcher>

#include <atomic>
#include <memory>

QT_BEGIN_NAMESPACE
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableView;
class QUndoStack;
QT_END_NAMESPACE

namespace logitlab::ui {

class ChainControls;
class CompareChart;
class DrawChart;
class LogitsSortProxy;
class LogitsTableModel;
class ProbabilityChart;
class SweepChart;
class SyntheticVocabularyForm;

class ExplorerPage : public Page {
    Q_OBJECT
public:
    enum ChartTab { ProbabilitiesTab, SweepTab, DrawsTab, CompareTab };

    explicit ExplorerPage(QWidget* parent = nullptr);
    ~ExplorerPage() override;

    QString title() const override;
    QChart* chart() const override;
    QAbstractItemModel* resultsModel() const override;
    app::Provenance provenance() const override;
    void cancel() override;
    QUndoStack* undoStack() const override { return m_undo; }
    QString lessonHtml() const override;
    void reset() override;
    QString saveExperiment(const QString& path) override;
    QString openExperiment(const QString& path) override;

    // Actions, also used by tests and the benchmark. Each is one undo step.
    void applyPreset(int index);
    void generateVocabulary(const engine::SyntheticSpec& spec);
    QString openLogitsFile(const QString& path);  // empty on success, else the message shown
    void pasteText(const QString& text);
    void addToken();
    void removeSelectedTokens();
    void startDraws();
    void showChart(ChartTab tab);

    LogitsTableModel* model() const { return m_model; }
    LogitsSortProxy* proxyModel() const { return m_proxy; }
    QTableView* tableView() const { return m_table; }
    ChainControls* chainControls() const { return m_controls; }
    QDoubleSpinBox* temperatureBox() const;
    QSpinBox* topKBox() const;
    QDoubleSpinBox* topPBox() const;
    QLabel* errorLabel() const { return m_error; }
    ProbabilityChart* probabilityChart() const { return m_chart; }
    SweepChart* sweepChart() const { return m_sweep; }
    DrawChart* drawChart() const { return m_draws; }
    CompareChart* compareChart() const { return m_compare; }
    bool sweepRunning() const;
    bool drawsRunning() const;
    const engine::DrawCounts& lastDraws() const { return m_lastDraws; }
    QString readoutText() const;  // every readout, one per line

signals:
    // "Junk risk of these logits": the window hands them to the junk-risk page.
    void junkRiskRequested(const engine::Distribution& distribution);
    // "Seed sweep of these logits": the window hands them to the seed-sweep page.
    void seedSweepRequested(const engine::Distribution& distribution);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    QWidget* buildParameters();
    QWidget* buildTablePanel();
    void chainEdited(const engine::ExplorerChain& chain, bool temperatureOnly);
    void applyChain(const engine::ExplorerChain& chain);
    // One undo step replacing the table (and the settings); `source` is recorded in provenance.
    void replaceAll(engine::Distribution distribution, const engine::ExplorerChain& chain, const QString& what,
                    const QString& source);
    void replaceTable(std::shared_ptr<const engine::PreparedDistribution> table, const engine::ExplorerChain& chain,
                      const QString& what, const QString& source);
    void showTable(const std::shared_ptr<const engine::PreparedDistribution>& table,
                   const engine::ExplorerChain& chain, const QString& source);
    void resultsChanged();
    QStringList readoutLines() const;
    void updateReadouts();
    void startSweep();
    void updateCompare();
    void sweepFinished();
    void drawsFinished();
    void showError(const QString& message);
    void clearError();

    LogitsTableModel* m_model;
    LogitsSortProxy* m_proxy;
    QUndoStack* m_undo;
    ChainControls* m_controls;
    ProbabilityChart* m_chart;
    SweepChart* m_sweep;
    DrawChart* m_draws;
    CompareChart* m_compare;
    bool m_compareDirty = true;
    SyntheticVocabularyForm* m_vocabulary;
    QTabWidget* m_tabs;
    QTableView* m_table;
    QWidget* m_readouts;
    QLabel* m_greedyReadout;
    QList<QLabel*> m_readoutLabels;
    QLabel* m_lessonPoint;
    QLabel* m_error;
    QSpinBox* m_drawCount;
    QSpinBox* m_drawSeed;
    QComboBox* m_drawRng;
    QPushButton* m_drawButton;
    QString m_source;
    int m_mergeSerial = 0;

    // Background work: a generation number drops results of superseded requests.
    QFutureWatcher<std::vector<engine::SweepPoint>> m_sweepWatcher;
    QFutureWatcher<engine::DrawCounts> m_drawWatcher;
    std::shared_ptr<std::atomic<bool>> m_sweepStop;
    std::shared_ptr<std::atomic<bool>> m_drawStop;
    bool m_sweepDirty = true;
    bool m_sweepPending = false;
    bool m_sweepInFlight = false;  // started and its result not yet taken (finished is queued)
    bool m_drawInFlight = false;
    engine::ExplorerChain m_sweptChain;
    QStringList m_sweepNames;
    engine::CandidateList m_drawnList;
    QStringList m_drawnNames;
    QString m_drawCaption;
    engine::DrawCounts m_lastDraws;
};

}  // namespace logitlab::ui
