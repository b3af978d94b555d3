// Each sampler stage on its own: llama.cpp's and Hugging Face's own unit-test expectations
// (tests/test-sampling.cpp and tests/generation/test_logits_process.py) restated as data rows,
// hand-worked cases with the arithmetic shown, state (mirostat, XTC) and degenerate inputs.
#include "engine/stages/dynamic_temperature_stage.h"
#include "engine/stages/mirostat_v1_stage.h"
#include "engine/stages/mirostat_v2_stage.h"
#include "engine/stages/stage_factory.h"
#include "support/chain_test_support.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace logitlab;
using engine::Semantics;
using test::applied;
using test::arrayFromLogits;
using test::arrayFromProbs;
using test::logOf;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<double> ramp(double from, int count, double scale = 1.0)
{
    std::vector<double> out;
    for (int i = 0; i < count; ++i)
        out.push_back((from + i) * scale);
    return out;
}

}  // namespace

class TestSamplerStages : public QObject {
    Q_OBJECT

private slots:
    // llama.cpp's expectations: the p field in array order after the sampler, then (most rows)
    // after `dist`, which renormalises over the array. Same inputs as its tester: logit = ln p.
    void llamaCppExpectations_data()
    {
        QTest::addColumn<QString>("chain");
        QTest::addColumn<std::vector<double>>("probs");
        QTest::addColumn<std::vector<int>>("history");
        QTest::addColumn<bool>("dist");
        QTest::addColumn<std::vector<double>>("expected");

        const std::vector<double> up{0.1, 0.2, 0.3, 0.4};
        const std::vector<double> down{0.4, 0.3, 0.2, 0.1};
        const std::vector<double> five(5, 0.2);
        const std::vector<double> four(4, 0.25);
        const auto row = [](const char* name) -> QTestData& { return QTest::newRow(name); };

        row("temp 1") << "temperature=1" << up << std::vector<int>{} << true << up;
        row("temp 0") << "temperature=0" << up << std::vector<int>{} << true << std::vector<double>{0, 0, 0, 1};
        row("temp_ext 1 0 1") << "dynamic-temperature=1:delta=0:exponent=1" << up << std::vector<int>{} << true << up;
        row("temp_ext 0 0 1") << "dynamic-temperature=0:delta=0" << up << std::vector<int>{} << true
                              << std::vector<double>{0, 0, 0, 1};
        row("top_k 1") << "top-k=1" << up << std::vector<int>{} << true << std::vector<double>{1};
        row("top_k 3") << "top-k=3" << up << std::vector<int>{} << true
                       << std::vector<double>{0.44444, 0.33333, 0.22222};
        row("top_k 4") << "top-k=4" << up << std::vector<int>{} << true << down;
        row("top_k 0") << "top-k=0" << up << std::vector<int>{} << true << up;
        row("top_p 0") << "top-p=0" << up << std::vector<int>{} << true << std::vector<double>{1};
        row("top_p 0.7") << "top-p=0.7" << up << std::vector<int>{} << true << std::vector<double>{0.571429, 0.428571};
        row("top_p 0.8") << "top-p=0.8" << up << std::vector<int>{} << true
                         << std::vector<double>{0.44444, 0.33333, 0.22222};
        row("top_p 1") << "top-p=1" << up << std::vector<int>{} << true << up;
        row("min_p 0") << "min-p=0" << up << std::vector<int>{} << true << up;
        row("min_p 0.24") << "min-p=0.24" << up << std::vector<int>{} << true << up;
        row("min_p 0.26") << "min-p=0.26" << up << std::vector<int>{} << true
                          << std::vector<double>{0.2 / 0.9, 0.3 / 0.9, 0.4 / 0.9};
        row("min_p 0.49") << "min-p=0.49" << up << std::vector<int>{} << true
                          << std::vector<double>{0.2 / 0.9, 0.3 / 0.9, 0.4 / 0.9};
        row("min_p 0.51") << "min-p=0.51" << up << std::vector<int>{} << true
                          << std::vector<double>{0.3 / 0.7, 0.4 / 0.7};
        row("min_p 0.74") << "min-p=0.74" << up << std::vector<int>{} << true
                          << std::vector<double>{0.3 / 0.7, 0.4 / 0.7};
        row("min_p 0.76") << "min-p=0.76" << up << std::vector<int>{} << true << std::vector<double>{1};
        row("min_p 1") << "min-p=1" << up << std::vector<int>{} << true << std::vector<double>{1};
        row("min_p 1.05") << "min-p=1.05" << up << std::vector<int>{} << true << std::vector<double>{1};
        // XTC and typical end without dist: p are the softmax values from before the cut.
        row("xtc 0.09") << "xtc=1:threshold=0.09" << down << std::vector<int>{} << false << std::vector<double>{0.1};
        row("xtc 0.19") << "xtc=1:threshold=0.19" << down << std::vector<int>{} << false
                        << std::vector<double>{0.2, 0.1};
        row("xtc 0.29") << "xtc=1:threshold=0.29" << down << std::vector<int>{} << false
                        << std::vector<double>{0.3, 0.2, 0.1};
        row("xtc 0.39 (should not)") << "xtc=1:threshold=0.39" << down << std::vector<int>{} << false << down;
        row("typical peaked") << "typical=0.5" << std::vector<double>{0.97, 0.01, 0.01, 0.01} << std::vector<int>{}
                              << false << std::vector<double>{0.97};
        row("typical flat") << "typical=0.5" << std::vector<double>{0.4, 0.2, 0.2, 0.2} << std::vector<int>{} << false
                            << std::vector<double>{0.2, 0.2, 0.2};
        row("repeat 50 {0}") << "penalties=1:repeat=50" << five << std::vector<int>{0} << true
                             << std::vector<double>{0, 0.25, 0.25, 0.25, 0.25};
        row("repeat 50 {0,1,2}") << "penalties=3:repeat=50" << five << std::vector<int>{0, 1, 2} << true
                                 << std::vector<double>{0, 0, 0, 0.5, 0.5};
        row("repeat 50 {0,1,2,0,0}") << "penalties=5:repeat=50" << five << std::vector<int>{0, 1, 2, 0, 0} << true
                                     << std::vector<double>{0, 0, 0, 0.5, 0.5};
        row("freq+presence {0}") << "penalties=1:frequency=5:presence=5" << five << std::vector<int>{0} << true
                                 << std::vector<double>{0.000011, 0.249997, 0.249997, 0.249997, 0.249997};
        row("freq+presence {0,1,2}") << "penalties=3:frequency=5:presence=5" << five << std::vector<int>{0, 1, 2}
                                     << true << std::vector<double>{0.000023, 0.000023, 0.000023, 0.499966, 0.499966};
        row("freq+presence {0,1,2,0,0}") << "penalties=5:frequency=5:presence=5" << five
                                         << std::vector<int>{0, 1, 2, 0, 0} << true
                                         << std::vector<double>{0.000000, 0.000023, 0.000023, 0.499977, 0.499977};
        row("dry short history") << "dry=1:base=1.1:allowed-length=2:last-n=4" << four << std::vector<int>{0, 1} << true
                                 << four;
        row("dry repeat") << "dry=1:base=1.1:allowed-length=2:last-n=5" << four << std::vector<int>{0, 1, 2, 0, 1}
                          << true << std::vector<double>{0.296923, 0.296923, 0.109232, 0.296923};
        row("dry breaker") << "dry=1:base=1.1:allowed-length=2:last-n=6:breakers=3" << five
                           << std::vector<int>{0, 1, 3, 4, 0, 1} << true << five;
        row("dry multiplier 2") << "dry=2:base=1.1:allowed-length=2:last-n=5" << five << std::vector<int>{0, 1, 2, 0, 1}
                                << true << std::vector<double>{0.241818, 0.241818, 0.032727, 0.241818, 0.241818};
        row("dry allowed 4") << "dry=1:base=1.1:allowed-length=4:last-n=7" << five
                             << std::vector<int>{0, 1, 2, 3, 4, 0, 1} << true << five;
        row("top_n_sigma 1") << "top-n-sigma=1" << up << std::vector<int>{} << true
                             << std::vector<double>{0, 0, 0.428571, 0.571429};
        row("top_n_sigma 0") << "top-n-sigma=0" << up << std::vector<int>{} << true << up;
        row("top_n_sigma 3") << "top-n-sigma=3" << up << std::vector<int>{} << true << up;
    }

    void llamaCppExpectations()
    {
        QFETCH(QString, chain);
        QFETCH(std::vector<double>, probs);
        QFETCH(std::vector<int>, history);
        QFETCH(bool, dist);
        QFETCH(std::vector<double>, expected);
        auto a = applied(chain.toStdString(), Semantics::LlamaCpp, arrayFromProbs(probs),
                         std::vector<std::int32_t>(history.begin(), history.end()));
        if (dist)
            a.softmax();
        const auto p = test::probabilities(a);
        QCOMPARE(p.size(), expected.size());
        for (std::size_t i = 0; i < p.size(); ++i)
            QVERIFY2(std::fabs(p[i] - expected[i]) < 1e-5,
                     qPrintable(QStringLiteral("entry %1: %2 vs %3").arg(i).arg(p[i]).arg(expected[i])));
    }

    // Hugging Face's expectations: which tokens a warper leaves unmasked (their probabilities
    // are untouched, the rest become exp(-inf) = 0). `count` rows are the ones HF checks by the
    // number of non-zero entries (filter_value = 0).
    void hfExpectations_data()
    {
        QTest::addColumn<QString>("chain");
        QTest::addColumn<std::vector<double>>("logits");
        QTest::addColumn<std::vector<int>>("expected");  // empty: compare the count only
        QTest::addColumn<int>("count");

        const auto r = ramp(-5, 10);
        const auto r100 = ramp(-5, 10, 100.0);
        std::vector<double> ramp2 = ramp(0, 10);
        for (int i = 0; i < 5; ++i)
            ramp2[static_cast<std::size_t>(i)] += 10;
        const std::vector<double> uniform5(5, 0.2);

        QTest::newRow("top_k 3 ramp") << "top-k=3" << ramp(0, 10) << std::vector<int>{7, 8, 9} << 3;
        QTest::newRow("top_k 3 shifted ramp") << "top-k=3" << ramp2 << std::vector<int>{2, 3, 4} << 3;
        QTest::newRow("top_k 1 keep 3 uniform")
            << "top-k=1:min-keep=3" << uniform5 << std::vector<int>{0, 1, 2, 3, 4} << 5;
        QTest::newRow("top_k 1 keep 3 ramp") << "top-k=1:min-keep=3" << ramp(0, 5) << std::vector<int>{2, 3, 4} << 3;
        QTest::newRow("top_p 0.8 boundary row (D6)")
            << "top-p=0.8" << logOf({0.3, 0.1, 0.1, 0.5}) << std::vector<int>{0, 3} << 2;
        QTest::newRow("top_p 0.8 second row")
            << "top-p=0.8" << logOf({0.15, 0.3, 0.3, 0.25}) << std::vector<int>{1, 2, 3} << 3;
        QTest::newRow("top_p 0.9 keep 2 ramp") << "top-p=0.9:min-keep=2" << r << std::vector<int>{} << 3;
        QTest::newRow("top_p 0.9 keep 2 extreme") << "top-p=0.9:min-keep=2" << r100 << std::vector<int>{} << 2;
        QTest::newRow("min_p 0.05 row 1")
            << "min-p=0.05" << logOf({0.9, 0.0274, 0.047, 0.0274}) << std::vector<int>{0, 2} << 2;
        QTest::newRow("min_p 0.05 row 2")
            << "min-p=0.05" << logOf({0.15, 0.3, 0.3, 0.25}) << std::vector<int>{0, 1, 2, 3} << 4;
        QTest::newRow("min_p 0.05 row 3")
            << "min-p=0.05" << logOf({0.97, 0.01, 0.01, 0.01}) << std::vector<int>{0} << 1;
        QTest::newRow("min_p 0.9 keep 2 ramp") << "min-p=0.9:min-keep=2" << r << std::vector<int>{} << 2;
        QTest::newRow("min_p 0.9 keep 2 extreme") << "min-p=0.9:min-keep=2" << r100 << std::vector<int>{} << 2;
        QTest::newRow("typical 0.5 peaked")
            << "typical=0.5" << logOf({0.97, 0.01, 0.01, 0.01}) << std::vector<int>{0} << 1;
        QTest::newRow("typical 0.5 flat")
            << "typical=0.5" << logOf({0.4, 0.2, 0.2, 0.2}) << std::vector<int>{1, 2, 3} << 3;
        QTest::newRow("typical keep 3 uniform")
            << "typical=0.5:min-keep=3" << uniform5 << std::vector<int>{0, 1, 2, 3, 4} << 5;
        QTest::newRow("typical 0.7 keep 2 ramp") << "typical=0.7:min-keep=2" << r << std::vector<int>{} << 2;
        QTest::newRow("typical 0.7 keep 2 extreme") << "typical=0.7:min-keep=2" << r100 << std::vector<int>{} << 2;
        QTest::newRow("epsilon 0.1 row 1")
            << "epsilon=0.1" << logOf({0.87, 0.099, 0.001, 0.03}) << std::vector<int>{0} << 1;
        QTest::newRow("epsilon 0.1 row 2")
            << "epsilon=0.1" << logOf({0.4, 0.299, 0.101, 0.2}) << std::vector<int>{0, 1, 2, 3} << 4;
        QTest::newRow("epsilon 0.05 keep 2 ramp") << "epsilon=0.05:min-keep=2" << r << std::vector<int>{} << 3;
        QTest::newRow("epsilon 0.05 keep 2 extreme") << "epsilon=0.05:min-keep=2" << r100 << std::vector<int>{} << 2;
        QTest::newRow("eta 0.0625 row 1")
            << "eta=0.0625" << logOf({0.0, 0.1, 0.8, 0.1}) << std::vector<int>{1, 2, 3} << 3;
        QTest::newRow("eta 0.0625 row 2") << "eta=0.0625" << logOf({0.01, 0.04, 0.9, 0.05}) << std::vector<int>{2} << 1;
        QTest::newRow("eta 0.1 keep 2 ramp") << "eta=0.1:min-keep=2" << r << std::vector<int>{} << 2;
        QTest::newRow("eta 0.1 keep 2 extreme") << "eta=0.1:min-keep=2" << r100 << std::vector<int>{} << 2;
    }

    void hfExpectations()
    {
        QFETCH(QString, chain);
        QFETCH(std::vector<double>, logits);
        QFETCH(std::vector<int>, expected);
        QFETCH(int, count);
        const auto a = applied(chain.toStdString(), Semantics::Hf, arrayFromLogits(logits));
        const auto kept = test::keptIds(a);
        QCOMPARE(static_cast<int>(kept.size()), count);
        if (!expected.empty())
            QCOMPARE(kept, expected);
        for (const auto& t : a.data())  // masks, never rescales
            QCOMPARE(t.logit, logits[static_cast<std::size_t>(t.id)]);
    }

    void hfNoRepeatNgram_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<std::vector<int>>("history");
        QTest::addColumn<std::vector<int>>("expected");
        // HF: input_ids [[1,1,2,1],[0,1,0,1]] over a vocabulary of 3.
        QTest::newRow("2-gram, 1 1 2 1") << 2 << std::vector<int>{1, 1, 2, 1} << std::vector<int>{0};
        QTest::newRow("3-gram, 1 1 2 1") << 3 << std::vector<int>{1, 1, 2, 1} << std::vector<int>{0, 1, 2};
        QTest::newRow("2-gram, 0 1 0 1") << 2 << std::vector<int>{0, 1, 0, 1} << std::vector<int>{1, 2};
        QTest::newRow("3-gram, 0 1 0 1") << 3 << std::vector<int>{0, 1, 0, 1} << std::vector<int>{1, 2};
        QTest::newRow("history shorter than n-1") << 4 << std::vector<int>{0, 1} << std::vector<int>{0, 1, 2};
    }

    void hfNoRepeatNgram()
    {
        QFETCH(int, n);
        QFETCH(std::vector<int>, history);
        QFETCH(std::vector<int>, expected);
        const auto a = applied("no-repeat-ngram=" + std::to_string(n), Semantics::Hf, arrayFromLogits({0, 0, 0}),
                               std::vector<std::int32_t>(history.begin(), history.end()));
        QCOMPARE(test::keptIds(a), expected);
    }

    void hfRepetitionPenalty()
    {
        // HF: input_ids [[0,1],[5,0]], scores 1/V except [0,0] = -1/V and [1,5] = 4/V, penalty 2:
        // negative scores are multiplied, positive ones divided, each token once.
        const double v = 10;
        std::vector<double> row0(10, 1 / v);
        row0[0] = -1 / v;
        auto a = applied("penalties:repeat=2", Semantics::Hf, arrayFromLogits(row0), {0, 1});
        QCOMPARE(a[0].logit, -(1 / v) * 2);
        QCOMPARE(a[1].logit, (1 / v) / 2);
        QCOMPARE(a[2].logit, 1 / v);
        std::vector<double> row1(10, 1 / v);
        row1[5] = 4 / v;
        a = applied("penalties:repeat=2", Semantics::Hf, arrayFromLogits(row1), {5, 0});
        QCOMPARE(a[0].logit, (1 / v) / 2);
        QCOMPARE(a[5].logit, (4 / v) / 2);
    }

    // Cases worked out by hand; the arithmetic is in the comment of each row.
    void handWorked_data()
    {
        QTest::addColumn<QString>("semantics");
        QTest::addColumn<QString>("chain");
        QTest::addColumn<std::vector<double>>("logits");
        QTest::addColumn<std::vector<int>>("history");
        QTest::addColumn<std::vector<int>>("ids");   // survivors in array order
        QTest::addColumn<std::vector<double>>("p");  // after a final softmax (empty: unchecked)

        const double l5 = std::log(0.5), l3 = std::log(0.3), l2 = std::log(0.2);
        // [0, ln .5, ln .1] has p proportional to 1 : .5 : .1; min-p .2 keeps ratio >= .2, i.e.
        // ids 0 and 1, renormalised 1/1.5 = .6667 and .5/1.5 = .3333.
        QTest::newRow("min-p 0.2") << "llama.cpp"
                                   << "min-p=0.2" << std::vector<double>{0, l5, std::log(0.1)} << std::vector<int>{}
                                   << std::vector<int>{0, 1} << std::vector<double>{2.0 / 3, 1.0 / 3};
        // probs .5 .3 .2, top-p .6: running totals .5 (< .6) then .8 (>= .6): keep 2, p = .5/.8, .3/.8.
        QTest::newRow("top-p 0.6") << "llama.cpp"
                                   << "top-p=0.6" << std::vector<double>{l5, l3, l2} << std::vector<int>{}
                                   << std::vector<int>{0, 1} << std::vector<double>{0.625, 0.375};
        // Logits 3 1 2 2, k = 2: 3 is first; 2 and 2 tie for second, the lower id (2) wins.
        QTest::newRow("top-k tie, exact k") << "llama.cpp"
                                            << "top-k=2" << std::vector<double>{3, 1, 2, 2} << std::vector<int>{}
                                            << std::vector<int>{0, 2} << std::vector<double>{};
        // Same logits under hf: the 2nd largest value is 2; only 1 (< 2) goes.
        QTest::newRow("top-k tie, hf keeps ties") << "hf"
                                                  << "top-k=2" << std::vector<double>{3, 1, 2, 2} << std::vector<int>{}
                                                  << std::vector<int>{0, 2, 3} << std::vector<double>{};
        // probs .6 .3 .1: H = .3065 + .3612 + .2303 = .8979 nats; |-ln p - H| = .3871, .3061, 1.4047.
        // Typicality order 1, 0, 2; totals .3 (<= .5), .9 (> .5): keep ids 1, 0 in that order.
        QTest::newRow("typical 0.5") << "llama.cpp"
                                     << "typical=0.5" << std::vector<double>{std::log(0.6), l3, std::log(0.1)}
                                     << std::vector<int>{} << std::vector<int>{1, 0}
                                     << std::vector<double>{1.0 / 3, 2.0 / 3};
        // hf: totals in the same order .3 (< .5, counts), .9: last = 1, boundary score .3871;
        // id 2 scores 1.4047 > .3871 and goes. Ids stay in token order.
        QTest::newRow("typical 0.5 hf") << "hf"
                                        << "typical=0.5" << std::vector<double>{std::log(0.6), l3, std::log(0.1)}
                                        << std::vector<int>{} << std::vector<int>{0, 1}
                                        << std::vector<double>{2.0 / 3, 1.0 / 3};
        // probs .5 .45 .05, epsilon .1: only .05 < .1 goes.
        QTest::newRow("epsilon 0.1") << "hf"
                                     << "epsilon=0.1" << std::vector<double>{l5, std::log(0.45), std::log(0.05)}
                                     << std::vector<int>{} << std::vector<int>{0, 1}
                                     << std::vector<double>{0.5 / 0.95, 0.45 / 0.95};
        // probs .7 .2 .1: H = .2497 + .3219 + .2303 = .8018; sqrt(.25) e^-H = .5 * .4485 = .2243;
        // eta = min(.25, .2243) = .2243, so .2 and .1 go.
        QTest::newRow("eta 0.25") << "hf"
                                  << "eta=0.25" << std::vector<double>{std::log(0.7), l2, std::log(0.1)}
                                  << std::vector<int>{} << std::vector<int>{0} << std::vector<double>{1};
        // Logits 0 1 2 10: mean 3.25, population variance (10.5625 + 5.0625 + 1.5625 + 45.5625) / 4
        // = 15.6875, sigma 3.9608; threshold 10 - 3.9608 = 6.04 keeps id 3 only (others stay at -inf).
        QTest::newRow("top-n-sigma 1") << "llama.cpp"
                                       << "top-n-sigma=1" << std::vector<double>{0, 1, 2, 10} << std::vector<int>{}
                                       << std::vector<int>{3} << std::vector<double>{1};
        // probs .5 .3 .15 .05, threshold .1: the leading run >= .1 is .5 .3 .15 (last index 2), so
        // the first two go and .15 .05 stay with their old p.
        QTest::newRow("xtc") << "llama.cpp"
                             << "xtc=1:threshold=0.1" << std::vector<double>{l5, l3, std::log(0.15), std::log(0.05)}
                             << std::vector<int>{} << std::vector<int>{2, 3} << std::vector<double>{0.75, 0.25};
        // Logits 2 -1 .5, history 0 1 0, repeat 2, frequency .5, presence 1:
        // id 0: 2 / 2 = 1, minus 2 * .5 + 1 = -1;  id 1: -1 * 2 = -2, minus .5 + 1 = -3.5;  id 2 untouched.
        QTest::newRow("penalties") << "llama.cpp"
                                   << "penalties=64:repeat=2:frequency=0.5:presence=1"
                                   << std::vector<double>{2, -1, 0.5} << std::vector<int>{0, 1, 0}
                                   << std::vector<int>{0, 1, 2}
                                   << std::vector<double>{
                                          std::exp(-1) / (std::exp(-1) + std::exp(-3.5) + std::exp(0.5)),
                                          std::exp(-3.5) / (std::exp(-1) + std::exp(-3.5) + std::exp(0.5)),
                                          std::exp(0.5) / (std::exp(-1) + std::exp(-3.5) + std::exp(0.5))};
        // Only the last 2 tokens (1 0) count with last-n 2: id 0 once, id 1 once: same as above
        // but id 0 loses 1 * .5 + 1 = 1.5 (2/2 - 1.5 = -.5) instead of 2.
        QTest::newRow("penalties window")
            << "llama.cpp"
            << "penalties=2:repeat=2:frequency=0.5:presence=1" << std::vector<double>{2, -1, 0.5}
            << std::vector<int>{0, 1, 0} << std::vector<int>{0, 1, 2}
            << std::vector<double>{std::exp(-0.5) / (std::exp(-0.5) + std::exp(-3.5) + std::exp(0.5)),
                                   std::exp(-3.5) / (std::exp(-0.5) + std::exp(-3.5) + std::exp(0.5)),
                                   std::exp(0.5) / (std::exp(-0.5) + std::exp(-3.5) + std::exp(0.5))};
        // Bias: 0 0 0 + {1: +ln 3, 2: -inf} gives p = 1/4, 3/4, 0.
        QTest::newRow("logit bias") << "lesson"
                                    << "logit-bias=1@" + QString::number(std::log(3.0), 'g', 17) + "/2@-inf"
                                    << std::vector<double>{0, 0, 0} << std::vector<int>{} << std::vector<int>{0, 1}
                                    << std::vector<double>{0.25, 0.75};
        // History 7 8 9 7 8 (DRY with allowed length 2, multiplier 1, base 2): the suffix "7 8" also
        // ends at position 1 and was followed by 9, so 9 loses 1 * 2^(2-2) = 1.
        QTest::newRow("dry") << "llama.cpp"
                             << "dry=1:base=2:allowed-length=2" << std::vector<double>{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
                             << std::vector<int>{7, 8, 9, 7, 8} << std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
                             << std::vector<double>{};
        // Temperature 0.5 on logits 1 0: p = e^2 / (e^2 + 1) = .8808, .1192.
        QTest::newRow("temperature 0.5") << "hf"
                                         << "temperature=0.5" << std::vector<double>{1, 0} << std::vector<int>{}
                                         << std::vector<int>{0, 1}
                                         << std::vector<double>{std::exp(2.0) / (std::exp(2.0) + 1),
                                                                1 / (std::exp(2.0) + 1)};
        // Greedy on 1 3 3: the first 3 (id 1) wins.
        QTest::newRow("greedy") << "hf"
                                << "greedy" << std::vector<double>{1, 3, 3} << std::vector<int>{} << std::vector<int>{1}
                                << std::vector<double>{1};
    }

    void handWorked()
    {
        QFETCH(QString, semantics);
        QFETCH(QString, chain);
        QFETCH(std::vector<double>, logits);
        QFETCH(std::vector<int>, history);
        QFETCH(std::vector<int>, ids);
        QFETCH(std::vector<double>, p);
        auto a = applied(chain.toStdString(), *engine::parseSemantics(semantics.toStdString()), arrayFromLogits(logits),
                         std::vector<std::int32_t>(history.begin(), history.end()));
        QCOMPARE(test::keptIds(a), ids);
        if (p.empty())
            return;
        a.dropMasked();
        a.softmax();
        const auto got = test::probabilities(a);
        QCOMPARE(got.size(), p.size());
        for (std::size_t i = 0; i < p.size(); ++i)
            QVERIFY2(std::fabs(got[i] - p[i]) < 1e-4, qPrintable(QStringLiteral("%1 vs %2").arg(got[i]).arg(p[i])));
    }

    void dryPenaltyValue()
    {
        // The "dry" row above: 9 loses exactly multiplier * base^(2 - 2) = 1, nothing else moves.
        auto a = applied("dry=1:base=2:allowed-length=2", Semantics::LlamaCpp,
                         arrayFromLogits(std::vector<double>(10, 0.0)), {7, 8, 9, 7, 8});
        for (const auto& t : a.data())
            QCOMPARE(t.logit, t.id == 9 ? -1.0 : 0.0);
        // "7 8 9 7 8 9 7 8": the repeat "7 8 9 7 8" is 5 long before 9 again: 2^(5-2) = 8.
        a = applied("dry=1:base=2:allowed-length=2", Semantics::LlamaCpp, arrayFromLogits(std::vector<double>(10, 0.0)),
                    {7, 8, 9, 7, 8, 9, 7, 8});
        QCOMPARE(a[9].logit, -8.0);
    }

    void mirostatV2StateAndReset()
    {
        // probs .5 .25 .125 .125, tau 1 so mu = 2: surprises 1, 2, 3, 3 bits; keep those <= 2.
        engine::MirostatV2Stage stage(Semantics::LlamaCpp);
        QVERIFY(!stage.setNumber("tau", 1.0));
        QCOMPARE(stage.mu(), 2.0);
        auto a = arrayFromProbs({0.5, 0.25, 0.125, 0.125});
        engine::SamplerContext context;
        stage.apply(a, context);
        QCOMPARE(test::ids(a), (std::vector<int>{0, 1}));
        QVERIFY(std::fabs(a[0].p - 2.0 / 3) < 1e-12);
        // Picking id 0 (p 2/3): surprise -log2(2/3) = .585; mu = 2 - .1 * (.585 - 1) = 2.0415.
        stage.accept(a, 0, context);
        QVERIFY(std::fabs(stage.mu() - (2 - 0.1 * (-std::log2(2.0 / 3) - 1))) < 1e-12);
        auto copy = stage.clone();
        stage.reset();
        QCOMPARE(stage.mu(), 2.0);
        QVERIFY(std::fabs(static_cast<engine::MirostatV2Stage&>(*copy).mu() - 2.0415) < 1e-4);
    }

    void mirostatV1KeepsAtLeastOne()
    {
        // A Zipf-like distribution p_i ~ 1/(i+1): s is estimated near 1; any mu keeps >= 1 token.
        std::vector<double> probs;
        for (int i = 0; i < 50; ++i)
            probs.push_back(1.0 / (i + 1));
        for (double tau : {0.1, 3.0, 5.0, 20.0}) {
            engine::MirostatV1Stage stage(Semantics::LlamaCpp);
            QVERIFY(!stage.setNumber("tau", tau));
            auto a = arrayFromProbs(probs);
            engine::SamplerContext context;
            context.vocabSize = probs.size();
            stage.apply(a, context);
            QVERIFY(a.size() >= 1 && a.size() <= probs.size());
            double sum = 0;
            for (const auto& t : a.data())
                sum += t.p;
            QVERIFY(std::fabs(sum - 1) < 1e-12);
        }
        // A larger target surprise keeps more tokens.
        std::size_t previous = 0;
        for (double tau : {0.5, 2.0, 4.0, 8.0}) {
            engine::MirostatV1Stage stage(Semantics::LlamaCpp);
            QVERIFY(!stage.setNumber("tau", tau));
            auto a = arrayFromProbs(probs);
            engine::SamplerContext context;
            context.vocabSize = probs.size();
            stage.apply(a, context);
            QVERIFY(a.size() >= previous);
            previous = a.size();
        }
        QVERIFY(previous > 1);
    }

    void dynamicTemperatureRange()
    {
        // Uniform logits: normalised entropy 1, T = (1 - .5) + (1.5 - .5) * 1 = 1.5.
        engine::DynamicTemperatureStage stage(Semantics::LlamaCpp);
        QVERIFY(!stage.setNumber("delta", 0.5));
        auto a = arrayFromLogits({0, 0, 0, 0});
        engine::SamplerContext context;
        stage.apply(a, context);
        QCOMPARE(stage.lastTemperature(), 1.5);
        // One token with almost all the mass: entropy ~ 0, T ~ T - delta = .5.
        a = arrayFromLogits({100, 0, 0, 0});
        stage.apply(a, context);
        QVERIFY(std::fabs(stage.lastTemperature() - 0.5) < 1e-9);
        // T - delta below 0 clamps to 0; a zero temperature is greedy, not a division by zero.
        QVERIFY(!stage.setNumber("t", 0.2));
        a = arrayFromLogits({100, 0, 0, 0});
        stage.apply(a, context);
        a.softmax();
        QCOMPARE(a[0].p, 1.0);
    }

    void xtcCoinUsesItsOwnEngineAndResets()
    {
        // Probability .5: whether it fires depends on the coin; after reset() the same coins repeat.
        auto stage = engine::makeStage("xtc", Semantics::LlamaCpp);
        QVERIFY(stage.ok());
        auto& xtc = *stage.value();
        QVERIFY(!xtc.setNumber("probability", 0.5));
        engine::SamplerContext context;
        std::vector<std::size_t> first, second;
        for (int i = 0; i < 20; ++i) {
            auto a = arrayFromProbs({0.5, 0.3, 0.15, 0.05});
            xtc.apply(a, context);
            first.push_back(a.size());
        }
        xtc.reset();
        for (int i = 0; i < 20; ++i) {
            auto a = arrayFromProbs({0.5, 0.3, 0.15, 0.05});
            xtc.apply(a, context);
            second.push_back(a.size());
        }
        QCOMPARE(first, second);
        QVERIFY(std::count(first.begin(), first.end(), 2u) > 0);  // fired sometimes
        QVERIFY(std::count(first.begin(), first.end(), 4u) > 0);  // skipped sometimes
    }

    // Degenerate inputs never give NaN, whatever the stage and preset.
    void degenerateInputs_data()
    {
        QTest::addColumn<std::vector<double>>("logits");
        QTest::newRow("V = 1") << std::vector<double>{0.5};
        QTest::newRow("all equal") << std::vector<double>{1, 1, 1, 1, 1};
        QTest::newRow("all but one -inf") << std::vector<double>{-kInf, 2, -kInf, -kInf};
        QTest::newRow("zero probabilities") << logOf({0.5, 0, 0.5, 0});
        QTest::newRow("ties at every cut") << std::vector<double>{2, 2, 1, 1, 0, 0};
        QTest::newRow("huge spread") << std::vector<double>{1000, -1000, 0, 1e-300};
    }

    void degenerateInputs()
    {
        QFETCH(std::vector<double>, logits);
        const std::vector<std::string> chains{"temperature=0.7",
                                              "temperature=0",
                                              "greedy",
                                              "top-k=2",
                                              "top-p=0.5",
                                              "top-p=0",
                                              "min-p=0.5",
                                              "typical=0.5",
                                              "epsilon=0.3",
                                              "eta=0.3",
                                              "top-n-sigma=1",
                                              "xtc=1:threshold=0.1",
                                              "mirostat-v1=3",
                                              "mirostat-v2=3",
                                              "dynamic-temperature=1:delta=1",
                                              "dynamic-temperature=0.1:delta=0.5",
                                              "penalties=-1:repeat=1.5:frequency=0.5:presence=0.5",
                                              "logit-bias=0@-inf",
                                              "no-repeat-ngram=2",
                                              "dry=1:allowed-length=1",
                                              "top-k=3,top-p=0.9,min-p=0.1,temperature=0.5"};
        for (Semantics s : engine::allSemantics())
            for (const auto& text : chains) {
                auto chain = engine::parseChain(text, s);
                if (!chain)
                    continue;  // not this preset's sampler, or a value it rejects
                engine::SamplerContext context;
                context.history = {0, 0, 0};
                const auto final = chain.value().run(logits.data(), logits.size(), context);
                QVERIFY2(!final.empty(), text.c_str());
                double sum = 0;
                for (const auto& t : final.data()) {
                    QVERIFY2(!std::isnan(t.p) && !std::isnan(t.logit),
                             (text + " / " + engine::semanticsName(s)).c_str());
                    sum += t.p;
                }
                QVERIFY2(std::fabs(sum - 1) < 1e-12, (text + " / " + engine::semanticsName(s)).c_str());
            }
    }
};

QTEST_APPLESS_MAIN(TestSamplerStages)
#include "tst_sampler_stages.moc"
