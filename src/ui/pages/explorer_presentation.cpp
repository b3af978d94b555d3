#include "ui/pages/explorer_presentation.h"

#include "charts/chart_style.h"
#include "charts/probability_chart.h"
#include "ui/models/logits_table_model.h"
#include "ui/pages/explorer_page.h"

#include <QChartView>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>

#include <algorithm>
#include <cmath>

namespace logitlab::ui {

namespace {

constexpr int kSteps = 100;  // slider units per 1.0 of T and of top-p: steps of 0.01
constexpr int kMaxShownTopK = 100;

}  // namespace

ExplorerPresentation::ExplorerPresentation(ExplorerPage* page, QWidget* parent)
    : QWidget(parent), m_page(page), m_chart(new ProbabilityChart(&page->model()->snapshot(), this)),
      m_temperature(new QSlider(Qt::Horizontal)), m_topK(new QSlider(Qt::Horizontal)),
      m_topP(new QSlider(Qt::Horizontal)), m_temperatureValue(new QLabel), m_topKValue(new QLabel),
      m_topPValue(new QLabel), m_readouts(new QLabel)
{
    m_chart->rebuild();
    auto* view = new QChartView(m_chart->chart());
    view->setRenderHint(QPainter::Antialiasing);
    connect(page->model(), &LogitsTableModel::resultsChanged, m_chart, &ProbabilityChart::rebuild);
    connect(page->model(), &LogitsTableModel::resultsChanged, this, &ExplorerPresentation::showPage);

    // T to 3, as the page's own slider (a typed larger T shows the slider at its end).
    m_temperature->setRange(0, static_cast<int>(std::min(3.0, page->temperatureBox()->maximum()) * kSteps));
    m_topP->setRange(0, kSteps);
    for (QSlider* s : {m_temperature, m_topK, m_topP}) {
        s->setPageStep(10);
        s->setMinimumWidth(240);
    }
    // Each slider sets the page's box: the page's undo, chain and readouts follow from there.
    connect(m_temperature, &QSlider::valueChanged, page->temperatureBox(),
            [page](int v) { page->temperatureBox()->setValue(double(v) / kSteps); });
    connect(m_topK, &QSlider::valueChanged, page->topKBox(), [page](int v) { page->topKBox()->setValue(v); });
    connect(m_topP, &QSlider::valueChanged, page->topPBox(),
            [page](int v) { page->topPBox()->setValue(double(v) / kSteps); });

    m_readouts->setWordWrap(true);
    m_readouts->setTextFormat(Qt::PlainText);
    // Each parameter's name and value over its slider: the value never cut, whatever the type size.
    auto* side = new QVBoxLayout;
    for (auto [slider, value] : {std::pair{m_temperature, m_temperatureValue}, std::pair{m_topK, m_topKValue},
                                 std::pair{m_topP, m_topPValue}}) {
        value->setTextFormat(Qt::RichText);
        side->addWidget(value);
        side->addWidget(slider);
        side->addSpacing(fontMetrics().height() / 2);
    }
    side->addWidget(m_readouts, 1);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view, 4);
    layout->addLayout(side, 1);
    showPage();
}

void ExplorerPresentation::showPage()
{
    const double t = m_page->temperatureBox()->value();
    const int k = m_page->topKBox()->value();
    const double p = m_page->topPBox()->value();
    const int vocabulary = std::max(1, m_page->model()->rowCount());
    {
        const QSignalBlocker a(m_temperature), b(m_topK), c(m_topP);
        m_topK->setRange(0, std::min({m_page->topKBox()->maximum(), vocabulary, kMaxShownTopK}));
        m_temperature->setValue(static_cast<int>(std::lround(t * kSteps)));
        m_topK->setValue(k);
        m_topP->setValue(static_cast<int>(std::lround(p * kSteps)));
    }
    m_temperatureValue->setText(
        tr("Temperature <b>%1</b>").arg(t == 0.0 ? tr("0 (greedy)") : QString::number(t, 'f', 2)));
    m_topKValue->setText(tr("Top-k <b>%1</b>").arg(k > 0 ? QString::number(k) : tr("off")));
    m_topPValue->setText(tr("Top-p <b>%1</b>").arg(p > 0.0 ? QString::number(p, 'f', 2) : tr("off")));
    m_readouts->setText(m_page->readoutText());
}

void ExplorerPresentation::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    // The presentation's large type reaches the chart, which is not a widget.
    if (event->type() == QEvent::FontChange) {
        // A little under the text's size: the legend's three entries fit on one line.
        QFont chartFont = font();
        chartFont.setPointSizeF(font().pointSizeF() * 0.85);
        setChartFonts(m_chart->chart(), chartFont);
    }
}

}  // namespace logitlab::ui
