// A table model as CSV with a provenance header: what "Export table as CSV" writes. Numbers
// come from Qt::EditRole at full precision, so the file holds what the engine computed, not
// the rounded text on screen.
#pragma once

#include "app/io/provenance.h"

#include <QString>

QT_BEGIN_NAMESPACE
class QAbstractItemModel;
QT_END_NAMESPACE

namespace logitlab::app {

QString modelToCsv(const QAbstractItemModel& model, const Provenance& provenance);

// The model as tab-separated text for the clipboard (Edit > Copy table): a spreadsheet pastes
// it into cells. Display text, header row first, no provenance.
QString modelToTsv(const QAbstractItemModel& model);

}  // namespace logitlab::app
