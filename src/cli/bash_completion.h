// The bash completion script for logitlab-cli, written from the command table
// (`logitlab-cli --bash-completion`; the build installs it): subcommands, each command's
// options, the preset and RNG names, the formats, and files and folders where a path goes.
#pragma once

#include <QString>

namespace logitlab::cli {

QString bashCompletion();

}  // namespace logitlab::cli
