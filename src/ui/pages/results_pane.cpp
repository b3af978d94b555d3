#include "ui/pages/results_pane.h"

#include "ui/models/result_table_model.h"

#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace logitlab::ui {

ResultsPane::ResultsPane(QWidget* parent)
    : QWidget(parent), m_summary(new QLabel), m_chartTabs(new QTabWidget), m_tableTabs(new QTabBar),
      m_table(new QTableView), m_model(new ResultTableModel(this))
{
    m_summary->setObjectName(QStringLiteral("resultSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_chartTabs->setObjectName(QStringLiteral("chartTabs"));
    m_chartTabs->setDocumentMode(true);

    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_model);
    proxy->setSortRole(ResultTableModel::SortRole);
    m_table->setModel(proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->verticalHeader()->hide();
    m_tableTabs->setExpanding(false);
    m_tableTabs->setObjectName(QStringLiteral("tableTabs"));
    connect(m_tableTabs, &QTabBar::currentChanged, this, &ResultsPane::showTable);

    auto* tablePane = new QWidget;
    auto* tableLayout = new QVBoxLayout(tablePane);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->setSpacing(0);
    tableLayout->addWidget(m_tableTabs);
    tableLayout->addWidget(m_table, 1);
    tablePane->setMinimumHeight(120);  // a few rows always readable under the chart

    // The summary and a page's words above the charts scroll within a fifth of the pane: at 200%
    // zoom on a projector their lines would otherwise push the chart down to a sliver.
    m_texts = new QWidget;
    m_textLayout = new QVBoxLayout(m_texts);
    m_textLayout->setContentsMargins(0, 0, 0, 0);
    m_textLayout->addWidget(m_summary);
    m_texts->installEventFilter(this);
    m_textScroll = new QScrollArea;
    m_textScroll->setObjectName(QStringLiteral("resultTexts"));
    m_textScroll->setWidget(m_texts);
    m_textScroll->setWidgetResizable(true);
    m_textScroll->setFrameShape(QFrame::NoFrame);
    m_textScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_textScroll->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    auto* top = new QWidget;
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_textScroll);
    topLayout->addWidget(m_chartTabs, 1);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(top);
    split->addWidget(tablePane);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    split->setSizes({400, 100});  // before the first layout: the share, not pixels
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
}

ResultsPane::~ResultsPane() { clearCharts(); }

void ResultsPane::addPageTab(QWidget* view, const QString& label) { m_chartTabs->insertTab(m_pageTabs++, view, label); }

void ResultsPane::addBelowSummary(QWidget* view) { m_textLayout->addWidget(view); }

void ResultsPane::setSummaryText(const QString& text) { m_summary->setText(text); }

void ResultsPane::fitTexts()
{
    const int width = m_textScroll->width();
    const int need = m_texts->hasHeightForWidth() ? m_texts->heightForWidth(width) : m_texts->sizeHint().height();
    const int cap = std::max(2 * fontMetrics().lineSpacing(), height() / 5);
    m_textScroll->setFixedHeight(std::min(need, cap));
}

bool ResultsPane::eventFilter(QObject* watched, QEvent* event)
{
    // The texts changed (a new summary, a page's words shown or hidden): their height too.
    if (watched == m_texts && event->type() == QEvent::LayoutRequest)
        fitTexts();
    return QWidget::eventFilter(watched, event);
}

void ResultsPane::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitTexts();
}

void ResultsPane::clearCharts()
{
    // The builders go first: a chart in a view's scene is the view's, so they leave it; then the
    // views delete their charts.
    m_charts.owners.clear();
    m_charts.charts.clear();
    while (m_chartTabs->count() > m_pageTabs) {
        QWidget* view = m_chartTabs->widget(m_pageTabs);
        m_chartTabs->removeTab(m_pageTabs);
        delete view;
    }
}

void ResultsPane::setResult(app::ExperimentResult result)
{
    // The first result opens on its main chart; later ones keep the tab the user chose.
    const int currentChart = m_result ? m_chartTabs->currentIndex() : -1;
    const int currentTable = std::max(0, m_tableTabs->currentIndex());
    clearCharts();
    m_result = std::move(result);
    m_charts = experimentCharts(*m_result);
    for (qsizetype i = 0; i < m_charts.charts.size(); ++i) {
        auto* view = new QChartView(m_charts.charts[i].second);  // the view owns the chart from here
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumHeight(180);
        m_chartTabs->addTab(view, m_charts.labels.value(i));
    }
    if (currentChart >= 0 && currentChart < m_chartTabs->count())
        m_chartTabs->setCurrentIndex(currentChart);
    else if (m_chartTabs->count() > m_pageTabs)
        m_chartTabs->setCurrentIndex(m_pageTabs);
    m_summary->setText(m_result->summary);
    {
        const QSignalBlocker block(m_tableTabs);
        while (m_tableTabs->count() > 0)
            m_tableTabs->removeTab(0);
        for (const auto& table : m_result->tables)
            m_tableTabs->addTab(table.title);
        m_tableTabs->setCurrentIndex(std::min(currentTable, m_tableTabs->count() - 1));
    }
    showTable(m_tableTabs->currentIndex());
    emit resultShown();
}

void ResultsPane::showTable(int index)
{
    if (m_result && index >= 0 && index < static_cast<int>(m_result->tables.size()))
        m_model->setTable(m_result->tables[static_cast<std::size_t>(index)]);
}

bool ResultsPane::showTableOf(const QString& suffix)
{
    if (!m_result)
        return false;
    for (std::size_t i = 0; i < m_result->tables.size(); ++i) {
        if (m_result->tables[i].suffix == suffix) {
            m_tableTabs->setCurrentIndex(static_cast<int>(i));
            return true;
        }
    }
    return false;
}

bool ResultsPane::showChartOf(const QString& suffix)
{
    for (qsizetype i = 0; i < m_charts.charts.size(); ++i) {
        if (m_charts.charts[i].first == suffix) {
            m_chartTabs->setCurrentIndex(m_pageTabs + static_cast<int>(i));
            return true;
        }
    }
    return false;
}

QChart* ResultsPane::currentChart() const
{
    if (m_charts.charts.isEmpty())
        return nullptr;
    const int index = m_chartTabs->currentIndex() - m_pageTabs;
    if (index < 0 || index >= m_charts.charts.size())
        return m_charts.charts.front().second;
    return m_charts.charts.at(index).second;
}

QList<QPair<QString, QChart*>> ResultsPane::charts() const { return m_charts.charts; }

std::optional<app::ResultTable> ResultsPane::currentTable() const
{
    if (!m_result || m_result->tables.empty())
        return std::nullopt;
    return m_model->table();
}

}  // namespace logitlab::ui
