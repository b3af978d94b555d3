// Helpers shared by the test suites: the golden file, paths of built binaries, Eigen arrays.
#pragma once

#include <QJsonObject>
#include <QString>

#include <Eigen/Core>
#include <initializer_list>

namespace logitlab::test {

// tests/data/<name>, as passed by CTest in LOGITLAB_TEST_DATA.
QString dataPath(const QString& name);

// The parsed lesson-golden.json (a copy of shared/reference's, computed by the lesson's code).
QJsonObject lessonGolden();

// A built executable from the bin folder (LOGITLAB_BIN_DIR).
QString binaryPath(const QString& name);

inline Eigen::ArrayXd array(std::initializer_list<double> values)
{
    Eigen::ArrayXd a(static_cast<Eigen::Index>(values.size()));
    Eigen::Index i = 0;
    for (double v : values)
        a[i++] = v;
    return a;
}

}  // namespace logitlab::test
