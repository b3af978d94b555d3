// The seed sweep's three charts, rebuilt whole from a summary:
//  - p-values: the histogram of per-seed chi-square p-values against the flat line a correct
//    sampler gives, with the Kolmogorov-Smirnov verdict in the title;
//  - spread: per token, the per-seed counts as a box (quartiles) and whiskers (min, max) around
//    the expected count;
//  - counts: pooled counts against expected counts per token.
#pragma once

#include "engine/experiments/seed_sweep.h"

#include <QObject>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace logitlab::ui {

class SeedSweepCharts : public QObject {
    Q_OBJECT
public:
    // Tokens beyond this many (most probable first) are left out of the per-token charts,
    // and the title says so.
    static constexpr int kMaxTokensShown = 20;

    explicit SeedSweepCharts(QObject* parent = nullptr);
    ~SeedSweepCharts() override;

    QChart* pValues() const { return m_pValues; }
    QChart* spread() const { return m_spread; }
    QChart* counts() const { return m_counts; }

    // `names` holds one display name per token of the summary, in its order.
    void setSummary(const engine::SeedSweepSummary& summary, const QStringList& names, std::uint64_t seeds,
                    std::uint64_t drawsPerSeed);

private:
    QChart* m_pValues;
    QChart* m_spread;
    QChart* m_counts;
};

}  // namespace logitlab::ui
