// Issue 35: the summation orders and the softmax against numpy itself (tests/python/
// numpy_reference.py under /usr/bin/python3), on seeded random cases. The `numpy-sum` order is
// np.sum and np.add.reduce bit for bit in float64, float32 and float16 (N up to 40,000, across
// numpy's 8,192-term blocks); the pure `pairwise` order is np.sum up to 8,192 terms and differs
// from it above (the case: 8 ulps at N = 8,193). The exact softmax is numpy's float64
// softmax to within 256 ulps (numpy sums pairwise, LogitLab in order). Skipped, with the reason, only
// when python3 or numpy is missing.
#include "engine/experiments/summation_methods.h"
#include "engine/kernels/float_formats.h"
#include "engine/sampler/candidate_array.h"
#include "support/test_support.h"

#include <QTest>

#include <cmath>
#include <cstdio>
#include <random>

using namespace logitlab;
using engine::FloatFormat;
using engine::SumMethod;

namespace {

QByteArray hex(double x)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%a", x);
    return buffer;
}

double fromHex(const QByteArray& text) { return std::strtod(text.constData(), nullptr); }

QString bitsText(double x)
{
    return QString::number(x, 'g', 17) + QStringLiteral(" (") + QString::fromLatin1(hex(x)) + QLatin1Char(')');
}

}  // namespace

class TestNumpyReference : public QObject {
    Q_OBJECT

    QString m_python;
    QString m_why;

private slots:
    void initTestCase() { m_python = test::pythonWith({QStringLiteral("numpy")}, &m_why); }

    void sumsAreNumpysToTheBit()
    {
        if (m_python.isEmpty())
            QSKIP(qPrintable(m_why));
        struct Case {
            FloatFormat format;
            std::vector<double> terms;
        };
        std::mt19937_64 rng(35);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        std::normal_distribution<double> normal(0.0, 1.0);
        const FloatFormat formats[] = {FloatFormat::Float64, FloatFormat::Float32, FloatFormat::Float16};
        const char* names[] = {"float64", "float32", "float16"};
        std::vector<Case> cases;
        QByteArray input;
        constexpr int kCases = 300;
        for (int c = 0; c < kCases; ++c) {
            const int f = c % 3;
            // A third of the cases around numpy's block edges, the rest anywhere up to 40,000.
            const double pick = unit(rng);
            std::size_t n = pick < 0.33 ? 8192 * (1 + static_cast<std::size_t>(unit(rng) * 3)) - 3 +
                                              static_cast<std::size_t>(unit(rng) * 7)
                                        : 1 + static_cast<std::size_t>(unit(rng) * unit(rng) * 40000);
            // float16 terms stay small, so its sums stay finite (float16 ends at 65,504).
            const double scale = std::pow(10.0, unit(rng) * (f == 2 ? 2 : 4) - 2);
            Case k{formats[f], {}};
            for (std::size_t i = 0; i < n; ++i) {
                const double x = (unit(rng) < 0.5 ? normal(rng) : std::exp(normal(rng))) * scale;
                k.terms.push_back(engine::roundTo(k.format, x));
            }
            input += "sum ";
            input += names[f];
            for (double x : k.terms)
                input += ' ' + hex(x);
            input += '\n';
            cases.push_back(std::move(k));
        }
        QString error;
        const QByteArray output = test::runPythonScript(m_python, QStringLiteral("numpy_reference.py"), input, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QList<QByteArray> lines = output.trimmed().split('\n');
        QCOMPARE(lines.size(), kCases);
        int above = 0, pairwiseDiffers = 0;
        for (int c = 0; c < kCases; ++c) {
            const Case& k = cases[static_cast<std::size_t>(c)];
            const QList<QByteArray> fields = lines[c].split(' ');
            QCOMPARE(fields.size(), 2);
            const double npSum = fromHex(fields[0]);
            const double npReduce = fromHex(fields[1]);
            const double ours = engine::sumInOrder(SumMethod::NumpySum, k.terms, k.format, {});
            const QString where = QStringLiteral("case %1 (%2, N %3)").arg(c).arg(names[c % 3]).arg(k.terms.size());
            QVERIFY2(std::bit_cast<std::uint64_t>(ours) == std::bit_cast<std::uint64_t>(npSum),
                     qPrintable(where + QStringLiteral(": numpy-sum ") + bitsText(ours) + QStringLiteral(", np.sum ") +
                                bitsText(npSum)));
            QVERIFY2(std::bit_cast<std::uint64_t>(ours) == std::bit_cast<std::uint64_t>(npReduce),
                     qPrintable(where + QStringLiteral(": np.add.reduce ") + bitsText(npReduce)));
            // The pure pairwise order is np.sum within one block (16-bit formats: numpy adds in
            // float32, the pairwise order rounds every addition to 16 bits).
            if (k.format != FloatFormat::Float16) {
                const double pairwise = engine::sumInOrder(SumMethod::Pairwise, k.terms, k.format, {});
                if (k.terms.size() <= engine::kNumpyBlock)
                    QVERIFY2(pairwise == npSum, qPrintable(where + QStringLiteral(": pairwise ") + bitsText(pairwise)));
                else
                    pairwiseDiffers += pairwise != npSum;
            }
            above += k.terms.size() > engine::kNumpyBlock;
        }
        qInfo("numpy sums: %d cases bit for bit against np.sum and np.add.reduce (float64, float32, float16; %d "
              "above 8,192 terms, where the pure pairwise order differed from np.sum in %d)",
              kCases, above, pairwiseDiffers);
        QVERIFY(pairwiseDiffers > 0);
    }

    void softmaxIsNumpys()
    {
        if (m_python.isEmpty())
            QSKIP(qPrintable(m_why));
        std::mt19937_64 rng(3535);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        std::normal_distribution<double> normal(0.0, 1.0);
        constexpr int kCases = 300;
        std::vector<std::vector<double>> cases;
        QByteArray input;
        for (int c = 0; c < kCases; ++c) {
            const auto n = 1 + static_cast<std::size_t>(unit(rng) * 2000);
            const double scale = 0.1 + unit(rng) * 20;
            std::vector<double> logits(n);
            input += "softmax";
            for (double& l : logits) {
                l = normal(rng) * scale;
                input += ' ' + hex(l);
            }
            input += '\n';
            cases.push_back(std::move(logits));
        }
        QString error;
        const QByteArray output = test::runPythonScript(m_python, QStringLiteral("numpy_reference.py"), input, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QList<QByteArray> lines = output.trimmed().split('\n');
        QCOMPARE(lines.size(), kCases);
        double worst = 0.0;
        std::size_t values = 0;
        for (int c = 0; c < kCases; ++c) {
            const auto& logits = cases[static_cast<std::size_t>(c)];
            engine::CandidateArray a = engine::CandidateArray::fromLogits(logits.data(), logits.size());
            a.softmax();
            const QList<QByteArray> fields = lines[c].split(' ');
            QCOMPARE(static_cast<std::size_t>(fields.size()), logits.size());
            for (std::size_t i = 0; i < logits.size(); ++i) {
                const double theirs = fromHex(fields[static_cast<int>(i)]);
                const double ours = a[i].p;
                // Both are exp(l - max) / sum, but the sum's order differs (numpy pairwise,
                // LogitLab in order) and so may exp (numpy's own SIMD exp where the CPU has it):
                // within 256 ulps (6e-14 relative), the largest printed.
                const double ulps = theirs == 0.0 ? std::abs(ours) / 4.9e-324
                                                  : std::abs(ours - theirs) / (std::nextafter(theirs, 2.0) - theirs);
                worst = std::max(worst, ulps);
                ++values;
                QVERIFY2(ulps <= 256.0, qPrintable(QStringLiteral("case %1 token %2: %3 against numpy's %4")
                                                       .arg(c)
                                                       .arg(i)
                                                       .arg(bitsText(ours), bitsText(theirs))));
            }
        }
        qInfo("numpy softmax: %d cases, %zu probabilities within %g ulps of numpy's float64 softmax", kCases, values,
              worst);
    }
};

QTEST_GUILESS_MAIN(TestNumpyReference)
#include "tst_numpy_reference.moc"
