// The man pages and the bash completion list exactly the options the programs accept: each
// program's --help (what its parser knows) against the generated logitlab-cli(1), logitlab(1)
// and completion script. An option added to a parser but not to the tables fails here.
#include "support/test_support.h"

#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace logitlab;

namespace {

QString run(const QString& program, const QStringList& args)
{
    QProcess p;
    p.start(test::binaryPath(program), args);
    if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        qFatal("%s %s failed", qPrintable(program), qPrintable(args.join(QLatin1Char(' '))));
    return QString::fromUtf8(p.readAllStandardOutput());
}

// The option names of a --help text: the lines of its options block that start with a dash.
QSet<QString> helpOptions(const QString& help)
{
    QSet<QString> names;
    static const QRegularExpression line(QStringLiteral("^\\s+(-[^ ].*?)(\\s{2,}|$)"));
    static const QRegularExpression name(QStringLiteral("(--?[A-Za-z0-9?][A-Za-z0-9-]*)"));
    for (const QString& text : help.split(QLatin1Char('\n'))) {
        const auto m = line.match(text);
        if (!m.hasMatch())
            continue;
        for (const QString& part : m.captured(1).split(QStringLiteral(", "))) {
            const auto n = name.match(part);
            if (n.hasMatch() && n.capturedStart() == 0)
                names.insert(n.captured(1));
        }
    }
    return names;
}

// The option names of the man page's subsection `heading` (empty: the first options block):
// each .TP item's bold names.
QSet<QString> manOptions(const QString& roff, const QString& heading)
{
    QSet<QString> names;
    const QStringList lines = roff.split(QLatin1Char('\n'));
    QString section;
    bool inOptions = false;
    static const QRegularExpression bold(QStringLiteral("\\\\fB([^\\\\]*(?:\\\\-[^\\\\]*)*)\\\\fR"));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString& l = lines[i];
        if (l.startsWith(QLatin1String(".SH "))) {
            inOptions = l == QLatin1String(".SH OPTIONS");
            section.clear();
        } else if (l.startsWith(QLatin1String(".SS "))) {
            section = l.mid(4).remove(QLatin1Char('"')).replace(QStringLiteral("\\-"), QStringLiteral("-"));
        } else if (inOptions && l == QLatin1String(".TP") && i + 1 < lines.size() && section == heading) {
            auto it = bold.globalMatch(lines[i + 1]);
            while (it.hasNext())
                names.insert(it.next().captured(1).replace(QStringLiteral("\\-"), QStringLiteral("-")));
        }
    }
    return names;
}

QStringList sorted(const QSet<QString>& set)
{
    QStringList list(set.begin(), set.end());
    list.sort();
    return list;
}

}  // namespace

class TestManPage : public QObject {
    Q_OBJECT
private slots:
    void cliCommandOptionsMatchManPage_data()
    {
        QTest::addColumn<QString>("command");
        QTest::newRow("candidates") << QStringLiteral("candidates");
        QTest::newRow("sample") << QStringLiteral("sample");
        QTest::newRow("run") << QStringLiteral("run");
        QTest::newRow("tokenize") << QStringLiteral("tokenize");
        QTest::newRow("logits") << QStringLiteral("logits");
    }
    void cliCommandOptionsMatchManPage()
    {
        QFETCH(QString, command);
        const QSet<QString> accepted =
            helpOptions(run(QStringLiteral("logitlab-cli"), {command, QStringLiteral("--help")}));
        QVERIFY2(accepted.size() >= 5, qPrintable(sorted(accepted).join(QLatin1Char(' '))));
        QVERIFY(accepted.contains(QStringLiteral("--help")));
        const QString roff = run(QStringLiteral("logitlab-cli"), {QStringLiteral("--man")});
        QCOMPARE(sorted(manOptions(roff, QStringLiteral("logitlab-cli ") + command)), sorted(accepted));
    }

    void cliTopLevelOptionsMatchManPage()
    {
        const QSet<QString> accepted = helpOptions(run(QStringLiteral("logitlab-cli"), {QStringLiteral("--help")}));
        const QString roff = run(QStringLiteral("logitlab-cli"), {QStringLiteral("--man")});
        QCOMPARE(sorted(manOptions(roff, QString())), sorted(accepted));
        // Each listed top-level option works (exit 0, some output).
        for (const QString& option : accepted)
            QVERIFY2(!run(QStringLiteral("logitlab-cli"), {option}).isEmpty(), qPrintable(option));
    }

    void cliManPageListsEveryCommand()
    {
        const QString usage = run(QStringLiteral("logitlab-cli"), {QStringLiteral("--help")});
        const QString roff = run(QStringLiteral("logitlab-cli"), {QStringLiteral("--man")});
        static const QRegularExpression commandLine(QStringLiteral("^  ([a-z]+) +\\S"),
                                                    QRegularExpression::MultilineOption);
        auto it = commandLine.globalMatch(usage.section(QStringLiteral("Options:"), 0, 0));
        int commands = 0;
        while (it.hasNext()) {
            const QString command = it.next().captured(1);
            QVERIFY2(roff.contains(QStringLiteral(".SS \"logitlab\\-cli %1\"").arg(command)), qPrintable(command));
            ++commands;
        }
        QCOMPARE(commands, 5);
    }

    void guiOptionsMatchManPage()
    {
        const QSet<QString> accepted = helpOptions(run(QStringLiteral("logitlab"), {QStringLiteral("--help")}));
        QVERIFY(accepted.contains(QStringLiteral("--screenshot")));
        const QString roff = run(QStringLiteral("logitlab"), {QStringLiteral("--man")});
        QCOMPARE(sorted(manOptions(roff, QString())), sorted(accepted));
    }

    // `logitlab FILE` (the desktop entry's Exec line): a LogitLab file opens, a bad one is named.
    void guiOpensItsFileArgument()
    {
        QTemporaryDir dir;
        const QString shot = dir.filePath(QStringLiteral("shot.png"));
        const QString example = test::dataPath(QStringLiteral("../../examples/seed-sweep-lesson.json"));
        QProcess good;
        good.start(test::binaryPath(QStringLiteral("logitlab")), {QStringLiteral("--screenshot"), shot, example});
        QVERIFY(good.waitForFinished(60000));
        QCOMPARE(good.exitCode(), 0);
        QVERIFY(QFile::exists(shot));
        QProcess bad;
        bad.start(test::binaryPath(QStringLiteral("logitlab")),
                  {QStringLiteral("--screenshot"), shot, dir.filePath(QStringLiteral("missing.logitlab.json"))});
        QVERIFY(bad.waitForFinished(60000));
        QCOMPARE(bad.exitCode(), 2);
        QVERIFY(bad.readAllStandardError().contains("missing.logitlab.json"));
    }

    // Bad values of the window's options: exit 2 with one line naming the option, no window.
    void guiRefusesBadOptionValues_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("zoom not a number") << QStringList{QStringLiteral("--zoom"), QStringLiteral("big")}
                                           << QStringLiteral("--zoom: expected a percent from 80 to 300, got 'big'");
        QTest::newRow("zoom too large") << QStringList{QStringLiteral("--zoom"), QStringLiteral("301")}
                                        << QStringLiteral("--zoom: expected a percent from 80 to 300, got '301'");
        QTest::newRow("zoom too small") << QStringList{QStringLiteral("--zoom"), QStringLiteral("79")}
                                        << QStringLiteral("--zoom: expected a percent from 80 to 300, got '79'");
        QTest::newRow("size") << QStringList{QStringLiteral("--size"), QStringLiteral("100x100")}
                              << QStringLiteral("--size: expected WxH of at least 200x200, got '100x100'");
        QTest::newRow("page") << QStringList{QStringLiteral("--page"), QStringLiteral("Nowhere")}
                              << QStringLiteral("--page: no page called 'Nowhere'");
    }
    void guiRefusesBadOptionValues()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString shot = dir.filePath(QStringLiteral("shot.png"));
        QProcess gui;
        gui.start(test::binaryPath(QStringLiteral("logitlab")),
                  QStringList{QStringLiteral("--screenshot"), shot} + arguments);
        QVERIFY(gui.waitForFinished(60000));
        QCOMPARE(gui.exitCode(), 2);
        const QString err = QString::fromUtf8(gui.readAllStandardError());
        QVERIFY2(err.contains(QStringLiteral("logitlab: error: ") + message), qPrintable(err));
        QVERIFY(!QFile::exists(shot));
    }

    void versionIsTheProjectVersion()
    {
        const QString cli = run(QStringLiteral("logitlab-cli"), {QStringLiteral("--version")});
        const QString gui = run(QStringLiteral("logitlab"), {QStringLiteral("--version")});
        QVERIFY2(cli.startsWith(QStringLiteral("logitlab-cli " LOGITLAB_PROJECT_VERSION " (git ")), qPrintable(cli));
        QVERIFY2(gui.contains(QStringLiteral(LOGITLAB_PROJECT_VERSION)), qPrintable(gui));
        QVERIFY(run(QStringLiteral("logitlab-cli"), {QStringLiteral("--man")})
                    .contains(QStringLiteral("\"LogitLab " LOGITLAB_PROJECT_VERSION "\"")));
    }

    void completionOffersEveryOption_data() { cliCommandOptionsMatchManPage_data(); }
    void completionOffersEveryOption()
    {
        QFETCH(QString, command);
        const QString script = run(QStringLiteral("logitlab-cli"), {QStringLiteral("--bash-completion")});
        static const QRegularExpression line(QStringLiteral("^ +([a-z]+)\\) options='([^']*)' ;;$"),
                                             QRegularExpression::MultilineOption);
        QSet<QString> offered;
        auto it = line.globalMatch(script);
        while (it.hasNext()) {
            const auto m = it.next();
            if (m.captured(1) == command)
                for (const QString& word : m.captured(2).split(QLatin1Char(' ')))
                    offered.insert(word);
        }
        const QSet<QString> accepted =
            helpOptions(run(QStringLiteral("logitlab-cli"), {command, QStringLiteral("--help")}));
        QCOMPARE(sorted(offered), sorted(accepted));
        // Value completion: the preset and RNG names the CLI accepts.
        QVERIFY(script.contains(QStringLiteral("--semantics) COMPREPLY=($(compgen -W 'lesson llama.cpp hf vllm'")));
        QVERIFY(script.contains(QStringLiteral("mulberry32")));
    }

    // The script in bash itself, with the bash-completion library it builds on (scripts/setup.sh
    // installs it): what Tab offers after each partial command line.
    void completionCompletes_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("offered");
        QTest::newRow("commands") << "logitlab-cli sa"
                                  << "sample";
        QTest::newRow("options") << "logitlab-cli sample --r"
                                 << "--repeat-penalty --rng --row";
        QTest::newRow("rng names") << "logitlab-cli sample --rng mt"
                                   << "mt19937 mt19937_64";
        QTest::newRow("presets") << "logitlab-cli candidates --semantics l"
                                 << "lesson llama.cpp";
        QTest::newRow("formats") << "logitlab-cli run --formats csv,"
                                 << "csv,png csv,png,svg,pdf csv,py,tex";
        QTest::newRow("number") << "logitlab-cli candidates --temperature "
                                << "";
        QTest::newRow("experiment file") << "logitlab-cli run seed-sweep-l"
                                         << "seed-sweep-lesson.json";
    }
    void completionCompletes()
    {
        QFETCH(QString, line);
        QFETCH(QString, offered);
        const QString library = QStringLiteral("/usr/share/bash-completion/bash_completion");
        if (!QFile::exists(library))
            QSKIP("bash-completion is not installed (scripts/setup.sh installs it)");
        QTemporaryDir dir;
        const QString scriptPath = dir.filePath(QStringLiteral("logitlab-cli"));
        QFile script(scriptPath);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(run(QStringLiteral("logitlab-cli"), {QStringLiteral("--bash-completion")}).toUtf8());
        script.close();
        const QString driver =
            QStringLiteral(
                "source %1; source %2; read -ra COMP_WORDS <<< \"$LINE\"; [[ $LINE == *' ' ]] && COMP_WORDS+=('');"
                "COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMP_LINE=$LINE; COMP_POINT=${#LINE}; _logitlab_cli;"
                "printf '%s\\n' \"${COMPREPLY[@]}\" | sort | paste -sd' '")
                .arg(library, scriptPath);
        QProcess bash;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("LINE"), line);
        bash.setProcessEnvironment(env);
        bash.setWorkingDirectory(test::dataPath(QStringLiteral("../../examples")));
        bash.start(QStringLiteral("bash"), {QStringLiteral("-c"), driver});
        QVERIFY(bash.waitForFinished(30000));
        QCOMPARE(QString::fromUtf8(bash.readAllStandardOutput()).trimmed(), offered);
    }

    void completionScriptIsValidBash()
    {
        const QString script = run(QStringLiteral("logitlab-cli"), {QStringLiteral("--bash-completion")});
        QProcess bash;
        bash.start(QStringLiteral("bash"), {QStringLiteral("-n")});
        bash.write(script.toUtf8());
        bash.closeWriteChannel();
        QVERIFY(bash.waitForFinished(30000));
        QCOMPARE(bash.exitCode(), 0);
    }
};

QTEST_GUILESS_MAIN(TestManPage)
#include "tst_man_page.moc"
