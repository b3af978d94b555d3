#include "app/io/model_csv.h"

#include "app/text/table_text_builder.h"

#include <QAbstractItemModel>

#include <limits>

namespace logitlab::app {

QString modelToCsv(const QAbstractItemModel& model, const Provenance& provenance)
{
    TableTextBuilder builder(model, provenance);
    builder.addRows(std::numeric_limits<int>::max());
    return builder.text();
}

QString modelToTsv(const QAbstractItemModel& model)
{
    TableTextBuilder builder(model, std::nullopt);
    builder.addRows(std::numeric_limits<int>::max());
    return builder.text();
}

}  // namespace logitlab::app
