#include "cli/cli_application.h"

#include <QApplication>
#include <QString>
#include <QStringList>

#include <cstring>

namespace logitlab::cli {

QString requestedFormats(int argc, char** argv)
{
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], "--formats") == 0 && i + 1 < argc)
            return QString::fromLocal8Bit(argv[i + 1]);
        if (std::strncmp(argv[i], "--formats=", 10) == 0)
            return QString::fromLocal8Bit(argv[i] + 10);
    }
    return QString::fromLatin1(kDefaultFormats);
}

std::unique_ptr<QCoreApplication> makeCliApplication(int& argc, char** argv)
{
    bool wantsChart = false;
    if (argc >= 2 && std::strcmp(argv[1], "run") == 0) {
        const QStringList formats = requestedFormats(argc, argv).toLower().split(QLatin1Char(','));
        wantsChart = formats.contains(QStringLiteral("png")) || formats.contains(QStringLiteral("svg")) ||
                     formats.contains(QStringLiteral("pdf")) || formats.contains(QStringLiteral("py")) ||
                     formats.contains(QStringLiteral("tex"));
    }
    if (!wantsChart)
        return std::make_unique<QCoreApplication>(argc, argv);
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    // Without a session (no XDG_RUNTIME_DIR, typical for headless runs) Qt warns while the
    // application starts. The warning changes nothing for us but would break the promise of
    // exactly one stderr line on errors, so only that message is dropped, only during startup.
    static QtMessageHandler previous = nullptr;
    previous = qInstallMessageHandler([](QtMsgType type, const QMessageLogContext& context, const QString& message) {
        if (!message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR not set")))
            previous(type, context, message);
    });
    auto app = std::make_unique<QApplication>(argc, argv);
    qInstallMessageHandler(previous);
    return app;
}

}  // namespace logitlab::cli
