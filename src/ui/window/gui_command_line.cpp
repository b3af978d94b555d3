#include "ui/window/gui_command_line.h"

#include "app/io/build_info.h"
#include "app/text/man_page.h"

#include <QCommandLineParser>

namespace logitlab::ui {

QList<QCommandLineOption> guiOptions()
{
    return {
        {QStringLiteral("screenshot"), QStringLiteral("Render the main window offscreen to FILE.png and exit."),
         QStringLiteral("file")},
        {QStringLiteral("demo"), QStringLiteral("Write the lesson's chart and table to --out and exit "
                                                "(the default when there is no display).")},
        {QStringLiteral("out"), QStringLiteral("Folder for --demo output (default ./out)."), QStringLiteral("dir"),
         QStringLiteral("out")},
        {QStringLiteral("page"), QStringLiteral("Open on this page (e.g. \"Seed sweep\")."), QStringLiteral("title")},
        {QStringLiteral("tab"), QStringLiteral("Explorer chart to show: probabilities, sweep, draws or compare."),
         QStringLiteral("name")},
        {QStringLiteral("vocabulary"), QStringLiteral("Start the Explorer on a Zipf(1.1) vocabulary of N tokens."),
         QStringLiteral("n")},
        {QStringLiteral("open"), QStringLiteral("Open an Explorer state (.json) or logits file on the Explorer."),
         QStringLiteral("file")},
        {QStringLiteral("model"),
         QStringLiteral("Run a GGUF model (llama, qwen2, gpt2) on the Loop page, opened on a worker."),
         QStringLiteral("file.gguf")},
        {QStringLiteral("zoom"),
         QStringLiteral("Zoom the window to PERCENT (80 to 300; View > Zoom) for this run only."),
         QStringLiteral("percent")},
        {QStringLiteral("no-controls"),
         QStringLiteral("Hide every page's column of controls (View > Controls, Ctrl+K): the charts take the "
                        "window's width.")},
        {QStringLiteral("present"),
         QStringLiteral("Show the page in presentation mode (View > Present, F5): full screen, large type.")},
        {QStringLiteral("size"), QStringLiteral("Window size, e.g. 1280x800 (the default)."), QStringLiteral("WxH"),
         QStringLiteral("1280x800")},
        {QStringLiteral("man"), QStringLiteral("Print the manual page (roff) and exit; the build installs it.")},
    };
}

QString guiFileArgumentHelp()
{
    return QStringLiteral("An experiment, Explorer state or logits file to open on its page.");
}

QString guiManPage()
{
    app::ManPage page;
    page.name = QStringLiteral("logitlab");
    page.version = app::appVersion();
    page.summary = QStringLiteral("a desktop workbench for how language models turn logits into text");
    page.synopsis = {QStringLiteral("logitlab [options] [file]")};
    page.description = QStringLiteral(
        "LogitLab shows one next-token distribution through softmax at a temperature and the sampler chain "
        "(top-k, top-p, min-p, typical, XTC, mirostat, penalties, DRY, ...) under the rules of the lesson, "
        "llama.cpp, Hugging Face or vLLM, with seeded draws, a temperature sweep and the four presets side by "
        "side (the Explorer page); the chance that an N-token reply holds a junk token (Junk risk); and "
        "whether a sampler is right and a seed replays (Seed sweep); and why temperature 0 still varies: one sum "
        "in many orders and precisions against its exact value (Summation order). Help > \"What this page shows\" "
        "explains "
        "each page and loads its worked example.\n\n"
        "file is an experiment (*.logitlab.json, or any .json LogitLab saved), an Explorer state or a logits "
        "file (.csv, .txt); it opens on the page of its kind.\n\n"
        "Without a display, logitlab runs its headless demo: it writes the lesson's chart (PNG, SVG, PDF) and "
        "table (CSV) to --out.");
    // --help and --version exactly as QCommandLineParser adds them (the names differ by platform);
    // it adds --help-all beside --help without returning it.
    QCommandLineParser parser;
    QList<QCommandLineOption> options{
        parser.addHelpOption(),
        {QStringLiteral("help-all"), QStringLiteral("Displays help including Qt specific options.")},
        parser.addVersionOption(),
    };
    options += guiOptions();
    page.groups.push_back({QString(), QString(), options});
    page.sections = {
        {QStringLiteral("EXIT STATUS"),
         QStringLiteral("0 on success; 1 when a screenshot or the demo cannot be written; 2 when an option or the "
                        "file to open is wrong.")},
        {QStringLiteral("EXAMPLES"), QStringLiteral("Open an experiment on its page:\n"
                                                    "  logitlab /usr/share/logitlab/examples/seed-sweep-lesson.json\n\n"
                                                    "A screenshot of the Seed sweep page without a display:\n"
                                                    "  logitlab --screenshot shot.png --page \"Seed sweep\"")},
        {QStringLiteral("FILES"),
         QStringLiteral("/usr/share/logitlab/examples/ holds example experiment and logits files (under the "
                        "installation prefix). Settings live in ~/.config/LogitLab/LogitLab.conf.")},
        {QStringLiteral("SEE ALSO"), QStringLiteral("logitlab-cli(1)")},
    };
    return app::manPageRoff(page);
}

}  // namespace logitlab::ui
