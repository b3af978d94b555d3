#include "cli/command_table.h"

#include "app/text/man_page.h"
#include "cli/candidates_command.h"
#include "cli/model_commands.h"
#include "cli/run_command.h"
#include "cli/sample_command.h"

namespace logitlab::cli {

std::vector<CommandSpec> commandTable()
{
    return {candidatesCommand(), sampleCommand(), runCommand(), tokenizeCommand(), logitsCommand()};
}

QList<QCommandLineOption> topLevelOptions()
{
    return {
        helpOption(),
        {{QStringLiteral("v"), QStringLiteral("version")}, QStringLiteral("Print the version and git hash and exit.")},
        {QStringLiteral("man"), QStringLiteral("Print this manual page (roff) and exit; the build installs it.")},
        {QStringLiteral("bash-completion"),
         QStringLiteral("Print the bash completion script and exit; the build installs it.")},
    };
}

QString usageText()
{
    QString text = QStringLiteral("Usage: logitlab-cli <command> [options]\n\nCommands:\n");
    for (const CommandSpec& command : commandTable())
        text += QStringLiteral("  %1 %2\n").arg(command.name, -12).arg(command.summary);
    text += QStringLiteral("\nOptions:\n");
    for (const QCommandLineOption& option : topLevelOptions()) {
        text += QStringLiteral("  %1 %2\n")
                    .arg(app::optionSpellings(option).join(QStringLiteral(", ")), -18)
                    .arg(option.description());
    }
    text += QStringLiteral("\nRun 'logitlab-cli <command> --help' for the options of a command.\n");
    return text;
}

}  // namespace logitlab::cli
