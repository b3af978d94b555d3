// Shared plumbing for subcommands: the usage error type (exit code 2, one line) and a parser
// set up with --help for one subcommand.
#pragma once

#include <QCommandLineParser>
#include <QString>
#include <QStringList>
#include <QTextStream>

namespace logitlab::cli {

// Thrown inside a subcommand to end it with exit code 2 and `message` on one stderr line.
struct UsageError {
    QString message;
};

// What a subcommand needs: its arguments (program name first) and the streams to write to.
struct CommandContext {
    QStringList arguments;
    QTextStream& out;
    QTextStream& err;
};

// -h, --help: every command has it (the man page lists it too).
QCommandLineOption helpOption();

// Parses `arguments` with the subcommand's options. Returns false when --help was printed.
bool parseOrThrow(QCommandLineParser& parser, const QStringList& arguments, QTextStream& out);

// Option value readers that throw UsageError naming the option.
double doubleOption(const QCommandLineParser& parser, const QString& name);
qint64 integerOption(const QCommandLineParser& parser, const QString& name, qint64 min, qint64 max);

}  // namespace logitlab::cli
