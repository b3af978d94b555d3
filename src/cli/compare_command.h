// `logitlab-cli candidates --compare`: the survivors under all four presets side by side, where
// they differ, and which documented rule (D1..D10 of docs/semantics.md) makes them differ
// (engine::presetDifferences, shared with the Explorer's Compare tab).
#pragma once

#include "cli/chain_options.h"
#include "cli/command_line.h"

#include <QCommandLineParser>

namespace logitlab::cli {

int runCompare(CommandContext& context, const QCommandLineParser& parser, const ChainRequest& request, bool json);

}  // namespace logitlab::cli
