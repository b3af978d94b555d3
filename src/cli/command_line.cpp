#include "cli/command_line.h"

#include "cli/command_spec.h"
#include "engine/io/logits_parser.h"

namespace logitlab::cli {

QCommandLineOption helpOption()
{
    return {{QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help and exit.")};
}

bool parseOrThrow(QCommandLineParser& parser, const QStringList& arguments, QTextStream& out)
{
    const QCommandLineOption help = helpOption();
    parser.addOption(help);
    if (!parser.parse(arguments))
        throw UsageError{parser.errorText()};
    if (parser.isSet(help)) {
        out << parser.helpText();
        return false;
    }
    if (!parser.positionalArguments().isEmpty())
        throw UsageError{QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().first())};
    return true;
}

double doubleOption(const QCommandLineParser& parser, const QString& name)
{
    const QString text = parser.value(name);
    const auto value = engine::parseDouble(text.toStdString());
    if (!value)
        throw UsageError{QStringLiteral("%1: '%2' is not a number").arg(name, text)};
    return *value;
}

qint64 integerOption(const QCommandLineParser& parser, const QString& name, qint64 min, qint64 max)
{
    const QString text = parser.value(name).trimmed();
    bool ok = false;
    const qint64 value = text.toLongLong(&ok);
    if (!ok)
        throw UsageError{QStringLiteral("%1: '%2' is not a whole number").arg(name, text)};
    if (value < min || value > max)
        throw UsageError{
            QStringLiteral("%1: must be between %2 and %3, got %4").arg(name).arg(min).arg(max).arg(value)};
    return value;
}

void declareCommand(QCommandLineParser& parser, const CommandSpec& spec)
{
    parser.setApplicationDescription(spec.description);
    if (!spec.positional.isEmpty())
        parser.addPositionalArgument(spec.positional, spec.positionalHelp);
    parser.addOptions(spec.options);
}

}  // namespace logitlab::cli
