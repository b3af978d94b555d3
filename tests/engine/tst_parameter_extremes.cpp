// Every parameter of every stage under every preset at its extremes (0, the smallest denormal,
// 1e-320, 1e308, DBL_MAX, their negatives, +-inf, NaN), on ordinary, huge and tied logits: the
// engine either refuses the value with a message naming the stage, or gives finite probabilities
// that sum to 1 and draws among the survivors. Never NaN, never an empty list, never a crash.
// Then the overflows the attack found, one row each (issue 11, item 6).
#include "engine/core/number_format.h"
#include "engine/rng/mulberry32.h"
#include "engine/sampler/candidates.h"
#include "engine/sampler/candidates_from_order.h"
#include "engine/sampler/chain_evaluation.h"
#include "engine/sampler/chain_text.h"
#include "engine/sampler/draw.h"
#include "engine/sampler/sample.h"
#include "engine/sampler/sampler_analysis.h"
#include "engine/sampler/softmax.h"
#include "engine/stages/stage_factory.h"
#include "support/chain_test_support.h"
#include "support/test_support.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

using namespace logitlab;
using namespace logitlab::engine;

Q_DECLARE_METATYPE(logitlab::engine::Semantics)

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kMax = std::numeric_limits<double>::max();

// Values that make each stage do something, so that one extreme parameter is not hidden by
// another parameter's "off" default.
const std::map<std::string, std::vector<std::pair<std::string, std::string>>>& activeBaseline()
{
    static const std::map<std::string, std::vector<std::pair<std::string, std::string>>> all{
        {"logit-bias", {{"bias", "0@1.5"}}},
        {"penalties", {{"repeat", "1.3"}}},
        {"no-repeat-ngram", {{"n", "2"}}},
        {"dry", {{"multiplier", "0.8"}}},
        {"temperature", {{"t", "0.7"}}},
        {"dynamic-temperature", {{"t", "0.8"}, {"delta", "0.5"}}},
        {"top-k", {{"k", "2"}}},
        {"top-p", {{"p", "0.9"}}},
        {"min-p", {{"p", "0.1"}}},
        {"typical", {{"p", "0.9"}}},
        {"epsilon", {{"epsilon", "0.1"}}},
        {"eta", {{"epsilon", "0.1"}}},
        {"top-n-sigma", {{"n", "1"}}},
        {"xtc", {{"probability", "1"}}},
    };
    return all;
}

const std::vector<double>& extremes()
{
    static const std::vector<double> values{0.0,
                                            -0.0,
                                            std::numeric_limits<double>::denorm_min(),
                                            1e-320,
                                            1e-310,
                                            1e-300,
                                            1e-5,
                                            0.5,
                                            1.0,
                                            2.0,
                                            1e6,
                                            1e300,
                                            1e308,
                                            kMax,
                                            -1e-320,
                                            -1.0,
                                            -2.0,
                                            -1e308,
                                            -kMax,
                                            kInf,
                                            -kInf,
                                            std::numeric_limits<double>::quiet_NaN()};
    return values;
}

// Logits that stress the arithmetic: ordinary, near the double range, tied maxima, a ban.
const std::vector<std::pair<const char*, std::vector<double>>>& logitSets()
{
    static const std::vector<std::pair<const char*, std::vector<double>>> sets{
        {"ordinary", {3.0, 1.0, 2.0, -1.0, 0.5}},
        {"huge", {1e308, 1.0, -1e308, 1e307, 0.0}},
        {"tied", {5.0, 5.0, -kInf, 1.0, 5.0}},
        {"tiny", {1e-320, -1e-320, 0.0, 1e-310, -1e-310}},
    };
    return sets;
}

// A finished array is sound: non-empty, finite p in [0, 1] summing to 1 over the survivors.
void checkFinal(const CandidateArray& final)
{
    QVERIFY(!final.empty());
    double sum = 0.0;
    for (const TokenData& t : final.data()) {
        QVERIFY2(std::isfinite(t.p) && t.p >= 0.0 && t.p <= 1.0, qPrintable(QStringLiteral("p = %1").arg(t.p)));
        QVERIFY(!std::isnan(t.logit));
        sum += t.p;
    }
    QVERIFY2(std::fabs(sum - 1.0) < 1e-9, qPrintable(QStringLiteral("sum = %1").arg(sum, 0, 'g', 17)));
}

void checkSurvivors(const CandidateList& list)
{
    QVERIFY(!list.empty());
    double sum = 0.0;
    for (const Candidate& c : list) {
        QVERIFY2(std::isfinite(c.p) && c.p >= 0.0 && c.p <= 1.0, qPrintable(QStringLiteral("p = %1").arg(c.p)));
        QVERIFY2(std::isfinite(c.pRaw) && c.pRaw >= 0.0 && c.pRaw <= 1.0 + 1e-12,
                 qPrintable(QStringLiteral("p_raw = %1").arg(c.pRaw)));
        sum += c.p;
    }
    QVERIFY(std::fabs(sum - 1.0) < 1e-9);
}

}  // namespace

class TestParameterExtremes : public QObject {
    Q_OBJECT

private slots:
    void everyParameterOfEveryStage_data()
    {
        QTest::addColumn<Semantics>("semantics");
        QTest::addColumn<QString>("stage");
        QTest::addColumn<QString>("parameter");
        QTest::addColumn<QString>("value");
        int rows = 0;
        for (Semantics s : allSemantics())
            for (const std::string& name : stageNames()) {
                auto stage = makeStage(name, s);
                QVERIFY(stage);
                for (const Parameter& p : stage.value()->parameters()) {
                    std::vector<std::string> values;
                    if (p.spec.kind == ParameterKind::BiasList)
                        values = {"0@1e308/0@1e308",
                                  "0@1e308",
                                  "0@-1e308",
                                  "1@-inf",
                                  "0@-inf/1@-inf/2@-inf/3@-inf/4@-inf",
                                  "0@1e-320",
                                  "4@1.7976931348623157e308/4@-1.7976931348623157e308",
                                  "0@inf",
                                  "0@nan"};
                    else if (p.spec.kind == ParameterKind::TokenList)
                        values = {"0", "0/1/2/3/4", "4", "-1", "1e20"};
                    else
                        for (double v : extremes())
                            values.push_back(formatDouble(v));
                    for (const std::string& v : values) {
                        const QString tag =
                            QStringLiteral("%1 %2 %3=%4")
                                .arg(QString::fromStdString(semanticsName(s)), QString::fromStdString(name),
                                     QString::fromStdString(p.spec.name), QString::fromStdString(v));
                        QTest::newRow(qPrintable(tag))
                            << s << QString::fromStdString(name) << QString::fromStdString(p.spec.name)
                            << QString::fromStdString(v);
                        ++rows;
                    }
                }
            }
        QVERIFY(rows > 1000);  // every stage's every parameter under four presets
    }

    void everyParameterOfEveryStage()
    {
        QFETCH(Semantics, semantics);
        QFETCH(QString, stage);
        QFETCH(QString, parameter);
        QFETCH(QString, value);
        auto made = makeStage(stage.toStdString(), semantics);
        QVERIFY(made);
        std::unique_ptr<SamplerStage> s = std::move(made).value();
        if (const auto found = activeBaseline().find(stage.toStdString()); found != activeBaseline().end())
            for (const auto& [name, text] : found->second)
                QVERIFY(!s->setParameter(name, text));

        // Either a clear refusal naming the stage...
        if (auto problem = s->setParameter(parameter.toStdString(), value.toStdString())) {
            QVERIFY2(problem->rfind(stage.toStdString() + ":", 0) == 0, problem->c_str());
            return;
        }
        if (auto problem = s->validate()) {
            QVERIFY2(problem->rfind(stage.toStdString() + ":", 0) == 0, problem->c_str());
            return;
        }
        // ...or sound probabilities and draws among the survivors, on every kind of logits.
        SamplerChain chain(semantics);
        chain.add(std::move(s));
        for (const auto& [label, logits] : logitSets()) {
            const Eigen::ArrayXd values = Eigen::Map<const Eigen::ArrayXd>(logits.data(), Eigen::Index(logits.size()));
            SamplerChain run = chain;
            run.setRng(Mulberry32(7));
            SamplerContext context;
            context.history = {0, 1, 0, 1, 0, 1, 4, 0, 1};
            context.vocabSize = logits.size();
            const CandidateArray final = run.run(logits.data(), logits.size(), context);
            checkFinal(final);
            if (QTest::currentTestFailed())
                qWarning("on the %s logits", label);
            checkSurvivors(survivorsOf(final, values, context, semantics));
            for (std::uint32_t seed = 1; seed <= 16; ++seed) {
                Mulberry32 rng(seed);
                SamplerContext drawContext = context;
                const std::int32_t id = run.drawAndAccept(final, rng, drawContext);
                const auto found = std::find_if(final.data().begin(), final.data().end(),
                                                [id](const TokenData& t) { return t.id == id; });
                QVERIFY(found != final.data().end());
                QVERIFY2(found->p > 0.0, label);
            }
            // A stateful stage runs again after the draw (mirostat's mu, the history): still sound.
            SamplerContext again = context;
            again.history.push_back(final[0].id);
            checkFinal(run.run(logits.data(), logits.size(), again));
        }
    }

    // The lesson's own path (candidates(), analyse(), sample()) at every temperature extreme.
    void lessonTemperatureExtremes_data()
    {
        QTest::addColumn<double>("temperature");
        for (double t : extremes())
            if (t >= 0.0 && std::isfinite(t))
                QTest::newRow(formatDouble(t).c_str()) << t;
    }

    void lessonTemperatureExtremes()
    {
        QFETCH(double, temperature);
        for (const auto& [label, logits] : logitSets()) {
            const Eigen::ArrayXd values = Eigen::Map<const Eigen::ArrayXd>(logits.data(), Eigen::Index(logits.size()));
            for (const std::optional<double>& topP : {std::optional<double>{}, std::optional<double>{0.9}}) {
                SamplerSettings settings{temperature, std::nullopt, topP};
                const CandidateList list = candidates(values, settings);
                checkSurvivors(list);
                const SamplerAnalysis a = analyse(values, settings, idsByDescendingLogit(values));
                checkSurvivors(a.survivors);
                QVERIFY2(std::isfinite(a.entropyNats) && a.entropyNats >= 0.0, label);
                QVERIFY(std::isfinite(a.perplexity));
                for (double p : a.probabilities)
                    QVERIFY(std::isfinite(p) && p >= 0.0 && p <= 1.0);
            }
        }
    }

    // Issue 11, item 6, as reported: each printed NaN or drew the wrong token.
    void temperatureThatOverflowsIsGreedy_data()
    {
        QTest::addColumn<QString>("chain");
        QTest::addColumn<Semantics>("semantics");
        for (Semantics s : allSemantics())
            QTest::newRow(semanticsName(s).c_str()) << QStringLiteral("temperature=1e-320") << s;
        QTest::newRow("lesson dynamic") << QStringLiteral("dynamic-temperature=1e-320:delta=1e-321")
                                        << Semantics::Lesson;
        QTest::newRow("llama.cpp dynamic")
            << QStringLiteral("dynamic-temperature=1e-320:delta=1e-321") << Semantics::LlamaCpp;
        QTest::newRow("two temperatures") << QStringLiteral("temperature=1e-200,temperature=1e-200") << Semantics::Hf;
    }

    void temperatureThatOverflowsIsGreedy()
    {
        QFETCH(QString, chain);
        QFETCH(Semantics, semantics);
        const Eigen::ArrayXd logits = (Eigen::ArrayXd(3) << 3.0, 1.0, 2.0).finished();
        auto parsed = parseChain(chain.toStdString(), semantics);
        QVERIFY2(parsed, parsed ? "" : parsed.error().c_str());
        SamplerContext context;
        const CandidateList list = evaluateChain(parsed.value(), logits, context);
        checkSurvivors(list);
        QCOMPARE(list.front().id, 0);  // the argmax, as T -> 0
        QCOMPARE(list.front().p, 1.0);
    }

    void lessonCandidatesAtTinyTemperature()
    {
        // `candidates --logits 1,2,3 --temperature 1e-320` printed "p": null.
        const Eigen::ArrayXd logits = (Eigen::ArrayXd(3) << 1.0, 2.0, 3.0).finished();
        const CandidateList list = candidates(logits, SamplerSettings{1e-320, std::nullopt, std::nullopt});
        QCOMPARE(list.size(), std::size_t{1});
        QCOMPARE(list.front().id, 2);
        QCOMPARE(list.front().p, 1.0);
        QVERIFY(actsAsGreedy(logits, 1e-320));
        QVERIFY(!actsAsGreedy(logits, 1e-300));
        // `sample --logits 3,1,2 --temperature 1e-320` drew token 2 every time: the argmax is 0.
        const Eigen::ArrayXd other = (Eigen::ArrayXd(3) << 3.0, 1.0, 2.0).finished();
        const CandidateList one = candidates(other, SamplerSettings{1e-320, std::nullopt, std::nullopt});
        Mulberry32 rng(42);
        for (int i = 0; i < 100; ++i)
            QCOMPARE(sample(one, rng), 0);
        // Softmax itself is the limit, never NaN.
        const Eigen::ArrayXd p = softmax(other, 1e-320);
        QCOMPARE(p[0], 1.0);
        QCOMPARE(p[1], 0.0);
        QCOMPARE(p[2], 0.0);
    }

    void logitChangesThatOverflowStayFinite_data()
    {
        QTest::addColumn<QString>("chain");
        QTest::addColumn<std::vector<double>>("logits");
        QTest::addColumn<std::vector<int>>("history");
        QTest::addColumn<int>("top");
        // `--logits 1e308,1 --logit-bias 0:1e308`: 2e308 is +inf, whose softmax was NaN.
        QTest::newRow("bias") << QStringLiteral("logit-bias=0@1e308") << std::vector<double>{1e308, 1.0}
                              << std::vector<int>{} << 0;
        QTest::newRow("bias twice") << QStringLiteral("logit-bias=1@1e308/1@1e308") << std::vector<double>{1e308, 1.0}
                                    << std::vector<int>{} << 1;
        // `--repeat-penalty 1e-320 --history 0`: 3 / 1e-320 is +inf.
        QTest::newRow("repeat 1e-320") << QStringLiteral("penalties=-1:repeat=1e-320") << std::vector<double>{3.0, 5.0}
                                       << std::vector<int>{0} << 0;
        QTest::newRow("frequency 1e308") << QStringLiteral("penalties=-1:frequency=1e308")
                                         << std::vector<double>{3.0, -1e308} << std::vector<int>{0, 0, 0} << 1;
        QTest::newRow("dry 1e308") << QStringLiteral("dry=1e308") << std::vector<double>{-1e308, 1.0, 0.0}
                                   << std::vector<int>{0, 1, 0, 1, 0} << 2;
    }

    void logitChangesThatOverflowStayFinite()
    {
        QFETCH(QString, chain);
        QFETCH(std::vector<double>, logits);
        QFETCH(std::vector<int>, history);
        QFETCH(int, top);
        const Eigen::ArrayXd values = Eigen::Map<const Eigen::ArrayXd>(logits.data(), Eigen::Index(logits.size()));
        for (Semantics s : {Semantics::Lesson, Semantics::LlamaCpp}) {
            auto parsed = parseChain(chain.toStdString(), s);
            QVERIFY2(parsed, parsed ? "" : parsed.error().c_str());
            SamplerContext context;
            context.history.assign(history.begin(), history.end());
            const CandidateList list = evaluateChain(parsed.value(), values, context);
            checkSurvivors(list);
            QCOMPARE(list.front().id, top);
        }
    }
};

QTEST_GUILESS_MAIN(TestParameterExtremes)
#include "tst_parameter_extremes.moc"
