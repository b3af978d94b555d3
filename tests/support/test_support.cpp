#include "support/test_support.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
#include <QtGlobal>

namespace logitlab::test {

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QString dataPath(const QString& name) { return qEnvironmentVariable("LOGITLAB_TEST_DATA") + QLatin1Char('/') + name; }

QJsonObject lessonGolden()
{
    QFile file(dataPath(QStringLiteral("lesson-golden.json")));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(file.fileName()));
    return QJsonDocument::fromJson(file.readAll()).object();
}

QString binaryPath(const QString& name) { return qEnvironmentVariable("LOGITLAB_BIN_DIR") + QLatin1Char('/') + name; }

QStringList csvFields(const QString& line)
{
    QStringList fields{QString()};
    bool quoted = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quoted && c == QLatin1Char('"') && i + 1 < line.size() && line[i + 1] == QLatin1Char('"')) {
            fields.back() += c;
            ++i;
        } else if (c == QLatin1Char('"')) {
            quoted = !quoted;
        } else if (c == QLatin1Char(',') && !quoted) {
            fields << QString();
        } else {
            fields.back() += c;
        }
    }
    return fields;
}

QProcessEnvironment headlessEnvironment()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    return env;
}

CliRun runCli(const QStringList& arguments, const QString& folder)
{
    QProcess process;
    process.setProcessEnvironment(headlessEnvironment());
    if (!folder.isEmpty())
        process.setWorkingDirectory(folder);
    process.start(binaryPath(QStringLiteral("logitlab-cli")), arguments);
    if (!process.waitForFinished(120000))
        qFatal("logitlab-cli %s did not finish", qPrintable(arguments.join(QLatin1Char(' '))));
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1, process.readAllStandardOutput(),
            process.readAllStandardError()};
}

QString nodeExecutable()
{
    QString node = QStandardPaths::findExecutable(QStringLiteral("node"));
    if (node.isEmpty())
        node = QStandardPaths::findExecutable(QStringLiteral("nodejs"));
    return node;
}

QByteArray runNodeScript(const QString& script, const QStringList& arguments, const QByteArray& input, QString* error,
                         const QStringList& nodeOptions)
{
    QProcess node;
    // The scripts sit next to tests/data, in tests/node.
    node.start(nodeExecutable(), nodeOptions + QStringList{dataPath(QStringLiteral("../node/") + script)} + arguments);
    if (!node.waitForStarted()) {
        *error = QStringLiteral("node did not start: ") + node.errorString();
        return {};
    }
    node.write(input);
    node.closeWriteChannel();
    QByteArray out;
    // Read while it runs: a pipe holds only 64 KB, and node blocks once it is full.
    while (node.state() != QProcess::NotRunning) {
        node.waitForReadyRead(1000);
        out += node.readAllStandardOutput();
    }
    out += node.readAllStandardOutput();
    if (node.exitStatus() != QProcess::NormalExit || node.exitCode() != 0) {
        *error = QStringLiteral("node %1 failed: %2").arg(script, QString::fromLocal8Bit(node.readAllStandardError()));
        return {};
    }
    return out;
}

QString pythonWith(const QStringList& modules, QString* why)
{
    const QString python = QStringLiteral("/usr/bin/python3");
    if (!QFileInfo(python).isExecutable()) {
        *why = QStringLiteral("/usr/bin/python3 is not installed (scripts/setup.sh installs it)");
        return {};
    }
    QProcess probe;
    probe.start(python, {QStringLiteral("-c"), QStringLiteral("import ") + modules.join(QLatin1Char(','))});
    if (!probe.waitForFinished(60000) || probe.exitStatus() != QProcess::NormalExit || probe.exitCode() != 0) {
        *why = QStringLiteral("/usr/bin/python3 cannot import %1 (scripts/setup.sh installs python3-numpy and "
                              "python3-scipy): %2")
                   .arg(modules.join(QStringLiteral(", ")),
                        QString::fromLocal8Bit(probe.readAllStandardError()).trimmed());
        return {};
    }
    return python;
}

QByteArray runPythonScript(const QString& python, const QString& script, const QByteArray& input, QString* error)
{
    QProcess process;
    process.start(python, {dataPath(QStringLiteral("../python/") + script)});
    if (!process.waitForStarted()) {
        *error = QStringLiteral("python did not start: ") + process.errorString();
        return {};
    }
    process.write(input);
    process.closeWriteChannel();
    QByteArray out;
    while (process.state() != QProcess::NotRunning) {
        process.waitForReadyRead(1000);
        out += process.readAllStandardOutput();
    }
    out += process.readAllStandardOutput();
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        *error =
            QStringLiteral("python %1 failed: %2").arg(script, QString::fromLocal8Bit(process.readAllStandardError()));
        return {};
    }
    return out;
}

}  // namespace logitlab::test
