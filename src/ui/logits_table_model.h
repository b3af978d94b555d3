// The explorer's table: one row per token with its name and logit (editable) and what the
// sampler makes of it at the current settings: probability at T, survivor or not, renormalised
// probability and rank. Edits are validated; a refused edit is reported, never stored.
#pragma once

#include "candidate.h"
#include "distribution.h"
#include "sampler_settings.h"

#include <QAbstractTableModel>

namespace logitlab::ui {

class LogitsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TokenColumn, LogitColumn, ProbabilityColumn, SurvivorColumn, RenormalisedColumn, RankColumn,
                  ColumnCount };

    explicit LogitsTableModel(QObject* parent = nullptr);

    void setDistribution(engine::Distribution distribution);
    void setSettings(const engine::SamplerSettings& settings);

    const engine::Distribution& distribution() const { return m_distribution; }
    const engine::SamplerSettings& settings() const { return m_settings; }
    const engine::CandidateList& survivors() const { return m_survivors; }
    const std::vector<double>& probabilities() const { return m_probabilities; }  // at T, by id

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

signals:
    // Emitted after every change of the computed columns (new logits or new settings).
    void resultsChanged();
    // Emitted when an edit is refused, with a message naming the row and the problem.
    void editRejected(const QString& message);

private:
    void recompute();

    engine::Distribution m_distribution;
    engine::SamplerSettings m_settings;
    engine::CandidateList m_survivors;
    std::vector<double> m_probabilities;      // softmax at T (one-hot at T = 0), by id
    std::vector<int> m_survivorIndex;         // position in m_survivors, or -1, by id
    std::vector<int> m_rank;                  // 1-based rank by probability, by id
};

}  // namespace logitlab::ui
