// Issue 35: the seed sweep's statistics against scipy itself (tests/python/scipy_reference.py
// under /usr/bin/python3), on seeded random cases: chi-square survival against
// scipy.stats.chi2.sf, the chi-square and G statistics against scipy.stats.power_divergence
// (their p-values against chi2.sf of the same statistic, G's divided by Williams' q), and the KS
// test of p-values against scipy.stats.kstest(values, "uniform") (scipy's exact distribution).
// Skipped, with the reason, only when python3, numpy or scipy is missing.
#include "engine/stats/statistics.h"
#include "support/test_support.h"

#include <QTest>

#include <cmath>
#include <cstdio>
#include <random>

using namespace logitlab;

namespace {

QByteArray hex(double x)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%a", x);
    return buffer;
}

double fromHex(const QByteArray& text) { return std::strtod(text.constData(), nullptr); }

// |a - b| within `relative` of b, or both below `floor`.
bool close(double a, double b, double relative, double floor = 0.0)
{
    if (a == b)
        return true;
    return std::abs(a - b) <= relative * std::abs(b) || (std::abs(a) <= floor && std::abs(b) <= floor);
}

QStringList runCases(const QString& python, const QByteArray& input, int count, QString* error)
{
    const QByteArray output = test::runPythonScript(python, QStringLiteral("scipy_reference.py"), input, error);
    QStringList lines = QString::fromLatin1(output).trimmed().split(QLatin1Char('\n'));
    if (error->isEmpty() && lines.size() != count)
        *error = QStringLiteral("scipy_reference.py answered %1 lines for %2 cases").arg(lines.size()).arg(count);
    return lines;
}

}  // namespace

class TestScipyReference : public QObject {
    Q_OBJECT

    QString m_python;
    QString m_why;

private slots:
    void initTestCase() { m_python = test::pythonWith({QStringLiteral("numpy"), QStringLiteral("scipy")}, &m_why); }

    void chiSquareSurvivalIsScipys()
    {
        if (m_python.isEmpty())
            QSKIP(qPrintable(m_why));
        std::mt19937_64 rng(1);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        constexpr int kCases = 400;
        std::vector<std::pair<double, int>> cases;
        QByteArray input;
        for (int c = 0; c < kCases; ++c) {
            const int dof = 1 + static_cast<int>(unit(rng) * unit(rng) * 3000);
            // Around the mean, and far into the tail.
            const double x = dof * (0.2 + unit(rng) * (unit(rng) < 0.2 ? 6.0 : 2.0));
            cases.emplace_back(x, dof);
            input += "chi2 " + hex(x) + ' ' + QByteArray::number(dof) + '\n';
        }
        QString error;
        const QStringList lines = runCases(m_python, input, kCases, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        double worst = 0.0;
        for (int c = 0; c < kCases; ++c) {
            const auto [x, dof] = cases[static_cast<std::size_t>(c)];
            const double theirs = fromHex(lines[c].toLatin1());
            const double ours = engine::chiSquareSurvival(x, dof);
            worst = std::max(worst, theirs > 0 ? std::abs(ours - theirs) / theirs : 0.0);
            QVERIFY2(close(ours, theirs, 1e-9, 1e-300),
                     qPrintable(QStringLiteral("chi2.sf(%1, %2): %3 against scipy's %4")
                                    .arg(x, 0, 'g', 17)
                                    .arg(dof)
                                    .arg(ours, 0, 'g', 17)
                                    .arg(theirs, 0, 'g', 17)));
        }
        qInfo("scipy chi2.sf: %d cases, largest relative difference %g", kCases, worst);
    }

    void fitStatisticsAreScipys()
    {
        if (m_python.isEmpty())
            QSKIP(qPrintable(m_why));
        std::mt19937_64 rng(2);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        struct Case {
            std::vector<std::uint64_t> observed;
            std::vector<double> expected;
        };
        constexpr int kCases = 300;
        std::vector<Case> cases;
        QByteArray input;
        for (int c = 0; c < kCases; ++c) {
            const auto k = 2 + static_cast<std::size_t>(unit(rng) * 200);
            Case x;
            double total = 0.0;
            for (std::size_t i = 0; i < k; ++i) {
                x.expected.push_back(0.2 + unit(rng));
                total += x.expected.back();
            }
            for (double& e : x.expected)
                e /= total;
            // Draws from the claimed probabilities, or from a tilted copy.
            const std::uint64_t n = 20 * k + static_cast<std::uint64_t>(unit(rng) * 5000);
            std::vector<double> weights = x.expected;
            if (c % 2)
                for (std::size_t i = 0; i < k; ++i)
                    weights[i] *= 1.0 + 0.3 * static_cast<double>(i) / static_cast<double>(k);
            std::discrete_distribution<std::size_t> draw(weights.begin(), weights.end());
            x.observed.assign(k, 0);
            for (std::uint64_t d = 0; d < n; ++d)
                ++x.observed[draw(rng)];
            for (const char* lambda : {"pearson", "log-likelihood"}) {
                input += QByteArray("pd ") + lambda + ' ' + QByteArray::number(static_cast<qulonglong>(k));
                for (auto o : x.observed)
                    input += ' ' + QByteArray::number(static_cast<qulonglong>(o));
                for (double e : x.expected)
                    input += ' ' + hex(e * static_cast<double>(n));
                input += '\n';
            }
            cases.push_back(std::move(x));
        }
        // Each case's G / q, for scipy's chi2.sf.
        std::vector<engine::FitTest> gTests;
        for (const Case& x : cases) {
            gTests.push_back(engine::gTest(x.observed, x.expected));
            input += "chi2 " + hex(gTests.back().statistic / gTests.back().correction) + ' ' +
                     QByteArray::number(gTests.back().degreesOfFreedom) + '\n';
        }
        QString error;
        const QStringList lines = runCases(m_python, input, 3 * kCases, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        for (int c = 0; c < kCases; ++c) {
            const Case& x = cases[static_cast<std::size_t>(c)];
            const engine::FitTest chi = engine::chiSquareTest(x.observed, x.expected);
            const engine::FitTest& g = gTests[static_cast<std::size_t>(c)];
            const QStringList pearson = lines[2 * c].split(QLatin1Char(' '));
            const QStringList likelihood = lines[2 * c + 1].split(QLatin1Char(' '));
            const double gP = fromHex(lines[2 * kCases + c].toLatin1());
            const QString where = QStringLiteral("case %1 (%2 bins)").arg(c).arg(x.observed.size());
            // The statistics are sums in different orders: equal to about 1e-13.
            QVERIFY2(close(chi.statistic, fromHex(pearson[0].toLatin1()), 1e-11),
                     qPrintable(where + QStringLiteral(": chi-square %1 against %2")
                                            .arg(chi.statistic, 0, 'g', 17)
                                            .arg(fromHex(pearson[0].toLatin1()), 0, 'g', 17)));
            QVERIFY2(close(chi.pValue, fromHex(pearson[1].toLatin1()), 1e-8, 1e-300), qPrintable(where));
            QVERIFY2(close(g.statistic, fromHex(likelihood[0].toLatin1()), 1e-11),
                     qPrintable(where + QStringLiteral(": G %1 against %2")
                                            .arg(g.statistic, 0, 'g', 17)
                                            .arg(fromHex(likelihood[0].toLatin1()), 0, 'g', 17)));
            QVERIFY2(close(g.pValue, gP, 1e-9, 1e-300), qPrintable(where));
        }
        qInfo("scipy power_divergence: %d cases (Pearson and G, statistics and p-values)", kCases);
    }

    void ksTestIsScipys()
    {
        if (m_python.isEmpty())
            QSKIP(qPrintable(m_why));
        std::mt19937_64 rng(3);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        constexpr int kCases = 400;
        std::vector<std::vector<double>> cases;
        QByteArray input;
        for (int c = 0; c < kCases; ++c) {
            // Up to 3,000 values (the seed sweep's usual seeds), uniform or bent towards 0.
            const auto n = 1 + static_cast<std::size_t>(unit(rng) * unit(rng) * 3000);
            const double bend = c % 3 == 0 ? 1.0 : 1.0 + unit(rng) * 0.3;
            std::vector<double> values(n);
            input += "ks";
            for (double& v : values) {
                v = std::pow(unit(rng), bend);
                input += ' ' + hex(v);
            }
            input += '\n';
            cases.push_back(std::move(values));
        }
        QString error;
        const QStringList lines = runCases(m_python, input, kCases, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        double worst = 0.0;
        int exact = 0;
        int pelzGoodCases = 0;
        for (int c = 0; c < kCases; ++c) {
            const engine::KsTest ours = engine::ksUniformTest(cases[static_cast<std::size_t>(c)]);
            const QStringList fields = lines[c].split(QLatin1Char(' '));
            const double d = fromHex(fields[0].toLatin1());
            const double p = fromHex(fields[1].toLatin1());
            const QString where =
                QStringLiteral("case %1 (n %2)").arg(c).arg(cases[static_cast<std::size_t>(c)].size());
            QCOMPARE(ours.statistic, d);  // the same formula: bit for bit
            // Where kstest takes Pelz-Good's approximation, LogitLab's exact p is scipy's own Durbin
            // matrix to 1e-9 and kstest's to the approximation's 1e-4.
            const bool pelzGood = fields.size() > 2 && fields[2] != QLatin1String("-");
            const double reference = pelzGood ? fromHex(fields[2].toLatin1()) : p;
            QVERIFY2(close(ours.pValue, reference, 1e-9, 1e-300) &&
                         close(ours.pValue, p, pelzGood ? 1e-4 : 1e-9, 1e-300),
                     qPrintable(where + QStringLiteral(": D %1, p %2 (%3) against scipy's %4 (exact %5)")
                                            .arg(d, 0, 'g', 17)
                                            .arg(ours.pValue, 0, 'g', 17)
                                            .arg(QString::fromStdString(ours.method))
                                            .arg(p, 0, 'g', 17)
                                            .arg(reference, 0, 'g', 17)));
            worst = std::max(worst, reference > 0 ? std::abs(ours.pValue - reference) / reference : 0.0);
            pelzGoodCases += pelzGood;
            exact += ours.method == "exact";
        }
        qInfo("scipy kstest: %d cases (%d by Durbin's matrix, the rest by Smirnov's or closed forms; %d where kstest "
              "approximates and its Durbin matrix is the reference), largest relative difference of p %g",
              kCases, exact, pelzGoodCases, worst);
    }
};

QTEST_GUILESS_MAIN(TestScipyReference)
#include "tst_scipy_reference.moc"
