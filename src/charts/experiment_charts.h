// The charts of an experiment result, by its kind: what `logitlab-cli run` exports next to the
// tables, each under the file-name suffix it is written with. The builders for each kind are
// listed once, in experiment_charts.cpp; a kind without charts gets none.
#pragma once

#include "app/kinds/experiment_result.h"

#include <QList>
#include <QObject>
#include <QPair>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace logitlab::ui {

struct ExperimentCharts {
    QList<QPair<QString, QChart*>> charts;  // suffix ("", "-spread", ...) -> chart, owned below
    QStringList labels;                     // each chart's tab on a page ("Errors")
    std::vector<std::unique_ptr<QObject>> owners;

    void add(const QString& suffix, const QString& label, QChart* chart);
};

ExperimentCharts experimentCharts(const app::ExperimentResult& result);

}  // namespace logitlab::ui
