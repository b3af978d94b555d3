// The alias table draws each index with the probability it was built from: exactly by
// construction (probabilities()) and statistically (chi-square over a million draws).
#include "engine/models/synthetic_logits.h"
#include "engine/rng/alias_table.h"
#include "engine/rng/mersenne_twister.h"
#include "engine/rng/uniform_bits.h"
#include "engine/sampler/softmax.h"
#include "engine/stats/statistics.h"

#include <QTest>

#include <vector>

using namespace logitlab::engine;

Q_DECLARE_METATYPE(std::vector<double>)

class TestAliasTable : public QObject {
    Q_OBJECT

private:
    static std::vector<double> normalised(std::vector<double> w)
    {
        double sum = 0.0;
        for (double x : w)
            sum += x;
        for (double& x : w)
            x /= sum;
        return w;
    }

    static std::vector<std::uint64_t> drawCounts(const AliasTable& table, std::uint64_t draws, std::uint64_t seed)
    {
        std::vector<std::uint64_t> counts(table.size(), 0);
        Mt19937_64 engine(seed);
        for (std::uint64_t i = 0; i < draws; ++i)
            ++counts[table.draw(nextU64(engine))];
        return counts;
    }

private slots:
    void distribution_data()
    {
        QTest::addColumn<std::vector<double>>("weights");
        QTest::newRow("lesson T=1") << std::vector<double>{0.577, 0.212, 0.129, 0.078, 0.004};
        QTest::newRow("single") << std::vector<double>{3.0};
        QTest::newRow("uniform 7") << std::vector<double>(7, 1.0);
        QTest::newRow("zeros inside") << std::vector<double>{0.0, 5.0, 0.0, 1.0, 0.0, 2.0, 0.0};
        QTest::newRow("skewed") << std::vector<double>{1e-4, 1.0 - 1e-4};
        const Eigen::ArrayXd zipf = softmax(zipfLogits(1000, 1.1), 1.0);
        QTest::newRow("zipf 1000") << std::vector<double>(zipf.begin(), zipf.end());
    }

    // What the table encodes equals the input up to the 2^-32 rounding of each threshold.
    void distribution()
    {
        QFETCH(std::vector<double>, weights);
        const std::vector<double> expected = normalised(weights);
        const AliasTable table(weights);
        QCOMPARE(table.size(), static_cast<std::uint32_t>(weights.size()));
        const std::vector<double> actual = table.probabilities();
        for (std::size_t i = 0; i < expected.size(); ++i) {
            QVERIFY2(std::abs(actual[i] - expected[i]) < 1e-9, qPrintable(QString::number(i)));
            if (expected[i] == 0.0)
                QCOMPARE(actual[i], 0.0);  // a token of probability 0 can never be drawn
        }
    }

    void chiSquare_data() { distribution_data(); }

    void chiSquare()
    {
        QFETCH(std::vector<double>, weights);
        const std::vector<double> expected = normalised(weights);
        const auto counts = drawCounts(AliasTable(weights), 1'000'000, 20261130);
        const FitTest fit = chiSquareTest(counts, expected);
        QVERIFY2(fit.pValue > 1e-4, qPrintable(QStringLiteral("chi2 = %1, df = %2, p = %3")
                                                   .arg(fit.statistic)
                                                   .arg(fit.degreesOfFreedom)
                                                   .arg(fit.pValue)));
    }

    // The same check must reject a table that is off by a little: the test has power.
    void chiSquareDetectsBias()
    {
        const std::vector<double> truth{0.577, 0.212, 0.129, 0.078, 0.004};
        std::vector<double> biased = truth;
        biased[4] *= 1.2;  // junk 20% more likely than claimed
        const auto counts = drawCounts(AliasTable(biased), 1'000'000, 7);
        QVERIFY(chiSquareTest(counts, normalised(truth)).pValue < 1e-6);
    }
};

QTEST_APPLESS_MAIN(TestAliasTable)
#include "tst_alias_table.moc"
