// logitlab-cli: LogitLab without a window. `logitlab-cli <command> --help` describes each command.
#include "app/io/build_info.h"
#include "app/run/allocator_tuning.h"
#include "app/text/one_line_text.h"
#include "cli/bash_completion.h"
#include "cli/cli_application.h"
#include "cli/cli_man_page.h"
#include "cli/command_table.h"

#include <QCoreApplication>

#include <algorithm>
#include <cstdio>

using namespace logitlab::cli;

int main(int argc, char* argv[])
{
    logitlab::app::keepLargeAllocations();
    const auto app = makeCliApplication(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("logitlab-cli"));
    QTextStream out(stdout);
    QTextStream err(stderr);

    QStringList args = QCoreApplication::arguments();
    if (args.size() < 2 || args[1] == QLatin1String("--help") || args[1] == QLatin1String("-h")) {
        (args.size() < 2 ? err : out) << usageText();
        return args.size() < 2 ? 2 : 0;
    }
    if (args[1] == QLatin1String("--version") || args[1] == QLatin1String("-v")) {
        out << "logitlab-cli " << logitlab::app::appVersion() << " (git " << logitlab::app::gitHash() << ")\n";
        return 0;
    }
    if (args[1] == QLatin1String("--man")) {
        out << cliManPage();
        return 0;
    }
    if (args[1] == QLatin1String("--bash-completion")) {
        out << bashCompletion();
        return 0;
    }
    const QString name = args[1];
    const std::vector<CommandSpec> commands = commandTable();
    const auto command =
        std::find_if(commands.begin(), commands.end(), [&name](const CommandSpec& c) { return c.name == name; });
    if (command == commands.end()) {
        err << "logitlab-cli: error: unknown command '" << logitlab::app::oneLineText(name) << "' (try --help)\n";
        return 2;
    }
    args.removeAt(1);
    args[0] = QStringLiteral("logitlab-cli ") + name;
    CommandContext context{args, out, err};
    try {
        return command->run(context);
    } catch (const UsageError& e) {
        out.flush();
        // The message may quote the input (a token, a file's field): one line whatever it holds.
        err << "logitlab-cli " << logitlab::app::oneLineText(name)
            << ": error: " << logitlab::app::oneLineText(e.message) << '\n';
        return 2;
    }
}
