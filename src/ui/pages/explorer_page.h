// The Distribution Explorer: the page a teacher projects and a researcher keeps open. A table
// of tokens and logits, the sampler chain's controls, one-click lesson presets, a synthetic
// vocabulary generator, and four charts (what the sampler keeps, the temperature sweep, seeded
// draws against expectation, the presets compared) with readouts. Every number comes from the
// engine; every parameter and table edit is an undo step. The page is layout and wiring: the
// table's loads and edits are ExplorerTableController's, the background charts ExplorerViews',
// the draw controls DrawPanel's, so the UI thread never waits for a large vocabulary.
#pragma once

#include "app/kinds/explorer_state.h"
#include "engine/models/synthetic_vocabulary.h"
#include "engine/sampler/distribution.h"
#include "engine/stats/draw_counts.h"
#include "ui/pages/page.h"

#include <QList>

#include <functional>

QT_BEGIN_NAMESPACE
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableView;
class QTimer;
class QUndoStack;
QT_END_NAMESPACE

namespace logitlab::app {
class BusyCounter;
}

namespace logitlab::ui {

class ChainControls;
class CompareChart;
class DrawChart;
class DrawPanel;
class ExplorerTableController;
class ExplorerViews;
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
    // Tables with more rows than this open sorted by probability, most likely first.
    static constexpr int kSortedByProbabilityFrom = 1000;

    explicit ExplorerPage(QWidget* parent = nullptr);
    ~ExplorerPage() override;

    QString id() const override;
    // A distribution from another page (the Loop page's step) replaces the table, as an undo step.
    bool acceptDistribution(const HandOff& handOff) override;
    // File > Open model here: the Model row names the GGUF model, and the table becomes its
    // next-token distribution after the row's prompt (once one is typed).
    QString openModel(const QString& path) override;
    QWidget* createPresentation() override;  // ExplorerPresentation
    QString title() const override;
    QChart* chart() const override;
    QAbstractItemModel* resultsModel() const override;
    // The token table as logitlab-cli run writes it for the page's saved state (by id).
    std::optional<app::ResultTable> resultTable() const override;
    app::Provenance provenance() const override;
    void cancel() override;
    QUndoStack* undoStack() const override { return m_undo; }
    void reset() override;
    // Modified: the undo stack is away from where it was last saved, opened or reset. A load
    // under way is marked saved when it lands.
    bool isModified() const override;
    void markSaved() override;
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
    // A dump's steps were scanned: asks which step (and vocabulary) to load. In a headless run
    // (answerWithoutDialogs) nothing is asked: the first step of the first batch is loaded.
    void chooseStep(const QString& path, const QString& array, const QList<QList<double>>& entropy, const QString& what,
                    bool batched);
    // Headless runs (--screenshot) never wait on a dialog: they take the default and `say` what
    // they took (main writes it to stderr).
    void answerWithoutDialogs(std::function<void(const QString&)> say) { m_sayDefault = std::move(say); }
    void pasteText(const QString& text);
    bool loading() const;
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
    QSpinBox* barsBox() const { return m_bars; }
    QDoubleSpinBox* topPBox() const;
    QLabel* errorLabel() const { return m_error; }
    // The model row: a GGUF file and a prompt; typing in either loads the next-token distribution.
    QLineEdit* modelPathField() const { return m_modelPath; }
    QLineEdit* modelPromptField() const { return m_modelPrompt; }
    QWidget* modelRow() const { return m_modelRow; }
    ProbabilityChart* probabilityChart() const { return m_chart; }
    SweepChart* sweepChart() const { return m_sweep; }
    DrawChart* drawChart() const { return m_draws; }
    CompareChart* compareChart() const { return m_compare; }
    bool sweepRunning() const;
    bool compareRunning() const;
    bool drawsRunning() const;
    const engine::DrawCounts& lastDraws() const;
    QString readoutText() const;  // every readout, one per line

signals:
    // "Junk risk of these logits" and "Seed sweep of these logits" offer the table to the pages
    // "junk-risk" and "seed-sweep" through Page::distributionOffered.
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
    void connectParts();
    void resultsChanged();
    QStringList readoutLines() const;
    void updateReadouts();
    // The table, chain and draw settings as an experiment: what Save writes and exports describe.
    app::ExplorerState state() const;
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
    SyntheticVocabularyForm* m_vocabulary;
    DrawPanel* m_drawPanel;
    QSpinBox* m_bars;  // the probability chart's top N
    bool m_savedWhenLoaded = false;
    QTabWidget* m_tabs;
    QTableView* m_table;
    ReadoutPanel* m_readouts;
    QLabel* m_lessonPoint;
    QLabel* m_error;
    app::BusyCounter* m_busy;  // loads and draws
    ExplorerTableController* m_edits;
    ExplorerViews* m_views;
    QList<QPushButton*> m_loadButtons;  // Generate, Open, Paste: disabled while loading
    QWidget* m_modelRow = nullptr;
    QLineEdit* m_modelPath = nullptr;
    QLineEdit* m_modelPrompt = nullptr;
    QTimer* m_modelTyping = nullptr;                   // the run waits for a pause in the typing
    QString m_lastVocabulary;                          // the step dialog offers the one used last
    std::function<void(const QString&)> m_sayDefault;  // set: no dialog, the default taken
};

}  // namespace logitlab::ui
