// One subcommand of logitlab-cli as data: its name, summary, description, positional argument
// and options. The command's parser, its --help, the usage text, the man page and the bash
// completion are all made from these, so they cannot disagree.
#pragma once

#include "cli/command_line.h"

#include <QCommandLineOption>
#include <QList>
#include <QString>

#include <functional>

namespace logitlab::cli {

struct CommandSpec {
    QString name;         // "candidates"
    QString summary;      // one line: the usage text's command list and the man page's
    QString description;  // the paragraph --help starts with
    QString positional;   // e.g. "FILE.json"; empty when the command takes none
    QString positionalHelp;
    QList<QCommandLineOption> options;  // every option but --help, which parseOrThrow adds
    std::function<int(CommandContext&)> run;
};

// Sets `parser` up for `spec`: description, positional argument and options.
void declareCommand(QCommandLineParser& parser, const CommandSpec& spec);

}  // namespace logitlab::cli
