#include "probability_chart.h"

#include "logits_table_model.h"
#include "sampler_settings.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QGraphicsScene>
#include <QValueAxis>

namespace logitlab::ui {

namespace {

const QColor kSurvivor(0x1f, 0x77, 0xb4);     // blue: kept by the sampler
const QColor kCut(0xc7, 0xc7, 0xc7);          // grey: removed by top-k / top-p
const QColor kRenormalised(0xff, 0x7f, 0x0e);  // orange: what the die is rolled on

}  // namespace

ProbabilityChart::ProbabilityChart(const LogitsTableModel* model, QObject* parent)
    : QObject(parent),
      m_model(model),
      m_chart(new QChart),
      m_series(new QBarSeries),
      m_raw(new QBarSet(tr("p at T (blue: survivor, grey: cut)"))),
      m_renormalised(new QBarSet(tr("renormalised p (survivors)"))),
      m_tokens(new QBarCategoryAxis),
      m_probability(new QValueAxis)
{
    m_raw->setColor(kCut);
    m_raw->setBorderColor(kCut.darker(130));
    m_raw->setSelectedColor(kSurvivor);
    m_renormalised->setColor(kRenormalised);
    m_renormalised->setBorderColor(kRenormalised.darker(130));
    m_series->append(m_raw);
    m_series->append(m_renormalised);
    m_series->setBarWidth(0.8);

    m_chart->addSeries(m_series);
    m_chart->addAxis(m_tokens, Qt::AlignBottom);
    m_chart->addAxis(m_probability, Qt::AlignLeft);
    m_series->attachAxis(m_tokens);
    m_series->attachAxis(m_probability);
    m_probability->setRange(0.0, 1.0);
    m_probability->setTitleText(tr("probability"));
    m_probability->setLabelFormat(QStringLiteral("%.1f"));
    m_probability->setTickCount(6);  // 0, 0.2, ..., 1: labels that read exactly
    m_tokens->setTitleText(tr("token"));
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->setMargins(QMargins(8, 8, 8, 8));

    connect(model, &LogitsTableModel::resultsChanged, this, &ProbabilityChart::rebuild);
    rebuild();
}

ProbabilityChart::~ProbabilityChart()
{
    if (!m_chart->scene())
        delete m_chart;
}

void ProbabilityChart::rebuild()
{
    const auto& dist = m_model->distribution();
    const auto& probs = m_model->probabilities();
    const auto n = static_cast<int>(probs.size());

    QList<qreal> raw(n, 0.0);
    QList<qreal> renorm(n, 0.0);
    QList<int> survivorIds;
    for (int i = 0; i < n; ++i)
        raw[i] = probs[static_cast<std::size_t>(i)];
    for (const auto& c : m_model->survivors()) {
        renorm[c.id] = c.p;
        survivorIds << c.id;
    }
    QStringList names;
    for (const auto& t : dist.tokens)
        names << QString::fromStdString(t);

    // Replace whole lists at once: point-by-point updates redraw once per point.
    m_raw->remove(0, m_raw->count());
    m_raw->append(raw);
    m_renormalised->remove(0, m_renormalised->count());
    m_renormalised->append(renorm);
    m_raw->deselectAllBars();
    m_raw->selectBars(survivorIds);
    m_tokens->setCategories(names);

    const auto& s = m_model->settings();
    QString title = s.temperature == 0.0 ? tr("T = 0: greedy (argmax)") : tr("T = %1").arg(s.temperature);
    if (s.temperature != 0.0 && s.topK)
        title += tr(", top-k = %1").arg(*s.topK);
    if (s.temperature != 0.0 && s.topP)
        title += tr(", top-p = %1").arg(*s.topP);
    const auto kept = m_model->survivors().size();
    title += kept == 1 ? tr(": 1 survivor of %1").arg(n) : tr(": %1 survivors of %2").arg(kept).arg(n);
    m_chart->setTitle(title);
}

}  // namespace logitlab::ui
