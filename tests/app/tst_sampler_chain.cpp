// The chain as data and as a whole: the compact string and JSON round trips, errors that name
// the stage and parameter, the lesson's fast path, the top-k fast path, property tests over
// random logits under every preset, and state across draws.
#include "app/text/chain_json.h"
#include "engine/rng/mulberry32.h"
#include "engine/sampler/candidates.h"
#include "engine/sampler/chain_evaluation.h"
#include "engine/sampler/chain_settings.h"
#include "engine/stages/stage_factory.h"
#include "support/chain_test_support.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <set>

using namespace logitlab;
using engine::Semantics;

namespace {

// Normal(0, 2.5) logits with some exact ties and a few -inf, seeded.
std::vector<double> randomLogits(std::mt19937& gen, std::size_t n)
{
    std::normal_distribution<double> normal(0.0, 2.5);
    std::vector<double> out(n);
    for (auto& l : out)
        l = normal(gen);
    if (n > 3) {
        out[1] = out[0];                                        // a tie
        out[n - 1] = -std::numeric_limits<double>::infinity();  // a banned token
    }
    return out;
}

std::set<int> survivorIds(const engine::CandidateList& list)
{
    std::set<int> ids;
    for (const auto& c : list)
        ids.insert(c.id);
    return ids;
}

engine::CandidateList survivors(const std::string& chainText, Semantics s, const std::vector<double>& logits)
{
    auto chain = test::chainOf(chainText, s);
    engine::SamplerContext context;
    const Eigen::Map<const Eigen::ArrayXd> map(logits.data(), static_cast<Eigen::Index>(logits.size()));
    return engine::evaluateChain(chain, map, context);
}

}  // namespace

class TestSamplerChain : public QObject {
    Q_OBJECT

private slots:
    void stringRoundTrip_data()
    {
        QTest::addColumn<QString>("semantics");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("canonical");
        QTest::newRow("llama default") << "llama.cpp"
                                       << "top-k=40,top-p=0.95,min-p=0.05,temperature=0.8"
                                       << "top-k=40,top-p=0.95,min-p=0.05,temperature=0.8";
        QTest::newRow("spaces and min-keep") << "llama.cpp"
                                             << " top-p = 0.9 : min-keep = 3 , xtc=0.5:threshold=0.2"
                                             << "top-p=0.9:min-keep=3,xtc=0.5:threshold=0.2";
        QTest::newRow("keyed first parameter") << "hf"
                                               << "top-k:k=50:min-keep=2,temperature:t=0.7"
                                               << "top-k=50:min-keep=2,temperature=0.7";
        QTest::newRow("lists") << "llama.cpp"
                               << "logit-bias=5@-1.5/7@2,dry=0.8:breakers=13/198,penalties=64:repeat=1.1"
                               << "logit-bias=5@-1.5/7@2,dry=0.8:breakers=13/198,penalties=64:repeat=1.1";
        QTest::newRow("greedy takes no value") << "vllm"
                                               << "greedy"
                                               << "greedy";
        QTest::newRow("every llama stage") << "llama.cpp"
                                           << "top-n-sigma=1,typical=0.9,mirostat-v1=5:eta=0.2,mirostat-v2=4,"
                                              "dynamic-temperature=0.8:delta=0.3:exponent=2"
                                           << "top-n-sigma=1,typical=0.9,mirostat-v1=5:eta=0.2,mirostat-v2=4,"
                                              "dynamic-temperature=0.8:delta=0.3:exponent=2";
        QTest::newRow("every hf stage") << "hf"
                                        << "no-repeat-ngram=3,epsilon=0.01,eta=0.002:min-keep=4"
                                        << "no-repeat-ngram=3,epsilon=0.01,eta=0.002:min-keep=4";
    }

    void stringRoundTrip()
    {
        QFETCH(QString, semantics);
        QFETCH(QString, text);
        QFETCH(QString, canonical);
        const Semantics s = *engine::parseSemantics(semantics.toStdString());
        const auto chain = test::chainOf(text.toStdString(), s);
        const std::string printed = engine::formatChain(chain);
        QCOMPARE(QString::fromStdString(printed), canonical);
        QCOMPARE(QString::fromStdString(engine::formatChain(test::chainOf(printed, s))), canonical);

        // JSON: every parameter out, the same chain back.
        const QJsonArray json = app::chainToJson(chain, false);
        QCOMPARE(json.size(), static_cast<qsizetype>(chain.stages().size()));
        auto back = app::chainFromJson(json, s);
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().c_str());
        QCOMPARE(QString::fromStdString(engine::formatChain(back.value())), canonical);
        QCOMPARE(app::chainToJson(back.value(), false), json);
    }

    void errorsNameStageAndParameter_data()
    {
        QTest::addColumn<QString>("semantics");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown stage") << "llama.cpp"
                                       << "top-k=40,nucleus=0.9"
                                       << "unknown stage 'nucleus'";
        QTest::newRow("unknown parameter") << "llama.cpp"
                                           << "top-p=0.9:keep=2"
                                           << "top-p: unknown parameter 'keep'";
        QTest::newRow("not a number") << "llama.cpp"
                                      << "top-k=many"
                                      << "top-k: k: 'many' is not a number";
        QTest::newRow("not whole") << "llama.cpp"
                                   << "top-k=2.5"
                                   << "top-k: k: must be a whole number";
        QTest::newRow("NaN") << "llama.cpp"
                             << "temperature=nan"
                             << "temperature: t:";
        QTest::newRow("hf rejects T 0") << "hf"
                                        << "temperature=0"
                                        << "temperature: t: hf requires a temperature > 0";
        QTest::newRow("hf rejects negative k") << "hf"
                                               << "top-k=-1"
                                               << "top-k: k: hf requires";
        QTest::newRow("hf rejects min-p 1.5") << "hf"
                                              << "min-p=1.5"
                                              << "min-p: p: hf requires min_p in [0, 1]";
        QTest::newRow("hf min-keep 0") << "hf"
                                       << "top-p=0.9:min-keep=0"
                                       << "top-p: min-keep: hf requires";
        QTest::newRow("vllm has no typical") << "vllm"
                                             << "typical=0.5"
                                             << "typical: vllm has no typical-p";
        QTest::newRow("llama has no epsilon") << "llama.cpp"
                                              << "epsilon=0.1"
                                              << "epsilon: llama.cpp has no epsilon";
        QTest::newRow("hf has no xtc") << "hf"
                                       << "xtc=0.5"
                                       << "xtc: hf has no XTC";
        QTest::newRow("lesson top-p 0") << "lesson"
                                        << "top-p=0"
                                        << "top-p: p: must be in (0, 1]";
        QTest::newRow("lesson has no min-keep") << "lesson"
                                                << "top-p=0.9:min-keep=2"
                                                << "top-p: unknown parameter 'min-keep'";
        QTest::newRow("bias list") << "llama.cpp"
                                   << "logit-bias=5:-1"
                                   << "logit-bias: bias: '5' is not id@value";
        QTest::newRow("bias item") << "llama.cpp"
                                   << "logit-bias=5@x"
                                   << "logit-bias: bias: 'x' is not a bias";
        QTest::newRow("repeat 0") << "llama.cpp"
                                  << "penalties=64:repeat=0"
                                  << "penalties: repeat: must be > 0";
        QTest::newRow("hf window") << "hf"
                                   << "penalties=64:repeat=1.2"
                                   << "penalties: last-n: hf penalises the whole history";
        QTest::newRow("vllm frequency range") << "vllm"
                                              << "penalties:frequency=3"
                                              << "penalties: frequency: vllm requires";
    }

    void errorsNameStageAndParameter()
    {
        QFETCH(QString, semantics);
        QFETCH(QString, text);
        QFETCH(QString, message);
        const auto chain = engine::parseChain(text.toStdString(), *engine::parseSemantics(semantics.toStdString()));
        QVERIFY(!chain.ok());
        QVERIFY2(QString::fromStdString(chain.error()).contains(message), chain.error().c_str());
    }

    // The lesson's chain goes through candidates() (bit-identical), and the general engine
    // path agrees with it to rounding.
    void lessonPresetMatchesCandidates()
    {
        std::mt19937 gen(7);
        std::uniform_int_distribution<int> size(1, 60);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        for (int round = 0; round < 300; ++round) {
            const auto logits = randomLogits(gen, static_cast<std::size_t>(size(gen)));
            engine::ChainSettings settings;
            engine::SamplerSettings lesson;
            if (round % 3 != 0) {
                settings.temperature = lesson.temperature = round % 7 == 0 ? 0.0 : 0.2 + 2 * unit(gen);
            }
            if (round % 2 == 0)
                lesson.topK = static_cast<int>(*(settings.topK = 1 + static_cast<int>(unit(gen) * 10)));
            if (round % 5 != 0)
                settings.topP = lesson.topP = 0.05 + 0.95 * unit(gen);
            auto chain = engine::buildChain(settings, Semantics::Lesson);
            QVERIFY(chain.ok());
            const Eigen::Map<const Eigen::ArrayXd> map(logits.data(), static_cast<Eigen::Index>(logits.size()));
            engine::SamplerContext context;
            const auto fast = engine::evaluateChain(chain.value(), map, context);
            QVERIFY(fast == engine::candidates(map, lesson));  // exact, every bit

            const auto final = chain.value().run(logits.data(), logits.size(), context);
            const auto general = engine::survivorsOf(final, map, context, Semantics::Lesson);
            QCOMPARE(general.size(), fast.size());
            for (std::size_t i = 0; i < fast.size(); ++i) {
                QCOMPARE(general[i].id, fast[i].id);
                QVERIFY(std::fabs(general[i].p - fast[i].p) < 1e-12);
                QVERIFY(std::fabs(general[i].pRaw - fast[i].pRaw) < 1e-12);
            }
        }
    }

    // An exact top-k first in the chain selects from the raw logits (skipping blocks of 16
    // floats or 8 doubles with no contender); the result must be the same as building the whole
    // array and applying the stages one by one: block tails, ties (integer logits tie in the
    // thousands), -inf and a best token in the last position included.
    void topKFastPathMatchesFullArray_data()
    {
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("k");
        QTest::addColumn<bool>("integers");
        QTest::addColumn<bool>("doubles");
        QTest::newRow("5000, k 40") << 5000 << 40 << false << false;
        QTest::newRow("5003, k 40, doubles") << 5003 << 40 << false << true;
        QTest::newRow("41, k 40 (no whole block after the heap)") << 41 << 40 << false << false;
        QTest::newRow("100, k 1") << 100 << 1 << false << false;
        QTest::newRow("20011, k 64, integer ties") << 20011 << 64 << true << false;
        QTest::newRow("20011, k 64, integer ties, doubles") << 20011 << 64 << true << true;
        QTest::newRow("131, k 7, doubles") << 131 << 7 << false << true;
    }
    void topKFastPathMatchesFullArray()
    {
        QFETCH(int, size);
        QFETCH(int, k);
        QFETCH(bool, integers);
        QFETCH(bool, doubles);
        std::mt19937 gen(11 + static_cast<unsigned>(size));
        std::normal_distribution<float> normal(0.0f, 2.5f);
        std::vector<float> logits(static_cast<std::size_t>(size));
        for (auto& l : logits)
            l = integers ? std::round(normal(gen)) : normal(gen);
        if (size > 20)
            logits[10] = logits[20] = 9.5f;  // a tie inside the top k
        logits[static_cast<std::size_t>(size / 2)] = -std::numeric_limits<float>::infinity();
        logits.back() = 12.0f;  // the best token in the tail after the last whole block
        auto chain = test::chainOf(
            QStringLiteral("top-k=%1,top-p=0.95,min-p=0.05,temperature=0.8").arg(k).toStdString(), Semantics::LlamaCpp);
        engine::SamplerContext context;
        const std::vector<double> wide(logits.begin(), logits.end());
        const auto fast =
            doubles ? chain.run(wide.data(), wide.size(), context) : chain.run(logits.data(), logits.size(), context);
        auto slow = engine::CandidateArray::fromLogits(logits.data(), logits.size());
        chain.apply(slow, context);
        slow.softmax();
        QCOMPARE(test::ids(fast), test::ids(slow));
        QCOMPARE(fast[0].id, size - 1);
        for (std::size_t i = 0; i < fast.size(); ++i)
            QCOMPARE(fast[i].p, slow[i].p);
    }

    void properties_data()
    {
        QTest::addColumn<QString>("semantics");
        for (Semantics s : engine::allSemantics())
            QTest::newRow(engine::semanticsName(s).c_str()) << QString::fromStdString(engine::semanticsName(s));
    }

    void properties()
    {
        QFETCH(QString, semantics);
        const Semantics s = *engine::parseSemantics(semantics.toStdString());
        std::mt19937 gen(1234);
        std::uniform_int_distribution<int> size(1, 80);
        const std::vector<double> ps{0.05, 0.2, 0.5, 0.8, 0.95, 0.999};
        for (int round = 0; round < 60; ++round) {
            const auto logits = randomLogits(gen, static_cast<std::size_t>(size(gen)));
            std::set<int> all;
            for (std::size_t i = 0; i < logits.size(); ++i)
                all.insert(static_cast<int>(i));

            // Lowering top-p never adds a survivor; p sum to 1; survivors are input tokens.
            std::set<int> previous = all;
            for (auto it = ps.rbegin(); it != ps.rend(); ++it) {
                const auto list = survivors("temperature=0.7,top-k=30,top-p=" + std::to_string(*it), s, logits);
                const auto ids = survivorIds(list);
                QVERIFY(!ids.empty());
                QCOMPARE(ids.size(), list.size());  // no duplicates
                QVERIFY(std::includes(all.begin(), all.end(), ids.begin(), ids.end()));
                QVERIFY(std::includes(previous.begin(), previous.end(), ids.begin(), ids.end()));
                double sum = 0;
                for (const auto& c : list) {
                    sum += c.p;
                    QVERIFY(c.p >= 0 && c.pRaw >= 0 && c.pRaw <= 1 + 1e-15);
                }
                QVERIFY(std::fabs(sum - 1) < 1e-12);
                previous = ids;
            }
            // Raising min-p never adds a survivor.
            previous = all;
            for (double m : {0.0, 0.01, 0.1, 0.3, 0.6, 0.9, 1.0}) {
                const auto ids = survivorIds(survivors("min-p=" + std::to_string(m), s, logits));
                QVERIFY(!ids.empty());
                QVERIFY(std::includes(previous.begin(), previous.end(), ids.begin(), ids.end()));
                previous = ids;
            }
        }
    }

    // Temperature -> 0 approaches greedy: the argmax's probability tends to 1 in every preset.
    void lowTemperatureApproachesGreedy()
    {
        const std::vector<double> logits{1.0, 2.5, 2.4, -1.0, 0.0};
        for (Semantics s : engine::allSemantics()) {
            double previous = 0;
            for (double t : {1.0, 0.3, 0.1, 0.03, 0.01, 0.001}) {
                const auto list = survivors("temperature=" + std::to_string(t), s, logits);
                QCOMPARE(list.front().id, 1);
                QVERIFY(list.front().p >= previous);
                previous = list.front().p;
            }
            // vLLM raises T = 0.001 to 0.01 (its floor): 2.5 vs 2.4 is then e^10 to 1, not greedy yet.
            QVERIFY(previous > (s == Semantics::Vllm ? 1 - 1e-4 : 1 - 1e-12));
        }
    }

    // Stateful stages update across draws; reset() and clone() give reproducible runs.
    void stateAcrossDraws()
    {
        const std::vector<double> logits{2.0, 1.9, 1.8, 0.5, 0.0};
        auto chain = test::chainOf("penalties=-1:repeat=1.5:presence=1,mirostat-v2=2", Semantics::LlamaCpp);
        QVERIFY(chain.stateful());
        QVERIFY(!test::chainOf("top-k=2,temperature=0.5", Semantics::LlamaCpp).stateful());
        std::size_t historyLength = 0;
        const auto run = [&logits, &historyLength](engine::SamplerChain& c) -> std::vector<int> {
            engine::Mulberry32 rng(42);
            c.setRng(rng);
            engine::SamplerContext context;
            std::vector<int> drawn;
            for (int i = 0; i < 30; ++i) {
                const auto final = c.run(logits.data(), logits.size(), context);
                drawn.push_back(c.drawAndAccept(final, rng, context));
            }
            historyLength = context.history.size();
            return drawn;
        };
        auto copy = chain;  // deep copy, fresh state
        const auto first = run(chain);
        QCOMPARE(historyLength, 30u);
        QCOMPARE(run(copy), first);
        chain.reset();
        QCOMPARE(run(chain), first);
        // The presence penalty pushes draws away from a single token.
        QVERIFY(std::set<int>(first.begin(), first.end()).size() > 1);
    }

    // Building from settings: a stage not asked for is absent; "off" values stay inactive.
    void presetBuildsOnlyWhatIsAsked()
    {
        engine::ChainSettings settings;
        settings.topP = 0.7;
        auto chain = engine::buildChain(settings, Semantics::LlamaCpp);
        QVERIFY(chain.ok());
        QCOMPARE(QString::fromStdString(engine::formatChain(chain.value(), true)), QStringLiteral("top-p=0.7"));
        settings.topK = 0;    // llama.cpp: off
        settings.topP = 1.0;  // llama.cpp: off
        chain = engine::buildChain(settings, Semantics::LlamaCpp);
        QVERIFY(chain.ok());
        QVERIFY(chain.value().activeStages().empty());
        chain = engine::buildChain(settings, Semantics::Hf);  // hf: top_k 0 off, top_p 1 off too
        QVERIFY(chain.ok());
        QVERIFY(chain.value().activeStages().empty());
        chain = engine::buildChain(settings, Semantics::Lesson);  // the lesson rejects k = 0
        QVERIFY(!chain.ok());
        QVERIFY(QString::fromStdString(chain.error()).startsWith(QStringLiteral("top-k: k:")));
    }
};

QTEST_APPLESS_MAIN(TestSamplerChain)
#include "tst_sampler_chain.moc"
