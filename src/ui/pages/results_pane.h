// The results of any experiment kind, shown one way on every page: the run's summary line, a tab
// per chart that experimentCharts() builds for the result (the builders `logitlab-cli run`
// exports with, so the screen and the files never disagree) and a tab bar over the result's
// tables (the one ResultTableModel, sorted through a proxy). Takes whole results; a new result
// replaces every chart view and table at once. A page may put its own views (a lesson text, a
// strip) before the charts as extra tabs.
#pragma once

#include "app/kinds/experiment_result.h"
#include "charts/experiment_charts.h"

#include <QWidget>

#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QChart;
class QLabel;
class QScrollArea;
class QTabBar;
class QTabWidget;
class QTableView;
class QVBoxLayout;
QT_END_NAMESPACE

namespace logitlab::ui {

class ResultTableModel;

class ResultsPane : public QWidget {
    Q_OBJECT
public:
    explicit ResultsPane(QWidget* parent = nullptr);
    ~ResultsPane() override;

    // A page's own view, shown before the result's charts (its tab stays across results).
    void addPageTab(QWidget* view, const QString& label);
    // A page's own view of the result in words, under the summary line.
    void addBelowSummary(QWidget* view);
    // Shows a finished result: its summary, its charts and its tables.
    void setResult(app::ExperimentResult result);
    // Shows `text` in place of the summary (before the first run, say).
    void setSummaryText(const QString& text);

    bool hasResult() const { return m_result.has_value(); }
    const app::ExperimentResult* result() const { return m_result ? &*m_result : nullptr; }
    // The chart of the current tab, or the first chart when a page's own tab is current.
    QChart* currentChart() const;
    // Every chart of the result, in experimentCharts()'s order, with its file-name suffix.
    QList<QPair<QString, QChart*>> charts() const;
    // The table of the current table tab, as the CSV writes it.
    std::optional<app::ResultTable> currentTable() const;
    ResultTableModel* model() const { return m_model; }
    // Brings the table (or the chart) written as <name><suffix> to the front, as a click on its
    // tab would: "" is the main one, "-seeds" another. False when the result shown has none.
    bool showTableOf(const QString& suffix);
    bool showChartOf(const QString& suffix);
    // The kind's typed outcome of the result shown (the `details` its charts read, held as a
    // std::shared_ptr<const T>); null before a result or when it holds another type.
    template <class T>
    const T* details() const
    {
        if (!m_result)
            return nullptr;
        const auto* held = std::any_cast<std::shared_ptr<const T>>(&m_result->details);
        return held ? held->get() : nullptr;
    }
    // The chart builder of type T that made the charts shown, for a page that draws its own
    // marks on them (the junk-risk page's N); null when there is none.
    template <class T>
    T* builder() const
    {
        for (const auto& owner : m_charts.owners)
            if (auto* found = qobject_cast<T*>(owner.get()))
                return found;
        return nullptr;
    }
    QTabWidget* chartTabs() const { return m_chartTabs; }
    QTabBar* tableTabs() const { return m_tableTabs; }
    QTableView* tableView() const { return m_table; }
    QLabel* summaryLabel() const { return m_summary; }

signals:
    void resultShown();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void clearCharts();
    void fitTexts();
    void showTable(int index);

    std::optional<app::ExperimentResult> m_result;
    ExperimentCharts m_charts;  // the builders; their charts belong to the views below
    int m_pageTabs = 0;
    QLabel* m_summary;
    QWidget* m_texts;  // the summary and the page's words, in m_textScroll
    QVBoxLayout* m_textLayout;
    QScrollArea* m_textScroll;
    QTabWidget* m_chartTabs;
    QTabBar* m_tableTabs;
    QTableView* m_table;
    ResultTableModel* m_model;
};

}  // namespace logitlab::ui
