// The explorer's main chart: per token, the probability at T (survivors blue, cut tokens grey)
// beside the renormalised probability the die is rolled on, a red line where the filter cut
// with the rule that made it ("cumulative 0.918 > 0.9 after 'items'"), and for large
// vocabularies the top N tokens plus one "rest of vocabulary" bar carrying the remaining mass,
// so the tail is never silently dropped. Rebuilt as a whole on every change (one replace per
// series), never point by point. For a class it can also show the bars on a log scale (the
// long tail) or cumulatively with the top-p line (where the running total crosses p).
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

QT_BEGIN_NAMESPACE
class QBarCategoryAxis;
class QBarSeries;
class QBarSet;
class QChart;
class QFontMetricsF;
class QGraphicsSimpleTextItem;
class QLineSeries;
class QLogValueAxis;
class QValueAxis;
QT_END_NAMESPACE

namespace logitlab::ui {

class ExplorerSnapshot;

class ProbabilityChart : public QObject {
    Q_OBJECT
public:
    static constexpr int kTopBars = 20;  // the default of setTopBars()

    // Owns the QChart unless it is handed to a view (QChartView takes ownership).
    // Draws `snapshot` (not owned; it must outlive the chart) on each rebuild().
    explicit ProbabilityChart(const ExplorerSnapshot* snapshot, QObject* parent = nullptr);
    // Draws its own copy of `snapshot` (a finished run's, as `logitlab-cli run` exports it).
    explicit ProbabilityChart(ExplorerSnapshot snapshot, QObject* parent = nullptr);
    ~ProbabilityChart() override;

    QChart* chart() const { return m_chart; }
    QStringList categories() const;                 // what the x axis shows, for tests
    QString cutLabel() const;                       // the text drawn at the cut, empty when nothing is cut
    double restMass() const { return m_restMass; }  // p at T of the tokens in the rest bar
    // Where the dashed cut line stands on the token axis (between bars), or -1 when none is
    // drawn: nothing is cut, or the survivors are not the leading bars (XTC).
    double cutLineX() const { return m_cutX; }
    // Whether the cut's label, as drawn, stands clear of its line (for tests).
    bool cutLabelClearOfLine() const;

    // For a class: the values printed on the bars (p to 3 decimals), and a y axis fixed at
    // 0..1 so that a temperature change shows as bars growing and shrinking rather than being
    // cancelled by the axis rescaling.
    void setValuesOnBars(bool on);
    // Bars for the `n` most probable tokens and one for the rest of the vocabulary (the user's
    // choice, 1..200; every token when the vocabulary has at most n + 1).
    void setTopBars(int n);
    int topBars() const { return m_topBars; }
    void setFixedAxis(bool on);
    bool valuesOnBars() const { return m_valuesOnBars; }
    bool fixedAxis() const { return m_fixedAxis; }
    double axisTop() const;
    // A log probability axis (1e-k .. 1) so the tail's bars are visible beside the head's.
    void setLogScale(bool on);
    bool logScale() const { return m_logScale; }
    double axisBottom() const;
    // Bars as running totals, most likely first, with a horizontal line at top-p: the bar
    // that first reaches the line is the last one top-p keeps.
    void setCumulative(bool on);
    bool cumulative() const { return m_cumulative; }
    // The y of the top-p line, or -1 when none is drawn (not cumulative, or no top-p).
    double topPLineY() const { return m_topPY; }
    // The heights drawn, for tests: p at T (or its running total) per bar.
    QList<double> rawHeights() const;
    // What hovering bar `index` shows: the whole token name, its id and both probabilities.
    QString barToolTip(int index) const;

public slots:
    void rebuild();

private:
    void placeCutLabel();
    // `line` broken at spaces into lines no wider than `width` (a word wider than that elided).
    static QStringList wrapToWidth(const QString& line, const QFontMetricsF& metrics, double width);
    void useAxis(bool log);

    std::unique_ptr<const ExplorerSnapshot> m_ownSnapshot;  // set by the owning constructor
    const ExplorerSnapshot* m_snapshot;
    QChart* m_chart;
    QBarSeries* m_series;
    QBarSet* m_raw;
    QBarSet* m_renormalised;
    QLineSeries* m_cutLine;
    QBarCategoryAxis* m_tokens;
    QValueAxis* m_probability;
    QLogValueAxis* m_logProbability;
    QLineSeries* m_topPLine;
    QGraphicsSimpleTextItem* m_cutText;
    QStringList m_barTips;
    QString m_cutLabel;  // whole; the chart shows it elided to the plot's width
    double m_cutX = -1.0;
    int m_topBars = kTopBars;
    bool m_valuesOnBars = false;
    bool m_fixedAxis = false;
    bool m_logScale = false;
    bool m_cumulative = false;
    double m_topPY = -1.0;
    double m_logBottom = 0.01;  // the log axis's bottom decade
    double m_restMass = 0.0;
};

}  // namespace logitlab::ui
