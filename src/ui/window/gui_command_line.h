// The options of `logitlab` (the desktop application) as a table, and logitlab(1) written from
// it (`logitlab --man`; the build installs it), so the man page and --help list the same options.
#pragma once

#include <QCommandLineOption>
#include <QList>
#include <QString>

namespace logitlab::ui {

// Everything but -h/--help/--help-all and -v/--version, which QCommandLineParser adds itself.
QList<QCommandLineOption> guiOptions();

// The optional file argument: an experiment, Explorer state or logits file.
inline constexpr const char* kGuiFileArgument = "file";
QString guiFileArgumentHelp();

QString guiManPage();

}  // namespace logitlab::ui
