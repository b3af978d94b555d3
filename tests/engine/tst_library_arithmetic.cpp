// Issue 18: `library` arithmetic computes each preset's cuts as its library does (float32, the
// library's formulas and order), `exact` in double with LogitLab's tolerance. Hand-worked cases
// where the two keep different sets, for each preset and cut stage, with the float32 arithmetic
// in the comments; probabilities float32 represents exactly reproduced to the last bit; the
// tokens whose fate depends on rounding, and ties at a cut (LogitLab keeps the lower ids).
#include "engine/sampler/chain_evaluation.h"
#include "engine/sampler/chain_settings.h"
#include "engine/sampler/cut_report.h"
#include "support/chain_test_support.h"
#include "support/llama_float_reference.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>

using namespace logitlab;
using engine::Semantics;

Q_DECLARE_METATYPE(engine::ChainSettings)

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

engine::SamplerChain chainOf(engine::ChainSettings settings, Semantics semantics, const char* arithmetic)
{
    settings.arithmetic = arithmetic;
    auto chain = engine::buildChain(settings, semantics);
    if (!chain)
        qFatal("%s", chain.error().c_str());
    return std::move(chain).value();
}

engine::CandidateList run(const engine::ChainSettings& settings, Semantics semantics, const char* arithmetic,
                          const std::vector<double>& logits)
{
    engine::SamplerChain chain = chainOf(settings, semantics, arithmetic);
    engine::SamplerContext context;
    const Eigen::Map<const Eigen::ArrayXd> map(logits.data(), static_cast<Eigen::Index>(logits.size()));
    return engine::evaluateChain(chain, map, context);
}

std::vector<int> idsOf(const engine::CandidateList& list) { return test::sortedIds(list); }

std::vector<double> lnOf(const std::vector<double>& probs) { return test::logOf(probs); }

std::uint32_t bitsOf(float f)
{
    std::uint32_t b = 0;
    std::memcpy(&b, &f, sizeof b);
    return b;
}

}  // namespace

class TestLibraryArithmetic : public QObject {
    Q_OBJECT

private slots:
    void floatAndExactKeepDifferentSets_data()
    {
        QTest::addColumn<QString>("semantics");
        QTest::addColumn<engine::ChainSettings>("settings");
        QTest::addColumn<std::vector<double>>("logits");
        QTest::addColumn<std::vector<int>>("exact");
        QTest::addColumn<std::vector<int>>("library");

        const std::vector<double> four{0, 0, 0, 0};  // p = 0.25 each, exact in float32 too
        // Logits 1 and 1.0000000001: the ulp of 1.0f is 1.19e-7, so both are 1.0f in float32.
        const std::vector<double> nearTie{1, 1.0000000001, 0};
        engine::ChainSettings s;

        // top-k 1: exact arithmetic sees 1.0000000001 > 1 and keeps id 1. In float32 the two are
        // tied: llama.cpp keeps exactly k (LogitLab's tie rule: the lower id, 0); hf and vllm keep
        // every token tied with the k-th value (0 and 1).
        s = {};
        s.topK = 1;
        QTest::newRow("llama.cpp top-k") << "llama.cpp" << s << nearTie << std::vector<int>{1} << std::vector<int>{0};
        QTest::newRow("hf top-k") << "hf" << s << nearTie << std::vector<int>{1} << std::vector<int>{0, 1};
        QTest::newRow("vllm top-k") << "vllm" << s << nearTie << std::vector<int>{1} << std::vector<int>{0, 1};

        // top-p 0.5000000001 on four tokens of p = 0.25 (expf(0) = 1, sum 4, p = 1/4 exactly).
        // llama.cpp: p is a float, float(0.5000000001) = 0.5 (ulp of 0.5 is 5.96e-8); the float
        // running total 0.25, 0.5 reaches 0.5 >= 0.5 at the second token: keeps 2. Exact: 0.5 is
        // 1e-10 short of p (beyond the 1e-12 tolerance): the third token crosses; keeps 3.
        s = {};
        s.topP = 0.5000000001;
        QTest::newRow("llama.cpp top-p") << "llama.cpp" << s << four << std::vector<int>{0, 1, 2}
                                         << std::vector<int>{0, 1};
        // hf: 1 - top_p = 0.4999999999 in double, rounded to float32 by the comparison: 0.5. The
        // ascending float32 cumsum 0.25, 0.5, 0.75, 1 removes 0.25 and 0.5 (<= 0.5): keeps 2.
        // Exact: the mass above the third token, 0.5, is < 0.5000000001: keeps 3.
        QTest::newRow("hf top-p") << "hf" << s << four << std::vector<int>{0, 1, 2} << std::vector<int>{0, 1};
        // vllm: top_p is a float32 tensor, 0.5f; 1 - 0.5f = 0.5; the same cumsum: keeps 2.
        QTest::newRow("vllm top-p") << "vllm" << s << four << std::vector<int>{0, 1, 2} << std::vector<int>{0, 1};
        // The case: vllm top-p 0.8 on 0.3/0.2/0.2/0.1/0.1/0.1 (logits ln p). 1 - 0.8f =
        // 1 - 0.800000012 = 0.199999988, below 0.2. Float32 softmax of the ascending logits gives
        // 0.100000009 three times: cumsum 0.100000009, 0.200000018, ... Only 0.100000009 <=
        // 0.199999988 is removed: keeps 5. Exact: the mass above the fifth token is 0.8, not < 0.8:
        // keeps 4.
        s = {};
        s.topP = 0.8;
        QTest::newRow("vllm top-p 0.8, the issue's case")
            << "vllm" << s << lnOf({0.3, 0.2, 0.2, 0.1, 0.1, 0.1}) << std::vector<int>{0, 1, 2, 3}
            << std::vector<int>{0, 1, 2, 3, 4};

        // min-p 0.5000000001 on logits 0 and ln 0.5. llama.cpp: float(0.5000000001) = 0.5, the
        // cut is 0 + logf(0.5f) = -0.693147182, and the second logit in float32 is
        // float(ln 0.5) = -0.693147182 too: >= the cut, kept. Exact: ln 0.5 < ln 0.5000000001.
        s = {};
        s.minP = 0.5000000001;
        const std::vector<double> half{0, std::log(0.5)};
        QTest::newRow("llama.cpp min-p") << "llama.cpp" << s << half << std::vector<int>{0} << std::vector<int>{0, 1};
        // hf and vllm: expf(-0.693147182) = 0.5 (e^x = 0.5 - 9.5e-10, and the float below 0.5 is
        // 2.98e-8 away), so probs = 1 and 0.5 times 1/1.5f: 0.666666687 and 0.333333343. The cut
        // 0.5f * 0.666666687 = 0.333333343 equals the second prob: not below it, kept. Exact:
        // 1/3 < 0.5000000001 * 2/3.
        QTest::newRow("hf min-p") << "hf" << s << half << std::vector<int>{0} << std::vector<int>{0, 1};
        QTest::newRow("vllm min-p") << "vllm" << s << half << std::vector<int>{0} << std::vector<int>{0, 1};

        // Typical on 0.5/0.25/0.125/0.125 (logits ln p). In float32 the softmax is exact: the
        // logits are float(ln 0.5) times 1, 2, 3, 3 (a power-of-two scaling), their differences
        // give expf = 1, 0.5, 0.25, 0.25, sum 2. H = 1.75 ln 2 = 1.21300757; scores |-ln p - H|:
        // 0.519860387, 0.173286796, 0.866433978, 0.866433978; typicality order ids 1, 0, 2, 3;
        // running totals 0.25, 0.75, 0.875, 1.
        const std::vector<double> dyadic = lnOf({0.5, 0.25, 0.125, 0.125});
        // llama.cpp, p = 0.7499999999: float(p) = 0.75; stops at the first total > p: 0.75 > 0.75
        // is false, 0.875 > 0.75: keeps 3 (ids 1, 0, 2). Exact: 0.75 > 0.7499999999: keeps 2.
        s = {};
        s.typical = 0.7499999999;
        QTest::newRow("llama.cpp typical")
            << "llama.cpp" << s << dyadic << std::vector<int>{0, 1} << std::vector<int>{0, 1, 2};
        // hf, mass = 0.7500000001: float32 mass 0.75; last = how many totals are < 0.75 = 1, so
        // the boundary score is id 0's (0.519860387) and ids 2, 3 (0.866433978) go: keeps 2.
        // Exact: 0.25 and 0.75 are < 0.7500000001: last = 2, boundary 0.866: keeps all 4.
        s = {};
        s.typical = 0.7500000001;
        QTest::newRow("hf typical") << "hf" << s << dyadic << std::vector<int>{0, 1, 2, 3} << std::vector<int>{0, 1};

        // XTC (probability 1: always), threshold 0.2500000001 on four tokens of p = 0.25. llama.cpp's
        // threshold is a float: 0.25; every p >= 0.25, pos = 3, so the first three go (id 3 stays).
        // Exact: no p reaches the threshold: nothing goes.
        s = {};
        s.xtcProbability = 1.0;
        s.xtcThreshold = 0.2500000001;
        QTest::newRow("llama.cpp xtc") << "llama.cpp" << s << four << std::vector<int>{0, 1, 2, 3}
                                       << std::vector<int>{3};

        // hf epsilon 0.20000001 on 0.5/0.3/0.2 (logits ln p). Float32: the softmax gives
        // 0.50000006, 0.300000012, 0.200000018, and float(0.20000001) = 0.200000003 (the next
        // float up is 0.200000018, further away): 0.200000018 is not below it, kept. Exact: 0.2 <
        // 0.20000001: cut.
        s = {};
        s.epsilon = 0.20000001;
        QTest::newRow("hf epsilon") << "hf" << s << lnOf({0.5, 0.3, 0.2}) << std::vector<int>{0, 1}
                                    << std::vector<int>{0, 1, 2};
    }

    void floatAndExactKeepDifferentSets()
    {
        QFETCH(QString, semantics);
        QFETCH(engine::ChainSettings, settings);
        QFETCH(std::vector<double>, logits);
        QFETCH(std::vector<int>, exact);
        QFETCH(std::vector<int>, library);
        const Semantics s = *engine::parseSemantics(semantics.toStdString());
        QCOMPARE(idsOf(run(settings, s, "exact", logits)), exact);
        QCOMPARE(idsOf(run(settings, s, "library", logits)), library);

        // The report names exactly the tokens in one set and not the other.
        const Eigen::Map<const Eigen::ArrayXd> map(logits.data(), static_cast<Eigen::Index>(logits.size()));
        const auto notes = engine::roundingDependence(chainOf(settings, s, "exact"), map);
        std::vector<int> differing;
        std::set_symmetric_difference(exact.begin(), exact.end(), library.begin(), library.end(),
                                      std::back_inserter(differing));
        std::vector<int> reported;
        for (const auto& n : notes) {
            reported.push_back(n.id);
            const bool inLibrary = std::find(library.begin(), library.end(), n.id) != library.end();
            QCOMPARE(n.keptByLibrary, inLibrary);
            const std::string text = engine::describeRounding(n, {});
            QVERIFY2(text.find(inLibrary ? "kept by float32, cut in exact arithmetic"
                                         : "cut by float32, kept in exact arithmetic") != std::string::npos,
                     text.c_str());
        }
        QCOMPARE(reported, differing);
    }

    // The example in words: both running totals, float32 and exact.
    void roundingNoteShowsBothRunningTotals()
    {
        engine::ChainSettings s;
        s.topP = 0.8;
        const std::vector<double> logits = lnOf({0.3, 0.2, 0.2, 0.1, 0.1, 0.1});
        const Eigen::Map<const Eigen::ArrayXd> map(logits.data(), 6);
        const auto notes = engine::roundingDependence(chainOf(s, Semantics::Vllm, "exact"), map);
        QCOMPARE(notes.size(), std::size_t{1});
        QVERIFY(notes[0].noted);
        QCOMPARE(notes[0].library.stage, std::string("top-p"));
        // float32: cumsum 0.200000018 against 1 - 0.8f = 0.199999988.
        QCOMPARE(bitsOf(static_cast<float>(notes[0].library.cut)), bitsOf(1.0f - 0.8f));
        QVERIFY(notes[0].library.total > notes[0].library.cut);
        QVERIFY(std::fabs(notes[0].exact.total - 0.2) < 1e-12);
        QCOMPARE(engine::describeRounding(notes[0], [](std::int32_t id) { return "t" + std::to_string(id); }),
                 std::string("token 4 (t4): kept by float32, cut in exact arithmetic: top-p running total float32 "
                             "0.200000018 (cut 0.199999988), exact 0.2 (cut 0.2)"));
        // The lesson has one arithmetic: nothing to report.
        QVERIFY(engine::roundingDependence(chainOf(s, Semantics::Lesson, "library"), map).empty());
    }

    // Probabilities float32 represents exactly, as the libraries' formulas give them, bit for bit.
    void libraryProbabilitiesToTheLastBit_data()
    {
        QTest::addColumn<QString>("semantics");
        QTest::addColumn<engine::ChainSettings>("settings");
        QTest::addColumn<std::vector<double>>("logits");
        QTest::addColumn<std::vector<float>>("p");  // by id, survivors only
        engine::ChainSettings none;
        // llama.cpp's dist: expf(0) = 1 each, the sum 4 in double, 1 / 4 = 0.25.
        QTest::newRow("llama.cpp four equal")
            << "llama.cpp" << none << std::vector<double>{0, 0, 0, 0} << std::vector<float>{0.25f, 0.25f, 0.25f, 0.25f};
        // expf(-104) = 0 in float32: e^-104 = 6.8e-46 is below half the smallest subnormal
        // (2^-150 = 7.0e-46). p = 1 / 1 and 0 / 1 exactly (exact arithmetic: 6.8e-46).
        QTest::newRow("llama.cpp underflow")
            << "llama.cpp" << none << std::vector<double>{0, -104} << std::vector<float>{1.0f, 0.0f};
        // top-p 0.5 on four equal tokens: float totals 0.25, 0.5 >= 0.5f: two left, 1/2 each.
        engine::ChainSettings topP;
        topP.topP = 0.5;
        QTest::newRow("llama.cpp top-p") << "llama.cpp" << topP << std::vector<double>{0, 0, 0, 0}
                                         << std::vector<float>{0.5f, 0.5f};
        // hf: 2 / 2f = 1 each (temperature in float32); softmax exp(0) = 1, sum 4, times 1/4 = 0.25.
        engine::ChainSettings t2;
        t2.temperature = 2.0;
        QTest::newRow("hf temperature 2")
            << "hf" << t2 << std::vector<double>{2, 2, 2, 2} << std::vector<float>{0.25f, 0.25f, 0.25f, 0.25f};
        // A banned token: exp(-inf) = 0; two of 1: 1 * (1/2) = 0.5.
        QTest::newRow("hf -inf") << "hf" << none << std::vector<double>{0, 0, -kInf} << std::vector<float>{0.5f, 0.5f};
        // vllm at T = 0.5: float(0.25) / 0.5f = 0.5 each (exact); 8 of exp(0) = 1, sum 8, times
        // 1/8 = 0.125.
        engine::ChainSettings half;
        half.temperature = 0.5;
        QTest::newRow("vllm eight equal")
            << "vllm" << half << std::vector<double>(8, 0.25) << std::vector<float>(8, 0.125f);
    }

    void libraryProbabilitiesToTheLastBit()
    {
        QFETCH(QString, semantics);
        QFETCH(engine::ChainSettings, settings);
        QFETCH(std::vector<double>, logits);
        QFETCH(std::vector<float>, p);
        auto survivors = run(settings, *engine::parseSemantics(semantics.toStdString()), "library", logits);
        std::sort(survivors.begin(), survivors.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
        QCOMPARE(survivors.size(), p.size());
        for (std::size_t i = 0; i < p.size(); ++i) {
            QCOMPARE(static_cast<double>(static_cast<float>(survivors[i].p)), survivors[i].p);  // a float32 number
            QCOMPARE(bitsOf(static_cast<float>(survivors[i].p)), bitsOf(p[i]));
        }
        // In exact arithmetic the underflow case keeps its tiny probability.
        if (logits == std::vector<double>{0, -104}) {
            auto exact = run(settings, Semantics::LlamaCpp, "exact", logits);
            QVERIFY(exact.back().p > 0.0 && exact.back().p < 1e-45);
        }
    }

    // Issue 35, item 7: the llama.cpp preset's final probabilities under `library` arithmetic
    // are llama.cpp's, bit for bit, on seeded random chains: top-k, top-p, min-p (0 and
    // min-keep 0 among them), temperature and dynamic temperature, against an independent
    // model of llama-sampling.cpp's float code (llama_float_reference.h).
    void llamaCppChainsMatchItsFloatCode()
    {
        std::mt19937 rng(35);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        std::normal_distribution<double> normal(0.0, 1.0);
        int cases = 0;
        int dynamic = 0;
        int noCut = 0;
        for (int c = 0; c < 600; ++c) {
            const std::size_t n = 2 + static_cast<std::size_t>(unit(rng) * 300);
            const double scale = 0.5 + unit(rng) * 6.0;
            std::vector<double> logits(n);
            for (double& l : logits)
                l = normal(rng) * scale;
            engine::ChainSettings s;
            const double pick = unit(rng);
            s.topK = pick < 0.3 ? 0.0 : std::floor(1 + unit(rng) * static_cast<double>(n + 5));
            s.topP = unit(rng) < 0.3 ? 1.0 : 0.3 + 0.7 * unit(rng);
            const double minPick = unit(rng);
            s.minP = minPick < 0.3 ? 0.0 : minPick < 0.4 ? 1e-50 : unit(rng) * 0.2;  // 1e-50 is 0 as a float
            s.minKeep = std::floor(unit(rng) * 4);
            s.temperature = unit(rng) < 0.05 ? 0.0 : 0.2 + unit(rng) * 1.8;
            if (unit(rng) < 0.5) {
                s.dynatempRange = 0.05 + unit(rng) * 1.0;
                s.dynatempExponent = 0.25 + unit(rng) * 2.0;
            }
            // The model, in llama.cpp's order: top-k, top-p, min-p, temp-ext, dist.
            test::llama::Array a;
            for (std::size_t i = 0; i < n; ++i)
                a.data.push_back({static_cast<std::int32_t>(i), static_cast<float>(logits[i]), 0.0f});
            test::llama::topK(a, static_cast<int>(*s.topK));
            test::llama::topP(a, static_cast<float>(*s.topP), static_cast<std::size_t>(*s.minKeep));
            test::llama::minP(a, static_cast<float>(*s.minP), static_cast<std::size_t>(*s.minKeep));
            test::llama::temperatureExt(a, static_cast<float>(*s.temperature),
                                        static_cast<float>(s.dynatempRange.value_or(0.0)),
                                        static_cast<float>(s.dynatempExponent.value_or(1.0)));
            test::llama::dist(a);
            std::vector<std::pair<int, float>> expected;
            for (const auto& t : a.data)
                if (t.logit != -INFINITY)
                    expected.emplace_back(t.id, t.p);
            std::sort(expected.begin(), expected.end());

            auto survivors = run(s, Semantics::LlamaCpp, "library", logits);
            std::sort(survivors.begin(), survivors.end(), [](const auto& x, const auto& y) { return x.id < y.id; });
            const QByteArray where = QByteArray("case ") + QByteArray::number(c) + " n " + QByteArray::number(int(n));
            QVERIFY2(survivors.size() == expected.size(), where.constData());
            for (std::size_t i = 0; i < expected.size(); ++i) {
                QVERIFY2(survivors[i].id == expected[i].first, where.constData());
                const QByteArray detail = where + " id " + QByteArray::number(expected[i].first) + ": " +
                                          QByteArray::number(survivors[i].p, 'g', 17) + " vs " +
                                          QByteArray::number(double(expected[i].second), 'g', 17);
                QVERIFY2(bitsOf(static_cast<float>(survivors[i].p)) == bitsOf(expected[i].second), detail.constData());
            }
            ++cases;
            dynamic += s.dynatempRange.has_value();
            noCut += *s.minP == 0.0 && *s.minKeep == 0.0;
        }
        qInfo("llama.cpp float chains: %d cases bit for bit (%d with dynamic temperature, %d with min-p 0 and "
              "min-keep 0)",
              cases, dynamic, noCut);
    }

    // Ties at a cut: LogitLab keeps the lower ids, and the report names both sides.
    void tiesAtACut_data()
    {
        QTest::addColumn<QString>("semantics");
        QTest::addColumn<engine::ChainSettings>("settings");
        QTest::addColumn<std::vector<double>>("logits");
        QTest::addColumn<QString>("line");
        engine::ChainSettings topK;
        topK.topK = 2;
        QTest::newRow("lesson top-k") << "lesson" << topK << std::vector<double>{3, 1, 2, 2}
                                      << "top-k: tie at logit 2: kept 2, cut 3 (LogitLab keeps the lower ids; the "
                                         "libraries do not fix an order)";
        QTest::newRow("llama.cpp top-k") << "llama.cpp" << topK << std::vector<double>{3, 1, 2, 2}
                                         << "top-k: tie at logit 2: kept 2, cut 3 (LogitLab keeps the lower ids; the "
                                            "libraries do not fix an order)";
        engine::ChainSettings topP;
        topP.topP = 0.5;
        QTest::newRow("hf top-p") << "hf" << topP << std::vector<double>{0, 0, 0, 0}
                                  << "top-p: tie at logit 0: kept 0, 1, cut 2, 3 (LogitLab keeps the lower ids; the "
                                     "libraries do not fix an order)";
        QTest::newRow("llama.cpp top-p") << "llama.cpp" << topP << std::vector<double>{0, 0, 0, 0}
                                         << "top-p: tie at logit 0: kept 0, 1, cut 2, 3 (LogitLab keeps the lower ids; "
                                            "the libraries do not fix an order)";
    }

    void tiesAtACut()
    {
        QFETCH(QString, semantics);
        QFETCH(engine::ChainSettings, settings);
        QFETCH(std::vector<double>, logits);
        QFETCH(QString, line);
        const Semantics s = *engine::parseSemantics(semantics.toStdString());
        const Eigen::Map<const Eigen::ArrayXd> map(logits.data(), static_cast<Eigen::Index>(logits.size()));
        const auto ties = engine::tiesAtCuts(chainOf(settings, s, "exact"), map);
        QCOMPARE(ties.size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(engine::describeTie(ties[0], {})), line);
        // No tie, no mark.
        QVERIFY(engine::tiesAtCuts(chainOf(settings, s, "exact"), Eigen::ArrayXd::LinSpaced(4, 0, 3)).empty());
    }

    void unknownArithmeticIsRefused()
    {
        engine::ChainSettings s;
        s.arithmetic = "fast";
        const auto chain = engine::buildChain(s, Semantics::Hf);
        QVERIFY(!chain.ok());
        QCOMPARE(QString::fromStdString(chain.error()),
                 QStringLiteral("arithmetic: 'fast' is not one of exact, library"));
        QCOMPARE(engine::defaultArithmetic(Semantics::Vllm), engine::Arithmetic::Exact);
    }
};

QTEST_GUILESS_MAIN(TestLibraryArithmetic)
#include "tst_library_arithmetic.moc"
