#include "test_support.h"

#include <QFile>
#include <QJsonDocument>
#include <QtGlobal>

namespace logitlab::test {

QString dataPath(const QString& name)
{
    return qEnvironmentVariable("LOGITLAB_TEST_DATA") + QLatin1Char('/') + name;
}

QJsonObject lessonGolden()
{
    QFile file(dataPath(QStringLiteral("lesson-golden.json")));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(file.fileName()));
    return QJsonDocument::fromJson(file.readAll()).object();
}

QString binaryPath(const QString& name)
{
    return qEnvironmentVariable("LOGITLAB_BIN_DIR") + QLatin1Char('/') + name;
}

}  // namespace logitlab::test
