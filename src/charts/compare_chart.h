// Compare: the same logits and values under the four semantics presets (lesson, llama.cpp, hf,
// vllm), side by side per token: the renormalised probability each preset's chain gives it.
// Tokens on which the presets disagree (kept by some, cut by others) are marked "≠" and named
// in the title, with why (the documented rule behind each disagreeing pair, and the presets' stage
// orders when they differ: engine::presetDifferences, as `logitlab-cli candidates --compare`
// says it); the full rules are the chart's tooltip. A preset that cannot run the values says why
// in its legend entry.
#pragma once

#include "engine/core/result.h"
#include "engine/sampler/candidate.h"
#include "engine/sampler/semantics_comparison.h"

#include <QObject>
#include <QStringList>

#include <vector>

QT_BEGIN_NAMESPACE
class QBarCategoryAxis;
class QBarSeries;
class QBarSet;
class QChart;
class QValueAxis;
QT_END_NAMESPACE

namespace logitlab::ui {

class CompareChart : public QObject {
    Q_OBJECT
public:
    static constexpr int kTopBars = 12;

    explicit CompareChart(QObject* parent = nullptr);
    ~CompareChart() override;

    QChart* chart() const { return m_chart; }

    // `results` in engine::allSemantics() order; `ids` the tokens to show (most likely first)
    // and `names` their names.
    void setResults(const std::vector<engine::Result<engine::CandidateList>>& results,
                    const std::vector<std::int32_t>& ids, const QStringList& names);
    // The same, with why the presets disagree (title and tooltip).
    void setComparison(const engine::SemanticsComparison& comparison, const std::vector<std::int32_t>& ids,
                       const QStringList& names);
    QStringList disagreements() const { return m_disagreements; }  // for tests
    // "llama.cpp vs hf: D1 temperature placement: ..." per disagreeing pair, then the stage
    // orders when they differ; empty when the presets agree or no comparison was given.
    QStringList explanation() const { return m_explanation; }
    QList<int> survivorCounts() const { return m_counts; }  // -1 where a preset failed

private:
    QChart* m_chart;
    QBarSeries* m_series;
    QList<QBarSet*> m_sets;
    QBarCategoryAxis* m_tokens;
    QValueAxis* m_probability;
    QStringList m_disagreements;
    QStringList m_explanation;
    QList<int> m_counts;
};

}  // namespace logitlab::ui
