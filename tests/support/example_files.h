// Where the examples/ experiment files are, seen from a test: next to tests/data in the source tree.
#pragma once

#include "support/test_support.h"

#include <QDir>
#include <QString>

namespace logitlab::test {

inline QString examplePath(const QString& name)
{
    return QDir(dataPath(QStringLiteral("../../examples"))).absoluteFilePath(name);
}

}  // namespace logitlab::test
