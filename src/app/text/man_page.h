// A manual page (roff with the man(7) macros) written from option tables: the same
// QCommandLineOption lists the programs parse with, so `man logitlab-cli` and `--help` agree.
#pragma once

#include <QCommandLineOption>
#include <QList>
#include <QString>
#include <QStringList>

#include <utility>
#include <vector>

namespace logitlab::app {

struct ManOptionGroup {
    QString heading;  // a subsection title (e.g. a subcommand's synopsis); empty for none
    QString text;     // a paragraph before the options
    QList<QCommandLineOption> options;
};

struct ManPage {
    QString name;          // "logitlab-cli"
    QString version;       // "0.2.0"
    QString summary;       // the NAME line after the dash
    QStringList synopsis;  // one usage line each, program name first
    QString description;   // paragraphs separated by blank lines
    QString optionsTitle = QStringLiteral("OPTIONS");
    std::vector<ManOptionGroup> groups;
    std::vector<std::pair<QString, QString>> sections;  // further sections: title, text
};

// An option's names as typed: "-h" for a one-letter name, "--help" for a longer one.
QStringList optionSpellings(const QCommandLineOption& option);

// Section 1 roff. Text is escaped (backslashes, leading dots, hyphens in option names); lines of
// a section's text that start with two spaces are set as literal examples.
QString manPageRoff(const ManPage& page);

}  // namespace logitlab::app
