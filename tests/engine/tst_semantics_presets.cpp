// The four presets side by side: each library's order and validation, and the documented
// disagreements (D1..D8 of docs/semantics.md) as explicit tests on the same logits.
#include "engine/rng/mulberry32.h"
#include "engine/sampler/chain_evaluation.h"
#include "engine/sampler/chain_settings.h"
#include "engine/sampler/draw.h"
#include "support/chain_test_support.h"

#include <QTest>

#include <cmath>

using namespace logitlab;
using engine::Semantics;

namespace {

engine::CandidateList run(const engine::ChainSettings& settings, Semantics s, const std::vector<double>& logits,
                          const std::vector<std::int32_t>& history = {})
{
    auto chain = engine::buildChain(settings, s);
    if (!chain)
        qFatal("%s: %s", engine::semanticsName(s).c_str(), chain.error().c_str());
    engine::SamplerContext context;
    context.history = history;
    const Eigen::Map<const Eigen::ArrayXd> map(logits.data(), static_cast<Eigen::Index>(logits.size()));
    return engine::evaluateChain(chain.value(), map, context);
}

std::vector<int> idsOf(const engine::CandidateList& list) { return test::sortedIds(list); }

Semantics semanticsOf(const QString& name) { return *engine::parseSemantics(name.toStdString()); }

}  // namespace

class TestSemanticsPresets : public QObject {
    Q_OBJECT

private slots:
    // D1: logits [3, 2, 1], top-p 0.8, T 0.5. llama.cpp cuts at T = 1 (p .665 .245 .090: the total
    // reaches .8 at the second token) and tempers afterwards: e^2 / (e^2 + 1) = .881, .119. The
    // others temper first (p .867 .117 .016): the first token alone passes .8.
    void d1TemperaturePlacement_data()
    {
        QTest::addColumn<QString>("semantics");
        QTest::addColumn<std::vector<int>>("ids");
        QTest::addColumn<std::vector<double>>("p");
        QTest::newRow("llama.cpp") << "llama.cpp" << std::vector<int>{0, 1}
                                   << std::vector<double>{std::exp(2.0) / (std::exp(2.0) + 1), 1 / (std::exp(2.0) + 1)};
        QTest::newRow("hf") << "hf" << std::vector<int>{0} << std::vector<double>{1};
        QTest::newRow("vllm") << "vllm" << std::vector<int>{0} << std::vector<double>{1};
        QTest::newRow("lesson") << "lesson" << std::vector<int>{0} << std::vector<double>{1};
    }

    void d1TemperaturePlacement()
    {
        QFETCH(QString, semantics);
        QFETCH(std::vector<int>, ids);
        QFETCH(std::vector<double>, p);
        engine::ChainSettings settings;
        settings.topP = 0.8;
        settings.temperature = 0.5;
        const auto list = run(settings, semanticsOf(semantics), {3, 2, 1});
        QCOMPARE(idsOf(list), ids);
        for (std::size_t i = 0; i < p.size(); ++i)
            QVERIFY(std::fabs(list[i].p - p[i]) < 1e-12);
        if (semantics == QLatin1String("llama.cpp")) {
            QVERIFY(std::fabs(list[0].p - 0.881) < 5e-4);
            QVERIFY(std::fabs(list[1].p - 0.119) < 5e-4);
        }
    }

    // D2: temperature 0. llama.cpp: argmax over what the earlier samplers left (XTC removed the
    // top token here: p .665 and .245 are >= .1, so all but the last of them go); vllm and the
    // lesson: the global argmax; hf: an error.
    void d2TemperatureZero()
    {
        const auto llama = test::chainOf("xtc=1:threshold=0.1,temperature=0", Semantics::LlamaCpp);
        auto chain = llama;
        engine::SamplerContext context;
        const std::vector<double> logits{3, 2, 1};
        const auto final = chain.run(logits.data(), logits.size(), context);
        const auto survivors = engine::survivorsOf(final, Eigen::Map<const Eigen::ArrayXd>(logits.data(), 3), context,
                                                   Semantics::LlamaCpp);
        QCOMPARE(survivors.size(), 1u);
        QCOMPARE(survivors[0].id, 1);

        engine::ChainSettings settings;
        settings.temperature = 0;
        QCOMPARE(idsOf(run(settings, Semantics::Vllm, logits)), (std::vector<int>{0}));
        QCOMPARE(idsOf(run(settings, Semantics::Lesson, logits)), (std::vector<int>{0}));
        QCOMPARE(idsOf(run(settings, Semantics::LlamaCpp, logits)), (std::vector<int>{0}));
        const auto hf = engine::buildChain(settings, Semantics::Hf);
        QVERIFY(!hf.ok());
        QVERIFY(QString::fromStdString(hf.error()).startsWith(QStringLiteral("temperature: t:")));
    }

    // vLLM's SamplingParams raises a temperature in (0, 0.01) to 0.01 before the sampler sees it;
    // only T = 0 is greedy. Logits 1, 1.000001, 0.9999995 at T = 0.01 differ by 1e-4 at most:
    // three tokens of p ~ 1/3. At T = 0 the argmax (id 1) alone.
    void vllmTemperatureFloor_data()
    {
        QTest::addColumn<double>("temperature");
        QTest::addColumn<std::vector<int>>("ids");
        QTest::addColumn<double>("dividedBy");  // the temperature vLLM divides by; 0 = greedy
        QTest::newRow("T = 1e-6 is raised to 0.01") << 1e-6 << std::vector<int>{0, 1, 2} << 0.01;
        QTest::newRow("T = 0.005 is raised to 0.01") << 0.005 << std::vector<int>{0, 1, 2} << 0.01;
        QTest::newRow("T = 0.01 is itself") << 0.01 << std::vector<int>{0, 1, 2} << 0.01;
        QTest::newRow("T = 0 is greedy") << 0.0 << std::vector<int>{1} << 0.0;
    }

    void vllmTemperatureFloor()
    {
        QFETCH(double, temperature);
        QFETCH(std::vector<int>, ids);
        QFETCH(double, dividedBy);
        engine::ChainSettings settings;
        settings.temperature = temperature;
        const std::vector<double> logits{1, 1.000001, 0.9999995};
        const auto final = run(settings, Semantics::Vllm, logits);
        QCOMPARE(idsOf(final), ids);
        if (dividedBy > 0.0) {
            // p_i = exp(l_i / 0.01) / sum: the same numbers as a plain T = 0.01 run.
            double sum = 0.0;
            for (double l : logits)
                sum += std::exp((l - 1.000001) / dividedBy);
            for (const auto& t : final)
                QVERIFY(std::fabs(t.p - std::exp((logits[static_cast<std::size_t>(t.id)] - 1.000001) / dividedBy) /
                                            sum) < 1e-12);
        }
        // llama.cpp has no floor: it divides by 1e-6, and the top token takes p ~ 1 - e^-1.
        if (temperature == 1e-6) {
            const auto llama = run(settings, Semantics::LlamaCpp, logits);
            QCOMPARE(llama.front().id, 1);
            QVERIFY(llama.front().p > 0.6);
        }
    }

    // D3: logits [3, 1, 2, 2], top-k 2: the 2nd largest value (2) is tied.
    void d3TopKTies_data()
    {
        QTest::addColumn<QString>("semantics");
        QTest::addColumn<std::vector<int>>("ids");
        QTest::newRow("lesson: exactly k, lower id") << "lesson" << std::vector<int>{0, 2};
        QTest::newRow("llama.cpp: exactly k, lower id") << "llama.cpp" << std::vector<int>{0, 2};
        QTest::newRow("hf: every tie") << "hf" << std::vector<int>{0, 2, 3};
        QTest::newRow("vllm: every tie") << "vllm" << std::vector<int>{0, 2, 3};
    }

    void d3TopKTies()
    {
        QFETCH(QString, semantics);
        QFETCH(std::vector<int>, ids);
        engine::ChainSettings settings;
        settings.topK = 2;
        QCOMPARE(idsOf(run(settings, semanticsOf(semantics), {3, 1, 2, 2})), ids);
    }

    // D4: probs .6 .3 .1, typical mass .3. Typicality order puts .3 first and its total is
    // exactly .3: llama.cpp needs a total > .3, so it keeps .6 as well; hf stops at >= .3 and
    // removes every token scoring above .3's score.
    void d4TypicalBoundary()
    {
        engine::ChainSettings settings;
        settings.typical = 0.3;
        const std::vector<double> logits{std::log(0.6), std::log(0.3), std::log(0.1)};
        QCOMPARE(idsOf(run(settings, Semantics::LlamaCpp, logits)), (std::vector<int>{0, 1}));
        QCOMPARE(idsOf(run(settings, Semantics::Hf, logits)), (std::vector<int>{1}));
        QVERIFY(!engine::buildChain(settings, Semantics::Vllm).ok());  // D5: vllm has no typical-p
    }

    // D6: HF's row [.3, .1, .1, .5] with top-p .8 sits exactly on the boundary (.5 + .3 = .8).
    void d6TopPBoundaryRow()
    {
        const std::vector<double> logits{std::log(0.3), std::log(0.1), std::log(0.1), std::log(0.5)};
        engine::ChainSettings settings;
        settings.topP = 0.8;
        QCOMPARE(idsOf(run(settings, Semantics::Hf, logits)), (std::vector<int>{0, 3}));
        QCOMPARE(idsOf(run(settings, Semantics::LlamaCpp, logits)), (std::vector<int>{0, 3}));
        QCOMPARE(idsOf(run(settings, Semantics::Vllm, logits)), (std::vector<int>{0, 3}));
        // The lesson needs the total to exceed .8, so it takes the next token (the lower id of the tie).
        QCOMPARE(idsOf(run(settings, Semantics::Lesson, logits)), (std::vector<int>{0, 1, 3}));

        // Why the tolerance matters: HF's own formula taken literally in double keeps a third token,
        // because 1 - .8 is 0.19999999999999996 and the ascending total .1 + .1 = .2 exceeds it.
        QCOMPARE(1.0 - 0.8, 0.19999999999999996);
        engine::CandidateArray a = test::arrayFromLogits(logits);
        a.softmax();
        std::vector<double> ascending;
        for (const auto& t : a.data())
            ascending.push_back(t.p);
        std::sort(ascending.begin(), ascending.end());
        double cumulative = 0;
        int removed = 0;
        for (double p : ascending)
            if ((cumulative += p) <= 1.0 - 0.8)
                ++removed;
        QCOMPARE(4 - removed, 3);
    }

    // D7: the same history, three windows. History 0 0 0 1, all logits 1, repeat penalty 2.
    void d7PenaltyScope()
    {
        const std::vector<double> logits{1, 1, 1, 1};
        const std::vector<std::int32_t> history{0, 0, 0, 1};
        engine::ChainSettings settings;
        settings.repeatPenalty = 2;
        settings.penaltyLastN = 1;  // llama.cpp: only the last token (1) counts
        QCOMPARE(idsOf(run(settings, Semantics::LlamaCpp, logits, history)), (std::vector<int>{0, 1, 2, 3}));
        const auto llama = run(settings, Semantics::LlamaCpp, logits, history);
        QCOMPARE(llama.back().id, 1);  // 1 / 2 = .5: the least likely
        QVERIFY(std::fabs(llama.front().p - std::exp(1.0) / (3 * std::exp(1.0) + std::exp(0.5))) < 1e-12);
        QVERIFY(!engine::buildChain(settings, Semantics::Hf).ok());  // hf has no window
        settings.penaltyLastN.reset();
        const auto hf = run(settings, Semantics::Hf, logits, history);  // whole history: 0 and 1
        const auto p = [](const engine::CandidateList& l, int id) {
            return std::find_if(l.begin(), l.end(), [id](const auto& c) { return c.id == id; })->p;
        };
        QCOMPARE(p(hf, 0), p(hf, 1));
        QVERIFY(p(hf, 0) < p(hf, 2));
        settings.frequencyPenalty = 0.5;  // hf has none; vllm counts it over the whole history
        QVERIFY(!engine::buildChain(settings, Semantics::Hf).ok());
        const auto vllm = run(settings, Semantics::Vllm, logits, history);
        QVERIFY(p(vllm, 0) < p(vllm, 1));  // three occurrences cost more than one
    }

    // D8: what each preset treats as off, and what it rejects.
    void d8Validation_data()
    {
        QTest::addColumn<QString>("semantics");
        QTest::addColumn<QString>("chain");
        QTest::addColumn<QString>("expected");  // "off", "on" or the start of the error
        const auto row = [](const char* s, const char* c, const char* e) {
            QTest::addRow("%s %s", s, c) << QString::fromLatin1(s) << QString::fromLatin1(c) << QString::fromLatin1(e);
        };
        row("llama.cpp", "top-k=0", "off");
        row("llama.cpp", "top-k=-5", "off");
        row("hf", "top-k=0", "off");
        row("hf", "top-k=-5", "top-k: k:");
        row("vllm", "top-k=-1", "off");
        row("vllm", "top-k=-2", "top-k: k:");
        row("lesson", "top-k=0", "top-k: k:");
        row("llama.cpp", "top-p=1", "off");
        row("llama.cpp", "top-p=1.5", "off");
        row("hf", "top-p=1", "off");
        row("hf", "top-p=1.5", "top-p: p:");
        row("vllm", "top-p=0", "top-p: p:");
        row("lesson", "top-p=1", "on");
        row("llama.cpp", "min-p=0", "off");
        row("llama.cpp", "min-p=1.5", "on");
        row("hf", "min-p=1.5", "min-p: p:");
        row("vllm", "min-p=-0.1", "min-p: p:");
        row("llama.cpp", "typical=1", "off");
        row("llama.cpp", "typical=0", "on");
        row("hf", "typical=1", "off");
        row("hf", "typical=0", "typical: p:");
        row("llama.cpp", "temperature=0", "on");
        row("llama.cpp", "temperature=-1", "on");
        row("hf", "temperature=0", "temperature: t:");
        row("vllm", "temperature=-1", "temperature: t:");
        row("vllm", "temperature=0", "on");
        row("hf", "epsilon=0", "off");
        row("hf", "epsilon=1", "epsilon: epsilon:");
        row("hf", "eta=-0.1", "eta: epsilon:");
        row("llama.cpp", "top-n-sigma=0", "off");
        row("hf", "top-n-sigma=1", "top-n-sigma: hf has no");
        row("llama.cpp", "xtc=0", "off");
        row("llama.cpp", "xtc=0.5:threshold=0.6", "off");
        row("llama.cpp", "penalties=64:repeat=1", "off");
        row("llama.cpp", "penalties=0:repeat=1.3", "off");
        row("llama.cpp", "dry=0", "off");
        row("llama.cpp", "dry=0.8:base=0.9", "off");
        row("hf", "no-repeat-ngram=0", "off");
        row("hf", "no-repeat-ngram=-1", "no-repeat-ngram: n:");
        row("vllm", "no-repeat-ngram=2", "no-repeat-ngram: vllm has no");
    }

    void d8Validation()
    {
        QFETCH(QString, semantics);
        QFETCH(QString, chain);
        QFETCH(QString, expected);
        const auto parsed = engine::parseChain(chain.toStdString(), semanticsOf(semantics));
        if (expected == QLatin1String("off") || expected == QLatin1String("on")) {
            QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().c_str());
            QCOMPARE(parsed.value().activeStages().size(), expected == QLatin1String("on") ? 1u : 0u);
        } else {
            QVERIFY(!parsed.ok());
            QVERIFY2(QString::fromStdString(parsed.error()).startsWith(expected), parsed.error().c_str());
        }
    }

    // Each preset's order for the shared samplers, and llama.cpp's mirostat chain.
    void presetOrder_data()
    {
        QTest::addColumn<QString>("semantics");
        QTest::addColumn<bool>("mirostat");
        QTest::addColumn<QString>("chain");
        QTest::newRow("lesson") << "lesson" << false << "temperature=0.7,top-k=40,top-p=0.9,min-p=0.05";
        QTest::newRow("llama.cpp") << "llama.cpp" << false << "top-k=40,top-p=0.9,min-p=0.05,temperature=0.7";
        QTest::newRow("hf") << "hf" << false << "temperature=0.7,top-k=40,top-p=0.9,min-p=0.05";
        QTest::newRow("vllm") << "vllm" << false << "temperature=0.7,min-p=0.05,top-k=40,top-p=0.9";
        QTest::newRow("llama.cpp mirostat") << "llama.cpp" << true << "temperature=0.7,mirostat-v2=5";
    }

    void presetOrder()
    {
        QFETCH(QString, semantics);
        QFETCH(bool, mirostat);
        QFETCH(QString, chain);
        engine::ChainSettings settings;
        settings.temperature = 0.7;
        settings.topK = 40;
        settings.topP = 0.9;
        settings.minP = 0.05;
        if (mirostat)
            settings.mirostat = 2;
        const auto built = engine::buildChain(settings, semanticsOf(semantics));
        QVERIFY2(built.ok(), built.ok() ? "" : built.error().c_str());
        QCOMPARE(QString::fromStdString(engine::formatChain(built.value(), true)), chain);
    }

    void libraryDefaults_data()
    {
        QTest::addColumn<QString>("semantics");
        QTest::addColumn<QString>("chain");
        QTest::newRow("llama.cpp") << "llama.cpp"
                                   << "top-k=40,top-p=0.95,min-p=0.05,temperature=0.8";
        QTest::newRow("hf") << "hf"
                            << "top-k=50";  // temperature 1 is off
        QTest::newRow("vllm") << "vllm"
                              << "";
        QTest::newRow("lesson") << "lesson"
                                << "";
    }

    void libraryDefaults()
    {
        QFETCH(QString, semantics);
        QFETCH(QString, chain);
        const Semantics s = semanticsOf(semantics);
        const auto built = engine::buildChain(engine::withLibraryDefaults({}, s), s);
        QVERIFY(built.ok());
        QCOMPARE(QString::fromStdString(engine::formatChain(built.value(), true)), chain);
        // A value the user gives wins over the default.
        engine::ChainSettings mine;
        mine.topK = 7;
        const auto withMine = engine::buildChain(engine::withLibraryDefaults(mine, s), s);
        QVERIFY(withMine.ok());
        QVERIFY(
            QString::fromStdString(engine::formatChain(withMine.value(), true)).contains(QStringLiteral("top-k=7")));
    }

    // The draw rules: llama.cpp selects a lone candidate without drawing; the others follow their
    // distribution (checked by frequency for vLLM's exponential race, which draws once per token).
    void drawRules()
    {
        engine::CandidateArray one = test::arrayFromProbs({1.0});
        one.softmax();
        engine::Mulberry32 rng(5);
        engine::Mulberry32 fresh(5);
        QCOMPARE(engine::drawIndex(one, Semantics::LlamaCpp, rng), 0u);
        QCOMPARE(rng.nextDouble(), fresh.nextDouble());  // no draw was used

        engine::CandidateArray three = test::arrayFromProbs({0.5, 0.3, 0.2});
        three.softmax();
        for (Semantics s : engine::allSemantics()) {
            engine::Mulberry32 r(99);
            std::vector<int> counts(3);
            const int n = 20000;
            for (int i = 0; i < n; ++i)
                ++counts[engine::drawIndex(three, s, r)];
            QVERIFY2(std::fabs(counts[0] / double(n) - 0.5) < 0.02, engine::semanticsName(s).c_str());
            QVERIFY2(std::fabs(counts[2] / double(n) - 0.2) < 0.02, engine::semanticsName(s).c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestSemanticsPresets)
#include "tst_semantics_presets.moc"
