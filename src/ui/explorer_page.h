// The Distribution Explorer: the page a teacher projects and a researcher keeps open. A table
// of tokens and logits, the sampler chain's controls, one-click lesson presets, a synthetic
// vocabulary generator, and three charts (what the sampler keeps, the temperature sweep, and
// seeded draws against expectation) with readouts. Every number comes from the engine; every
// parameter and table edit is an undo step. New tables (Generate, Open, Paste) are read, checked
// and sorted on a worker and handed to the table in one cheap step, so the UI thread never
// waits for a large vocabulary.
#pragma once

#include "distribution.h"
#include "explorer_chain.h"
#include "explorer_draws.h"
#include "loaded_table.h"
#include "page.h"
#include "prepared_distribution.h"
#include "sampler_settings.h"
#include "synthetic_vocabulary.h"
#include "temperature_sweep.h"

#include <QFutureWatcher>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

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
class ReadoutPanel;
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
    // Generate, Open and Paste (and openExperiment) load in the background: the table changes
    // when loadFinished() comes, and a newer load or cancel() drops an unfinished one. Problems
    // found before loading (a bad spec, a missing file) are shown at once; openLogitsFile and
    // openExperiment also return them. Problems in the contents are shown when the load ends.
    void generateVocabulary(const engine::SyntheticSpec& spec);
    QString openLogitsFile(const QString& path);  // empty when the load started, else the message shown
    void pasteText(const QString& text);
    bool loading() const { return m_loadInFlight; }
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
    bool compareRunning() const;
    bool drawsRunning() const;
    const engine::DrawCounts& lastDraws() const { return m_lastDraws; }
    QString readoutText() const;  // every readout, one per line

signals:
    // "Junk risk of these logits": the window hands them to the junk-risk page.
    void junkRiskRequested(const engine::Distribution& distribution);
    // "Seed sweep of these logits": the window hands them to the seed-sweep page.
    void seedSweepRequested(const engine::Distribution& distribution);
    // A background load ended: its table is in, or its error shown, or it was cancelled.
    // Not emitted for a load a newer one superseded (that one's end follows).
    void loadFinished();

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
    // `analysis`: the table's computed columns under `chain`, when a loader worked them out.
    void replaceTable(std::shared_ptr<const engine::PreparedDistribution> table, const engine::ExplorerChain& chain,
                      const QString& what, const QString& source,
                      std::optional<engine::SamplerAnalysis> analysis = std::nullopt);
    void showTable(const std::shared_ptr<const engine::PreparedDistribution>& table,
                   const engine::ExplorerChain& chain, const QString& source,
                   std::optional<engine::SamplerAnalysis> analysis = std::nullopt);
    // Runs `read`, the preparation of its table and its analysis on the thread pool, then `land`
    // on the UI thread with the result (a failed read shows its error instead). `message` is
    // the status while it runs.
    using LoadRead = std::function<LoadedTable()>;
    using LoadLanding = std::function<void(LoadedTable&)>;
    void startLoad(const QString& message, LoadRead read, LoadLanding land);
    // Stops a load in flight (its result is dropped) and says `message`; nothing when none runs.
    void dropLoad(const QString& message);
    void takeLoad();
    void setLoading(bool loading);
    void resultsChanged();
    QStringList readoutLines() const;
    void updateReadouts();
    void startSweep();
    void updateCompare();
    // The `count` most likely tokens (by logit): ids and names, for the charts that track a few.
    std::pair<std::vector<std::int32_t>, QStringList> topTokens(int count) const;
    void sweepFinished();
    void compareFinished();
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
    ReadoutPanel* m_readouts;
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
    struct CompareOutcome {
        std::vector<engine::Result<engine::CandidateList>> results;
    };
    QFutureWatcher<CompareOutcome> m_compareWatcher;
    bool m_compareInFlight = false;
    bool m_comparePending = false;
    std::vector<std::int32_t> m_compareIds;
    QStringList m_compareNames;
    struct DrawOutcome {
        engine::ExplorerDraws draws;
        QString error;
    };
    QFutureWatcher<DrawOutcome> m_drawWatcher;
    std::shared_ptr<std::atomic<bool>> m_sweepStop;
    std::shared_ptr<std::atomic<bool>> m_drawStop;
    bool m_sweepDirty = true;
    bool m_sweepPending = false;
    bool m_sweepInFlight = false;  // started and its result not yet taken (finished is queued)
    bool m_drawInFlight = false;
    engine::ExplorerChain m_sweptChain;
    QStringList m_sweepNames;
    engine::CandidateList m_drawnList;  // what the last draws were compared with
    QString m_drawCaption;
    engine::DrawCounts m_lastDraws;

    // The load in flight: its future, what to do with its table, and its generation (a load
    // started later, or cancel(), moves the generation on and so drops it). The result is
    // shared so the UI thread can move out of it: QFuture hands results out by copy, and
    // takeResult() leaves the future unfinished for waitForFinished().
    QFutureWatcher<std::shared_ptr<LoadedTable>> m_loadWatcher;
    LoadLanding m_landLoad;
    int m_loadGeneration = 0;
    bool m_loadInFlight = false;
    QList<QPushButton*> m_loadButtons;  // Generate, Open, Paste: disabled while loading
};

}  // namespace logitlab::ui
