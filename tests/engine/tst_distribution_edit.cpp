// Whole-distribution edits the Explorer makes on a worker: a token added below the least likely
// one, and tokens removed by index (any order, repeats and strays ignored), refused when what
// is left cannot be sampled.
#include "engine/sampler/distribution_edit.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace logitlab::engine;

Q_DECLARE_METATYPE(std::vector<double>)
Q_DECLARE_METATYPE(std::vector<int>)
Q_DECLARE_METATYPE(std::vector<std::string>)

namespace {

Distribution make(const std::vector<double>& logits, std::vector<std::string> tokens)
{
    Distribution d;
    d.tokens = std::move(tokens);
    d.logits = Eigen::Map<const Eigen::ArrayXd>(logits.data(), static_cast<Eigen::Index>(logits.size()));
    return d;
}

std::vector<double> values(const Distribution& d) { return {d.logits.data(), d.logits.data() + d.logits.size()}; }

constexpr double kMinusInf = -std::numeric_limits<double>::infinity();

}  // namespace

class TestDistributionEdit : public QObject {
    Q_OBJECT
private slots:
    void appendedTokenGoesBelowTheLowest_data()
    {
        QTest::addColumn<std::vector<double>>("logits");
        QTest::addColumn<double>("added");
        QTest::newRow("lesson") << std::vector<double>{3, 2, 1.5, 1, -2} << -3.0;
        QTest::newRow("one token") << std::vector<double>{0.5} << -0.5;
        QTest::newRow("lowest is -inf") << std::vector<double>{1, kMinusInf} << 0.0;
        QTest::newRow("empty") << std::vector<double>{} << 0.0;
    }
    void appendedTokenGoesBelowTheLowest()
    {
        QFETCH(std::vector<double>, logits);
        QFETCH(double, added);
        std::vector<std::string> names;
        for (std::size_t i = 0; i < logits.size(); ++i)
            names.push_back("t" + std::to_string(i));
        const Distribution before = make(logits, names);
        const Distribution after = withTokenAppended(before, "new");
        QCOMPARE(after.logits.size(), before.logits.size() + 1);
        QCOMPARE(after.logits[before.logits.size()], added);
        QCOMPARE(after.tokens.back(), std::string("new"));
        QCOMPARE(after.tokens.size(), names.size() + 1);
        for (Eigen::Index i = 0; i < before.logits.size(); ++i)
            QCOMPARE(after.logits[i], before.logits[i]);  // -inf == -inf as well
    }

    void removedTokensLeaveTheRest_data()
    {
        QTest::addColumn<std::vector<int>>("rows");
        QTest::addColumn<std::vector<double>>("kept");
        QTest::addColumn<std::vector<std::string>>("names");
        QTest::newRow("one") << std::vector<int>{1} << std::vector<double>{3, 1.5, 1, -2}
                             << std::vector<std::string>{"a", "c", "d", "e"};
        QTest::newRow("any order, repeats, strays")
            << std::vector<int>{4, 0, 4, 99, -1} << std::vector<double>{2, 1.5, 1}
            << std::vector<std::string>{"b", "c", "d"};
        QTest::newRow("none") << std::vector<int>{} << std::vector<double>{3, 2, 1.5, 1, -2}
                              << std::vector<std::string>{"a", "b", "c", "d", "e"};
    }
    void removedTokensLeaveTheRest()
    {
        QFETCH(std::vector<int>, rows);
        QFETCH(std::vector<double>, kept);
        QFETCH(std::vector<std::string>, names);
        const auto after = withoutTokens(make({3, 2, 1.5, 1, -2}, {"a", "b", "c", "d", "e"}), rows);
        QVERIFY2(after.ok(), after.ok() ? "" : after.error().c_str());
        QCOMPARE(values(after.value()), kept);
        QCOMPARE(after.value().tokens, names);
    }

    void removingEverySampleableTokenIsRefused()
    {
        const auto all = withoutTokens(make({1, 2}, {"a", "b"}), {0, 1});
        QVERIFY(!all.ok());
        const auto onlyMinusInf = withoutTokens(make({1, kMinusInf}, {"a", "b"}), {0});
        QVERIFY(!onlyMinusInf.ok());
        QVERIFY(!onlyMinusInf.error().empty());
    }
};

QTEST_APPLESS_MAIN(TestDistributionEdit)
#include "tst_distribution_edit.moc"
