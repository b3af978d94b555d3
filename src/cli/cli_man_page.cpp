#include "cli/cli_man_page.h"

#include "app/io/build_info.h"
#include "app/text/man_page.h"
#include "cli/command_table.h"

namespace logitlab::cli {

QString cliManPage()
{
    app::ManPage page;
    page.name = QStringLiteral("logitlab-cli");
    page.version = app::appVersion();
    page.summary = QStringLiteral("experiments with how language models turn logits into text, headless");
    page.synopsis = {
        QStringLiteral("logitlab-cli candidates [options]"), QStringLiteral("logitlab-cli sample [options]"),
        QStringLiteral("logitlab-cli run FILE.json --out DIR [options]"), QStringLiteral("logitlab-cli --version")};
    page.description =
        QStringLiteral("logitlab-cli is LogitLab without a window. It puts logits through softmax at a temperature and "
                       "through the sampler chain (top-k, top-p, min-p, typical, XTC, mirostat, penalties, DRY, ...) "
                       "under the rules of the lesson, llama.cpp, Hugging Face or vLLM, draws seeded samples, and runs "
                       "the experiment files the desktop application saves.\n\n"
                       "Defaults: temperature 1, no filters, tokens named by id, seed 42, mulberry32, 1000 draws. "
                       "Bad input exits with code 2 and one line on standard error naming the problem.");
    page.groups.push_back({QString(), QStringLiteral("Before a command:"), topLevelOptions()});
    for (const CommandSpec& command : commandTable()) {
        QString text = command.description;
        text.replace(QLatin1Char('\n'), QLatin1Char(' '));
        if (!command.positional.isEmpty())
            text += QStringLiteral("\n\n%1: %2").arg(command.positional, command.positionalHelp);
        page.groups.push_back(
            {QStringLiteral("logitlab-cli ") + command.name, text, command.options + QList{helpOption()}});
    }
    page.sections = {
        {QStringLiteral("EXIT STATUS"),
         QStringLiteral("0 on success; 2 when an option, a value or an input file is wrong (one line on standard "
                        "error names it); 130 after Ctrl-C and 143 after SIGTERM during run.")},
        {QStringLiteral("EXAMPLES"),
         QStringLiteral(
             "The survivors of T = 1, top-p = 0.9 on the lesson's logits:\n"
             "  logitlab-cli candidates --logits 3,2,1.5,1,-2 --tokens users,data,items,result,banana --top-p 0.9\n\n"
             "The lesson's exercise, 1000 seeded draws:\n"
             "  logitlab-cli sample --logits 2.5,2.2,1.0,0.3,-0.5 --top-p 0.9 --seed 42 --draws 1000\n\n"
             "An experiment file, headless, CSV with provenance plus charts:\n"
             "  logitlab-cli run /usr/share/logitlab/examples/junk-risk-lesson.json --out out --formats csv,png")},
        {QStringLiteral("FILES"),
         QStringLiteral("/usr/share/logitlab/examples/ holds example experiment and logits files (under the "
                        "installation prefix).")},
        {QStringLiteral("SEE ALSO"), QStringLiteral("logitlab(1)")},
    };
    return app::manPageRoff(page);
}

}  // namespace logitlab::cli
