// New tables without blocking the UI thread: the prepared distribution (orders built once,
// one edited cell moved in O(V)).
#include "prepared_distribution.h"
#include "test_support.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <random>

using namespace logitlab;

namespace {

void compareWithFreshPreparation(const engine::PreparedDistribution& p)
{
    const auto fresh = engine::prepareDistribution(p.distribution);
    QCOMPARE(p.byLogit, fresh.byLogit);
    QCOMPARE(p.byToken, fresh.byToken);
    QCOMPARE(p.rank, fresh.rank);
    QCOMPARE(p.problem, fresh.problem);
}

}  // namespace

class TestExplorerLoad : public QObject {
    Q_OBJECT
private slots:
    void preparationNamesOrdersAndRanks()
    {
        engine::Distribution d;
        d.tokens = {"b", "a", "c", "a"};
        d.logits = test::array({1.0, 3.0, 3.0, -std::numeric_limits<double>::infinity()});
        const auto p = engine::prepareDistribution(d);
        QCOMPARE(p.byLogit, (std::vector<std::int32_t>{1, 2, 0, 3}));  // equal logits: lower id first
        QCOMPARE(p.byToken, (std::vector<std::int32_t>{1, 3, 0, 2}));  // equal names: lower id first
        QCOMPARE(p.rank, (std::vector<int>{3, 1, 2, 4}));
        QVERIFY(!p.problem);

        engine::Distribution unnamed;
        unnamed.logits = test::array({0.5, std::nan("")});
        const auto q = engine::prepareDistribution(unnamed);
        QCOMPARE(q.distribution.tokens, (std::vector<std::string>{"0", "1"}));
        QVERIFY(q.problem);
        QVERIFY(q.problem->find("NaN") != std::string::npos);
    }

    // Random cell edits with many ties: the O(V) update equals sorting again, and the table
    // it was made from is untouched (undo steps still hold it).
    void editsMatchAFreshPreparation()
    {
        std::mt19937_64 rng(11);
        std::uniform_int_distribution<int> small(-4, 4);
        engine::Distribution d;
        d.logits.resize(120);
        for (Eigen::Index i = 0; i < d.logits.size(); ++i) {
            d.logits[i] = small(rng);
            d.tokens.push_back(std::string(1, static_cast<char>('a' + (small(rng) + 4) % 6)));
        }
        auto p = engine::prepareDistribution(d);
        std::uniform_int_distribution<std::int32_t> id(0, 119);
        for (int step = 0; step < 300; ++step) {
            const engine::PreparedDistribution before = p;
            const std::int32_t at = id(rng);
            if (step % 3 == 0)
                p = engine::withTokenName(p, at, std::string(1, static_cast<char>('a' + (small(rng) + 4) % 6)));
            else
                p = engine::withLogit(p, at, step % 17 == 0 ? -std::numeric_limits<double>::infinity() : small(rng) * 0.5);
            compareWithFreshPreparation(p);
            if (QTest::currentTestFailed())
                return;
            const engine::PreparedDistribution again = before;
            QCOMPARE(again.byLogit, before.byLogit);
        }
    }
};

QTEST_MAIN(TestExplorerLoad)
#include "tst_explorer_load.moc"
