// The explorer's table: one row per token with its name and logit (editable) and what the
// sampler makes of it at the current settings: probability at T, survivor or not, renormalised
// probability and rank. The model holds one ExplorerSnapshot (charts/explorer_snapshot.h): the
// whole vocabulary (up to 262,144 tokens) as one shared, immutable engine::PreparedDistribution
// (built off the UI thread for large loads), so replacing the table or undoing a replacement
// swaps a pointer, and the analysis of one engine call per change. The probability chart reads
// the same snapshot. Edits are validated; a refused edit is reported, never stored; accepted
// edits go through the undo stack when one is set and replace the shared table with an edited
// copy.
#pragma once

#include "charts/explorer_snapshot.h"

#include <QAbstractTableModel>

#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QUndoStack;
QT_END_NAMESPACE

namespace logitlab::ui {

class LogitsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        TokenColumn,
        LogitColumn,
        ProbabilityColumn,
        SurvivorColumn,
        RenormalisedColumn,
        RankColumn,
        ColumnCount
    };

    explicit LogitsTableModel(QObject* parent = nullptr);

    // A whole new table (a model reset). Token names default to the ids. Prepares the
    // distribution here, on the caller's thread: for small tables; large loads use setTable.
    void setDistribution(engine::Distribution distribution);
    // A whole new table and chain (one model reset, one analysis): the cheap hand-off of a
    // table prepared elsewhere. `analysis`, if given, is analyse(*table, chain) worked out
    // there too. Precondition: table is not null.
    void setTable(std::shared_ptr<const engine::PreparedDistribution> table, const engine::ExplorerChain& chain,
                  std::optional<engine::SamplerAnalysis> analysis = std::nullopt);
    // The whole chain (semantics preset, lesson settings, further stages). A chain the preset
    // cannot run leaves the computed columns empty (the controls say why).
    void setChain(const engine::ExplorerChain& chain);
    // The lesson's part only; the preset and further stages stay as they are.
    void setSettings(const engine::SamplerSettings& settings);
    // Accepted cell edits become undo steps on `stack` (nullptr: applied directly).
    void setUndoStack(QUndoStack* stack) { m_undoStack = stack; }

    // What the table shows: the table, the chain and the analysis (what the chart reads too).
    const ExplorerSnapshot& snapshot() const { return m_snapshot; }
    const std::shared_ptr<const engine::PreparedDistribution>& table() const { return m_snapshot.table(); }
    const engine::Distribution& distribution() const { return m_snapshot.distribution(); }
    const engine::SamplerSettings& settings() const { return m_snapshot.settings(); }
    const engine::ExplorerChain& chain() const { return m_snapshot.chain(); }
    const engine::SamplerAnalysis& analysis() const { return m_snapshot.analysis(); }
    const engine::CandidateList& survivors() const { return m_snapshot.survivors(); }
    const std::vector<double>& probabilities() const { return m_snapshot.probabilities(); }
    const std::vector<std::int32_t>& idsByLogit() const { return m_snapshot.idsByLogit(); }
    const std::vector<std::int32_t>& idsByToken() const { return m_snapshot.idsByToken(); }
    QString tokenName(std::int32_t id) const { return m_snapshot.tokenName(id); }
    QString shownName(std::int32_t id) const { return m_snapshot.shownName(id); }
    int survivorPosition(std::int32_t id) const { return m_snapshot.survivorPosition(id); }
    QString cutDescription() const { return m_snapshot.cutDescription(); }

    // Writes a value setData() has already validated; used by the undo steps.
    void applyCell(int row, int column, const QVariant& value);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

signals:
    // After every change of the computed columns (new logits or new settings).
    void resultsChanged();
    // After the logits or token names changed (not the settings): T-independent views redo.
    void logitsChanged();
    // When an edit is refused, with a message naming the row and the problem.
    void editRejected(const QString& message);

private:
    void emitComputedColumnsChanged();

    ExplorerSnapshot m_snapshot;
    QUndoStack* m_undoStack = nullptr;
};

}  // namespace logitlab::ui
