// The application object logitlab-cli runs under. Charts render through Qt Widgets, so `run`
// with a chart format needs a QApplication, on the offscreen platform when there is no display;
// every other command stays on QCoreApplication and never touches a display.
#pragma once

#include <QCoreApplication>

#include <memory>

namespace logitlab::cli {

std::unique_ptr<QCoreApplication> makeCliApplication(int& argc, char** argv);

// The --formats value of a `run` command line ("csv,png" when absent), read before any Qt
// application exists.
QString requestedFormats(int argc, char** argv);

inline const char* const kDefaultFormats = "csv,png";

}  // namespace logitlab::cli
