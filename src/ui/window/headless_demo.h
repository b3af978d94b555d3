// What `logitlab` does without a display: writes the lesson's chart (PNG, SVG, PDF; a one-column
// figure, 8.5 cm x 6 cm) and table (CSV) into a folder, so a server or CI run still shows what
// the program computes.
#pragma once

#include <QString>
#include <QStringList>

namespace logitlab::ui {

struct DemoResult {
    QStringList written;  // paths of the files written
    QString error;        // empty on success
};

DemoResult runHeadlessDemo(const QString& outDir);

}  // namespace logitlab::ui
