#include "charts/compare_chart.h"

#include "charts/bar_names.h"
#include "charts/chart_style.h"
#include "charts/token_display.h"
#include "engine/sampler/semantics.h"

#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QHash>
#include <QValueAxis>

#include <unordered_map>

namespace logitlab::ui {

namespace {

const QList<QColor> kPresetColors{{0x1f, 0x77, 0xb4}, {0xd6, 0x27, 0x28}, {0x2c, 0xa0, 0x2c}, {0x94, 0x67, 0xbd}};

}  // namespace

CompareChart::CompareChart(QObject* parent)
    : QObject(parent), m_chart(new QChart), m_series(new QBarSeries), m_tokens(new QBarCategoryAxis),
      m_probability(new QValueAxis)
{
    const auto& all = engine::allSemantics();
    for (std::size_t i = 0; i < all.size(); ++i) {
        auto* set = new QBarSet(QString::fromStdString(engine::semanticsName(all[i])));
        const QColor color = kPresetColors[static_cast<qsizetype>(i) % kPresetColors.size()];
        set->setColor(color);
        set->setBorderColor(color.darker(130));
        m_series->append(set);
        m_sets << set;
    }
    m_series->setBarWidth(0.85);
    m_chart->addSeries(m_series);
    m_chart->addAxis(m_tokens, Qt::AlignBottom);
    m_chart->addAxis(m_probability, Qt::AlignLeft);
    m_series->attachAxis(m_tokens);
    m_series->attachAxis(m_probability);
    BarNames::attach(m_chart, m_tokens);
    m_probability->setTitleText(tr("renormalised p (0: cut)"));
    m_probability->setRange(0.0, 1.0);
    m_probability->setTickCount(6);
    m_probability->setLabelFormat(QStringLiteral("%.1f"));
    m_tokens->setTitleText(tr("token (≠: the presets disagree)"));
    styleChart(m_chart, QApplication::palette());
}

CompareChart::~CompareChart()
{
    if (!m_chart->scene())
        delete m_chart;
}

void CompareChart::setResults(const std::vector<engine::Result<engine::CandidateList>>& results,
                              const std::vector<std::int32_t>& ids, const QStringList& names)
{
    const auto& all = engine::allSemantics();
    m_explanation.clear();
    m_chart->setToolTip(QString());
    std::vector<std::unordered_map<std::int32_t, double>> kept(results.size());
    m_counts.clear();
    for (std::size_t s = 0; s < results.size(); ++s) {
        const QString name = QString::fromStdString(engine::semanticsName(all[s]));
        if (!results[s]) {
            // The legend names the reason without its note in brackets (a figure's one column
            // has room for one line a preset); the whole message goes to the explanation.
            const QString error = QString::fromStdString(results[s].error());
            m_counts << -1;
            m_explanation << tr("%1 cannot run the chain: %2").arg(name, error);
            m_sets[static_cast<qsizetype>(s)]->setLabel(
                tr("%1: %2").arg(name, error.section(QStringLiteral(" ("), 0, 0)));
            continue;
        }
        m_counts << static_cast<int>(results[s]->size());
        for (const auto& c : results[s].value())
            kept[s].emplace(c.id, c.p);
        m_sets[static_cast<qsizetype>(s)]->setLabel(tr("%1 (%L2 kept)").arg(name).arg(results[s]->size()));
    }
    QStringList categories;
    m_disagreements.clear();
    std::vector<QList<qreal>> values(results.size());
    for (std::size_t i = 0; i < ids.size(); ++i) {
        int keptBy = 0;
        int ran = 0;
        for (std::size_t s = 0; s < results.size(); ++s) {
            const auto found = kept[s].find(ids[i]);
            values[s] << (found != kept[s].end() ? found->second : 0.0);
            if (results[s]) {
                ++ran;
                keptBy += found != kept[s].end();
            }
        }
        const bool differ = keptBy > 0 && keptBy < ran;
        if (differ)
            m_disagreements << names[static_cast<qsizetype>(i)];
        categories << (differ ? names[static_cast<qsizetype>(i)] + QStringLiteral(" ≠")
                              : names[static_cast<qsizetype>(i)]);
    }
    for (std::size_t s = 0; s < results.size(); ++s) {
        QBarSet* set = m_sets[static_cast<qsizetype>(s)];
        set->remove(0, set->count());
        set->append(values[s]);
    }
    m_tokens->setCategories(chartLabels(categories));
    m_chart->setToolTip(m_explanation.join(QLatin1Char('\n')));
    m_chart->setTitle(
        m_disagreements.isEmpty()
            ? tr("Same logits under four presets: they agree on which tokens survive")
            : tr("Same logits under four presets: they disagree on %1").arg(m_disagreements.join(tr(", "))));
}

void CompareChart::setComparison(const engine::SemanticsComparison& comparison, const std::vector<std::int32_t>& ids,
                                 const QStringList& names)
{
    setResults(comparison.results, ids, names);
    if (comparison.differences.empty())
        return;
    const auto name = [](engine::Semantics s) { return QString::fromStdString(engine::semanticsName(s)); };
    // Short form for the title: each rule's name (the text before its colon) with the pairs it
    // separates; the full sentences go to the tooltip and explanation().
    QStringList ruleNames;
    QHash<QString, QStringList> pairsOf;
    for (const auto& d : comparison.differences) {
        QStringList rules;
        for (const auto& rule : d.rules) {
            const QString text = QString::fromStdString(rule);
            rules << text;
            const QString shortName = text.section(QLatin1Char(':'), 0, 0);
            if (!pairsOf.contains(shortName))
                ruleNames << shortName;
            pairsOf[shortName] << tr("%1 vs %2").arg(name(d.a), name(d.b));
        }
        m_explanation << tr("%1 vs %2 differ: %3").arg(name(d.a), name(d.b), rules.join(QStringLiteral("; ")));
    }
    QStringList why;
    for (const QString& rule : ruleNames)
        why << tr("%1 (%2)").arg(rule, pairsOf.value(rule).join(QStringLiteral(", ")));
    QStringList orders;
    bool ordersDiffer = false;
    for (std::size_t i = 0; i < comparison.orders.size() && i < engine::allSemantics().size(); ++i) {
        const QString order = QString::fromStdString(comparison.orders[i]);
        ordersDiffer = ordersDiffer || (i > 0 && comparison.orders[i] != comparison.orders[0]);
        orders << tr("%1: %2").arg(name(engine::allSemantics()[i]), order);
    }
    if (ordersDiffer)
        m_explanation << tr("stage order: %1").arg(orders.join(QStringLiteral("; ")));
    QString title = m_chart->title() + QStringLiteral("<br><small>") +
                    tr("why: %1").arg(why.join(QStringLiteral("; ")).toHtmlEscaped());
    if (ordersDiffer)
        title += QStringLiteral("<br>") + tr("stage order: %1").arg(orders.join(QStringLiteral(" · ")).toHtmlEscaped());
    m_chart->setTitle(title + QStringLiteral("</small>"));
    m_chart->setToolTip(m_explanation.join(QLatin1Char('\n')));
}

}  // namespace logitlab::ui
