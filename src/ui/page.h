// The contract between the main window and an experiment page: a title for the page list, the
// chart and results table the File menu exports, the provenance those exports carry, and
// signals for the status bar (messages, progress of long work, busy state).
#pragma once

#include "provenance.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QAbstractItemModel;
class QChart;
QT_END_NAMESPACE

namespace logitlab::ui {

class Page : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;

    virtual QString title() const = 0;
    virtual QChart* chart() const { return nullptr; }
    virtual QAbstractItemModel* resultsModel() const { return nullptr; }
    virtual app::Provenance provenance() const = 0;
    // Stops long work the page runs (the status bar's Cancel). Pages without any ignore it.
    virtual void cancel() {}

signals:
    void statusMessage(const QString& message);
    void progressChanged(int done, int total);
    void busyChanged(bool busy);
};

}  // namespace logitlab::ui
