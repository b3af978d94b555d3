// Every subcommand of logitlab-cli (command_spec.h) and the top-level options, in the order the
// usage text, the man page and the bash completion list them.
#pragma once

#include "cli/command_spec.h"

#include <QCommandLineOption>
#include <QList>
#include <QString>

#include <vector>

namespace logitlab::cli {

std::vector<CommandSpec> commandTable();

// The options `logitlab-cli` takes before any command: --help, --version, --man, --bash-completion.
QList<QCommandLineOption> topLevelOptions();

// What `logitlab-cli --help` prints.
QString usageText();

}  // namespace logitlab::cli
