// Where the examples/ experiment files are, seen from a test: next to tests/data in the source tree.
#pragma once

#include "support/test_support.h"

#include <QDir>
#include <QString>
#include <QStringList>

namespace logitlab::test {

inline QString examplePath(const QString& name)
{
    return QDir(dataPath(QStringLiteral("../../examples"))).absoluteFilePath(name);
}

// Every experiment file in examples/, by name: the suites that run them all.
inline QStringList exampleFiles()
{
    const QDir examples(dataPath(QStringLiteral("../../examples")));
    QStringList paths;
    for (const QString& name : examples.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        paths << examples.absoluteFilePath(name);
    return paths;
}

}  // namespace logitlab::test
