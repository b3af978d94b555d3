// Runs `logitlab-cli candidates` or `sample` in-process on a fuzzed argument vector: one
// argument per line, the first byte picks the command. This reaches the list options that have
// no parser of their own (--history, --logit-bias, --dry-breakers, --seed, --draws, ...) and
// every check between them. Arguments naming a file are dropped (fuzz_logits_file reads files),
// and `sample` is held to the default number of draws so that one input stays fast.
#include "cli/candidates_command.h"
#include "cli/command_line.h"
#include "cli/sample_command.h"
#include "fuzz_support.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>
#include <QTextStream>

#include <memory>

using namespace logitlab;

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    static std::unique_ptr<QCoreApplication> app = std::make_unique<QCoreApplication>(*argc, *argv);
    QCoreApplication::setApplicationName(QStringLiteral("logitlab-cli"));
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    const bool sample = data[0] & 1;
    const QString text = QString::fromUtf8(reinterpret_cast<const char*>(data + 1), static_cast<qsizetype>(size - 1));
    QStringList args{sample ? QStringLiteral("logitlab-cli sample") : QStringLiteral("logitlab-cli candidates")};
    for (const QString& arg : text.split(QLatin1Char('\n'))) {
        if (arg.contains(QLatin1String("file")) || (sample && arg.contains(QLatin1String("draws"))))
            return 0;
        args << arg;
    }
    QString outText;
    QString errText;
    QTextStream out(&outText);
    QTextStream err(&errText);
    cli::CommandContext context{args, out, err};
    try {
        (void)(sample ? cli::runSample(context) : cli::runCandidates(context));
    } catch (const cli::UsageError&) {
        // exit code 2 with one line: the expected refusal
    }
    return 0;
}
