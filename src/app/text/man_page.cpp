#include "app/text/man_page.h"

#include <QRegularExpression>

namespace logitlab::app {

namespace {

// Text for roff: backslashes doubled, hyphens made real minus signs (so options can be
// copied), and a line that would start with a control character made literal.
QString escaped(const QString& text)
{
    QString out = text;
    out.replace(QLatin1Char('\\'), QStringLiteral("\\e"));
    out.replace(QLatin1Char('-'), QStringLiteral("\\-"));
    QStringList lines = out.split(QLatin1Char('\n'));
    for (QString& line : lines)
        if (line.startsWith(QLatin1Char('.')) || line.startsWith(QLatin1Char('\'')))
            line.prepend(QStringLiteral("\\&"));
    return lines.join(QLatin1Char('\n'));
}

QString paragraphs(const QString& text)
{
    QString out;
    const QStringList blocks = text.split(QStringLiteral("\n\n"));
    for (const QString& block : blocks) {
        if (block.trimmed().isEmpty())
            continue;
        QStringList prose;
        QStringList literal;
        const auto flushProse = [&] {
            if (!prose.isEmpty())
                out += QStringLiteral(".PP\n") + escaped(prose.join(QLatin1Char(' '))) + QLatin1Char('\n');
            prose.clear();
        };
        const auto flushLiteral = [&] {
            if (!literal.isEmpty())
                out += QStringLiteral(".PP\n.nf\n.RS 4\n") + escaped(literal.join(QLatin1Char('\n'))) +
                       QStringLiteral("\n.RE\n.fi\n");
            literal.clear();
        };
        for (const QString& line : block.split(QLatin1Char('\n'))) {
            if (line.startsWith(QStringLiteral("  "))) {
                flushProse();
                literal << line.mid(2);
            } else {
                flushLiteral();
                prose << line;
            }
        }
        flushProse();
        flushLiteral();
    }
    return out;
}

QString optionItem(const QCommandLineOption& option)
{
    QStringList names;
    for (const QString& name : optionSpellings(option))
        names << QStringLiteral("\\fB%1\\fR").arg(escaped(name));
    QString head = names.join(QStringLiteral(", "));
    if (!option.valueName().isEmpty())
        head += QStringLiteral(" \\fI%1\\fR").arg(escaped(option.valueName()));
    QString description = option.description();
    if (!option.defaultValues().isEmpty())
        description += QStringLiteral(" [default: %1]").arg(option.defaultValues().join(QStringLiteral(", ")));
    return QStringLiteral(".TP\n%1\n%2\n").arg(head, escaped(description.simplified()));
}

}  // namespace

QStringList optionSpellings(const QCommandLineOption& option)
{
    QStringList spellings;
    for (const QString& name : option.names())
        spellings << (name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + name;
    return spellings;
}

QString manPageRoff(const ManPage& page)
{
    QString out;
    out += QStringLiteral(".\\\" Generated from the option tables of %1; do not edit.\n").arg(page.name);
    out += QStringLiteral(".TH \"%1\" \"1\" \"\" \"LogitLab %2\" \"User Commands\"\n")
               .arg(page.name.toUpper(), page.version);
    out += QStringLiteral(".SH NAME\n%1 \\- %2\n").arg(escaped(page.name), escaped(page.summary));
    out += QStringLiteral(".SH SYNOPSIS\n");
    for (const QString& line : page.synopsis) {
        const qsizetype space = line.indexOf(QLatin1Char(' '));
        const QString program = space < 0 ? line : line.left(space);
        const QString rest = space < 0 ? QString() : line.mid(space + 1);
        out += QStringLiteral(".br\n\\fB%1\\fR %2\n").arg(escaped(program), escaped(rest));
    }
    out += QStringLiteral(".SH DESCRIPTION\n") + paragraphs(page.description);
    out += QStringLiteral(".SH %1\n").arg(page.optionsTitle);
    for (const ManOptionGroup& group : page.groups) {
        if (!group.heading.isEmpty())
            out += QStringLiteral(".SS \"%1\"\n").arg(escaped(group.heading));
        out += paragraphs(group.text);
        for (const QCommandLineOption& option : group.options)
            if (!(option.flags() & QCommandLineOption::HiddenFromHelp))
                out += optionItem(option);
    }
    for (const auto& [title, text] : page.sections)
        out += QStringLiteral(".SH %1\n").arg(title) + paragraphs(text);
    return out;
}

}  // namespace logitlab::app
