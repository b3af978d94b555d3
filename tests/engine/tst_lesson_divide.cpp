// divideBy() and divideMemberBy() (src/engine/kernels/lesson_divide.h): the softmax's e / sum without a division
// instruction on processors with FMA, against the IEEE quotient, bit for bit, on millions of dividends of every
// magnitude and on divisors chosen to be hard (all-ones significands, powers of two, the edges of the range the FMA
// path accepts, and beyond).
#include "engine/kernels/lesson_divide.h"
#include "support/same_bits.h"

#include <QTest>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

using namespace logitlab::engine::detail;

namespace {

enum class Dividends { Exps, AnyBits, NearTheEdges };

std::vector<double> makeDividends(Dividends kind, std::size_t n, unsigned seed)
{
    std::mt19937_64 gen(seed);
    std::normal_distribution<double> normal(0.0, 4.0);
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        switch (kind) {
        case Dividends::Exps:  // exp(l / T - max) of a softmax: in (0, 1], most far below 1
            v[i] = std::exp(-std::abs(normal(gen)) * 3.0);
            break;
        case Dividends::AnyBits: {  // any finite double >= 0: denormals, zeros, huge values
            const std::uint64_t bits = gen() >> 1;
            const double d = std::bit_cast<double>(bits);
            v[i] = std::isfinite(d) ? d : 0.0;
            break;
        }
        case Dividends::NearTheEdges: {  // around the FMA path's bounds 2^-900 and 2^900, and 0
            const double edges[] = {0x1p-900, 0x1p900, 0.0, 1.0};
            const double edge = edges[gen() % 4];
            v[i] = std::nextafter(edge, (gen() & 1) ? 0.0 : INFINITY);
            break;
        }
        }
    }
    return v;
}

}  // namespace

Q_DECLARE_METATYPE(Dividends)

class TestLessonDivide : public QObject {
    Q_OBJECT

private slots:
    void fmaQuotientIsTheIeeeQuotient_data()
    {
        QTest::addColumn<Dividends>("kind");
        QTest::addColumn<double>("divisor");
        std::mt19937_64 gen(5);
        std::uniform_real_distribution<double> sums(1.0, 1e5);
        // Sums of exps (1 to V), hard significands, and the edges of the FMA path's divisors
        // (2^-60 and 2^60 use it, a step beyond them divides).
        const double divisors[] = {1.0,
                                   1.7,
                                   sums(gen),
                                   sums(gen),
                                   2.0 - 0x1p-52,
                                   0x1p17,
                                   3.0,
                                   0x1p-60,
                                   0x1p60,
                                   std::nextafter(0x1p60, INFINITY),
                                   std::nextafter(0x1p-60, 0.0),
                                   0x1p-900};
        for (const double d : divisors) {
            QTest::addRow("exps / %.17g", d) << Dividends::Exps << d;
            QTest::addRow("any bits / %.17g", d) << Dividends::AnyBits << d;
            QTest::addRow("near the edges / %.17g", d) << Dividends::NearTheEdges << d;
        }
    }

    void fmaQuotientIsTheIeeeQuotient()
    {
        QFETCH(Dividends, kind);
        QFETCH(double, divisor);
        if (!fmaAvailable())
            QSKIP("this processor has no AVX2 with FMA: only the division path runs here");
        const std::vector<double> dividends = makeDividends(kind, 1'000'003, 9);
        std::vector<double> out = dividends;
        divideBy(out.data(), out.size(), divisor, DividePath::Fma);
        std::size_t differ = 0;
        for (std::size_t i = 0; i < dividends.size(); ++i)
            if (!logitlab::test::sameBits(out[i], dividends[i] / divisor) && differ++ < 3)
                qWarning("%.17g / %.17g: %.17g, IEEE %.17g", dividends[i], divisor, out[i], dividends[i] / divisor);
        QCOMPARE(differ, std::size_t{0});
    }

    // divideMemberBy() on the member of a struct array (as candidates() divides its survivors):
    // every quotient the IEEE one, the struct's other bytes untouched, on either path.
    void memberQuotientIsTheIeeeQuotient_data()
    {
        QTest::addColumn<Dividends>("kind");
        QTest::addColumn<double>("divisor");
        QTest::addColumn<bool>("fma");
        for (const bool fma : {true, false})
            for (const double d : {1.0, 2.0 - 0x1p-52, 3.0, 12345.678, 0x1p60, std::nextafter(0x1p60, INFINITY)}) {
                const char* path = fma ? "fma" : "divide";
                QTest::addRow("%s, exps / %.17g", path, d) << Dividends::Exps << d << fma;
                QTest::addRow("%s, any bits / %.17g", path, d) << Dividends::AnyBits << d << fma;
                QTest::addRow("%s, near the edges / %.17g", path, d) << Dividends::NearTheEdges << d << fma;
            }
    }

    void memberQuotientIsTheIeeeQuotient()
    {
        QFETCH(Dividends, kind);
        QFETCH(double, divisor);
        QFETCH(bool, fma);
        if (fma && !fmaAvailable())
            QSKIP("this processor has no AVX2 with FMA: only the division path runs here");
        struct Item {
            std::int32_t id;
            double value;
            double other;
        };
        const std::vector<double> dividends = makeDividends(kind, 200'003, 4);
        std::vector<Item> items(dividends.size());
        for (std::size_t i = 0; i < items.size(); ++i)
            items[i] = Item{static_cast<std::int32_t>(i), dividends[i], -static_cast<double>(i)};
        divideMemberBy(&items.front().value, items.size(), sizeof(Item), divisor,
                       fma ? DividePath::Fma : DividePath::Divide);
        std::size_t differ = 0;
        for (std::size_t i = 0; i < items.size(); ++i) {
            QCOMPARE(items[i].id, static_cast<std::int32_t>(i));
            QCOMPARE(items[i].other, -static_cast<double>(i));
            if (!logitlab::test::sameBits(items[i].value, dividends[i] / divisor) && differ++ < 3)
                qWarning("%.17g / %.17g: %.17g, IEEE %.17g", dividends[i], divisor, items[i].value,
                         dividends[i] / divisor);
        }
        QCOMPARE(differ, std::size_t{0});
    }

    void divisionPathIsTheIeeeQuotient()
    {
        const std::vector<double> dividends = makeDividends(Dividends::AnyBits, 1001, 2);
        std::vector<double> out = dividends;
        divideBy(out.data(), out.size(), 3.0, DividePath::Divide);
        for (std::size_t i = 0; i < dividends.size(); ++i)
            QVERIFY(logitlab::test::sameBits(out[i], dividends[i] / 3.0));
    }
};

QTEST_APPLESS_MAIN(TestLessonDivide)
#include "tst_lesson_divide.moc"
