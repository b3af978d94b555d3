// The explorer's table: one row per token with its name and logit (editable) and what the
// sampler makes of it at the current settings: probability at T, survivor or not, renormalised
// probability and rank. The model holds the whole vocabulary (up to 262,144 tokens); the
// computed columns come from one engine call per change (engine::analyse), and the rank order,
// which does not depend on T, only when the logits change. Edits are validated; a refused edit
// is reported, never stored; accepted edits go through the undo stack when one is set.
#pragma once

#include "distribution.h"
#include "sampler_analysis.h"
#include "explorer_chain.h"
#include "sampler_settings.h"

#include <QAbstractTableModel>

QT_BEGIN_NAMESPACE
class QUndoStack;
QT_END_NAMESPACE

namespace logitlab::ui {

class LogitsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TokenColumn, LogitColumn, ProbabilityColumn, SurvivorColumn, RenormalisedColumn, RankColumn,
                  ColumnCount };

    explicit LogitsTableModel(QObject* parent = nullptr);

    // A whole new table (a model reset). Token names default to the ids.
    void setDistribution(engine::Distribution distribution);
    // The whole chain (semantics preset, lesson settings, further stages). A chain the preset
    // cannot run leaves the computed columns empty (the controls say why).
    void setChain(const engine::ExplorerChain& chain);
    // The lesson's part only; the preset and further stages stay as they are.
    void setSettings(const engine::SamplerSettings& settings);
    // Accepted cell edits become undo steps on `stack` (nullptr: applied directly).
    void setUndoStack(QUndoStack* stack) { m_undoStack = stack; }

    const engine::Distribution& distribution() const { return m_distribution; }
    const engine::SamplerSettings& settings() const { return m_chain.lesson; }
    const engine::ExplorerChain& chain() const { return m_chain; }
    const engine::SamplerAnalysis& analysis() const { return m_analysis; }
    const engine::CandidateList& survivors() const { return m_analysis.survivors; }
    const std::vector<double>& probabilities() const { return m_analysis.probabilities; }  // at T, by id
    // Ids by descending logit, lower id first on ties: the order of probability at every T > 0.
    const std::vector<std::int32_t>& idsByLogit() const { return m_order; }
    QString tokenName(std::int32_t id) const;
    // Position of the token in survivors(), or -1 when it was cut.
    int survivorPosition(std::int32_t id) const { return m_survivorIndex[static_cast<std::size_t>(id)]; }
    // The rule that made the cut, in words: "cumulative 0.918 > 0.9 after 'items'".
    QString cutDescription() const;

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
    void recompute();
    void recomputeOrder();
    void emitComputedColumnsChanged();

    engine::Distribution m_distribution;
    engine::ExplorerChain m_chain;
    engine::SamplerAnalysis m_analysis;
    std::vector<int> m_survivorIndex;    // position in survivors(), or -1, by id
    std::vector<std::int32_t> m_order;   // ids by descending logit
    std::vector<int> m_rank;             // 1-based rank by logit, by id
    bool m_logitsValid = false;          // validateLogits passed; set with the order
    QUndoStack* m_undoStack = nullptr;
};

}  // namespace logitlab::ui
