// `logitlab-cli candidates --compare`: the survivors under all four presets side by side, where
// they differ, and which documented rule (D1..D10 of docs/semantics.md) makes them differ.
#pragma once

#include "chain_options.h"
#include "command_line.h"

#include <QCommandLineParser>

namespace logitlab::cli {

int runCompare(CommandContext& context, const QCommandLineParser& parser, const ChainRequest& request, bool json);

// The rules that can separate presets `a` and `b` for these settings and logits, most specific
// first; empty when none of the documented rules applies.
QStringList explainDifference(engine::Semantics a, engine::Semantics b, const ChainRequest& request,
                              const Eigen::ArrayXd& logits);

}  // namespace logitlab::cli
