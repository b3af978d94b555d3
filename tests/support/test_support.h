// Helpers shared by the test suites: the golden file, paths of built binaries, Eigen arrays.
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <Eigen/Core>
#include <initializer_list>

namespace logitlab::test {

// tests/data/<name>, as passed by CTest in LOGITLAB_TEST_DATA.
QString dataPath(const QString& name);

// The parsed lesson-golden.json (a copy of shared/reference's, computed by the lesson's code).
QJsonObject lessonGolden();

// A built executable from the bin folder (LOGITLAB_BIN_DIR).
QString binaryPath(const QString& name);

// A file's bytes; empty when it cannot be read (a test compares them with what it expects).
QByteArray readAll(const QString& path);

// The fields of one CSV line as the app writes it (quoted when a field holds ',' or '"').
QStringList csvFields(const QString& line);

// What a run of logitlab-cli gave: its exit code (-1 when it crashed), stdout and stderr.
struct CliRun {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

// Runs logitlab-cli with `arguments` in `folder` (empty: this process's), as on a server: without
// DISPLAY, WAYLAND_DISPLAY or QT_QPA_PLATFORM, so it must find a platform itself. Stops the test
// run when the command takes more than two minutes.
CliRun runCli(const QStringList& arguments, const QString& folder = {});
// This process's environment without those three: a server's.
QProcessEnvironment headlessEnvironment();

// The node (or nodejs) executable on PATH, or empty: tests comparing with the lesson's JavaScript
// QSKIP when it is missing.
QString nodeExecutable();

// Runs tests/node/<script> with `arguments` under node, writing `input` to its stdin, and returns
// its stdout. On a failure to start, a crash or a non-zero exit, returns nothing and sets `error`.
// `nodeOptions` go before the script (e.g. --stack-size).
QByteArray runNodeScript(const QString& script, const QStringList& arguments, const QByteArray& input, QString* error,
                         const QStringList& nodeOptions = {});

// /usr/bin/python3 (Debian's, with python3-numpy and python3-scipy from scripts/setup.sh) when
// it exists and imports every one of `modules`; empty otherwise, with the reason in `why`: the
// differential suites QSKIP with it.
QString pythonWith(const QStringList& modules, QString* why);

// Runs tests/python/<script> under `python`, writing `input` to its stdin, and returns its
// stdout; on a failure to start, a crash or a non-zero exit, nothing, with `error` set.
QByteArray runPythonScript(const QString& python, const QString& script, const QByteArray& input, QString* error);

inline Eigen::ArrayXd array(std::initializer_list<double> values)
{
    Eigen::ArrayXd a(static_cast<Eigen::Index>(values.size()));
    Eigen::Index i = 0;
    for (double v : values)
        a[i++] = v;
    return a;
}

}  // namespace logitlab::test
