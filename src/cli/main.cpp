// logitlab-cli: LogitLab without a window. `logitlab-cli <command> --help` describes each command.
#include "allocator_tuning.h"
#include "candidates_command.h"
#include "cli_application.h"
#include "command_line.h"
#include "one_line_text.h"
#include "run_command.h"
#include "sample_command.h"

#include <QCoreApplication>

#include <cstdio>
#include <functional>
#include <map>

using namespace logitlab::cli;

namespace {

const char* const kUsage =
    "Usage: logitlab-cli <command> [options]\n"
    "\n"
    "Commands:\n"
    "  candidates   the tokens that survive the sampler, with their probabilities\n"
    "  sample       seeded draws through the sampler, counted per token\n"
    "  run          run an experiment file headless: CSV and charts\n"
    "\n"
    "Run 'logitlab-cli <command> --help' for the options of a command.\n";

}  // namespace

int main(int argc, char* argv[])
{
    logitlab::app::keepLargeAllocations();
    const auto app = makeCliApplication(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("logitlab-cli"));
    QTextStream out(stdout);
    QTextStream err(stderr);

    const std::map<QString, std::function<int(CommandContext&)>> commands{
        {QStringLiteral("candidates"), runCandidates},
        {QStringLiteral("sample"), runSample},
        {QStringLiteral("run"), runRun},
    };

    QStringList args = QCoreApplication::arguments();
    if (args.size() < 2 || args[1] == QLatin1String("--help") || args[1] == QLatin1String("-h")) {
        (args.size() < 2 ? err : out) << kUsage;
        return args.size() < 2 ? 2 : 0;
    }
    const QString name = args[1];
    const auto command = commands.find(name);
    if (command == commands.end()) {
        err << "logitlab-cli: error: unknown command '" << logitlab::app::oneLineText(name) << "' (try --help)\n";
        return 2;
    }
    args.removeAt(1);
    args[0] = QStringLiteral("logitlab-cli ") + name;
    CommandContext context{args, out, err};
    try {
        return command->second(context);
    } catch (const UsageError& e) {
        out.flush();
        // The message may quote the input (a token, a file's field): one line whatever it holds.
        err << "logitlab-cli " << logitlab::app::oneLineText(name) << ": error: " << logitlab::app::oneLineText(e.message)
            << '\n';
        return 2;
    }
}
