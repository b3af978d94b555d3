// The Explorer's state file, version 3: every parameter of the one table, the order, the context
// and the bias come back as they were written; version 1 and 2 files (topK, topP, minP) still
// open; every bad value is refused with the file and the field named, never clamped or replaced
// by a default (issue 11 item 9).
#include "app/kinds/explorer_state.h"
#include "engine/sampler/lesson_examples.h"
#include "support/sampler_parameter_values.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace logitlab;

namespace {

QByteArray withSampler(const QString& samplerJson, int version = app::ExplorerState::kVersion)
{
    return QStringLiteral(R"({"format": "logitlab-explorer", "version": %1, "tokens": ["a", "b", "c"],
                              "logits": [1, 2, 3], "sampler": %2})")
        .arg(version)
        .arg(samplerJson)
        .toUtf8();
}

}  // namespace

class TestExplorerState : public QObject {
    Q_OBJECT
private slots:
    void aRunnableChainRoundTripsExactly()
    {
        app::ExplorerState state;
        state.distribution = engine::lessonExample();
        auto& chain = state.chain;
        chain.semantics = engine::Semantics::LlamaCpp;
        chain.lesson = engine::SamplerSettings{0.8, 40, 0.95};
        chain.stages.minP = 0.05;
        chain.stages.xtcProbability = 0.5;
        chain.stages.repeatPenalty = 1.3;
        chain.stages.dryMultiplier = 0.8;
        chain.stages.dryBreakers = "2/3";
        chain.stages.logitBias = "4@-inf/1@1.5";
        chain.stages.order = engine::presetOrder(engine::Semantics::LlamaCpp);
        std::reverse(chain.stages.order.begin(), chain.stages.order.end());
        chain.context = {0, 0, 1};
        const auto back = app::explorerStateFromJson(app::explorerStateToJson(state), QStringLiteral("s.json"));
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().c_str());
        QVERIFY(back->chain == chain);
    }

    // Version 1 spelt min-p "minP"; versions 1 and 2 spelt top-k and top-p "topK" and "topP".
    void olderVersionsStillOpen_data()
    {
        QTest::addColumn<int>("version");
        QTest::addColumn<QString>("sampler");
        QTest::newRow("version 1") << 1 << R"({"semantics": "hf", "temperature": 0.7, "minP": 0.1, "typical": 0.9,
                                               "topK": 20, "topP": 0.9})";
        QTest::newRow("version 2") << 2 << R"({"semantics": "hf", "temperature": 0.7, "min-p": 0.1, "typical": 0.9,
                                               "topK": 20, "topP": 0.9})";
    }

    void olderVersionsStillOpen()
    {
        QFETCH(int, version);
        QFETCH(QString, sampler);
        const auto state = app::explorerStateFromJson(withSampler(sampler, version), QStringLiteral("old.json"));
        QVERIFY2(state.ok(), state.ok() ? "" : state.error().c_str());
        QCOMPARE(state->chain.stages.minP, std::optional<double>(0.1));
        QCOMPARE(state->chain.stages.typical, std::optional<double>(0.9));
        QCOMPARE(state->chain.lesson.topK, std::optional<int>(20));
        QCOMPARE(state->chain.lesson.topP, std::optional<double>(0.9));
        QCOMPARE(state->chain.lesson.temperature, 0.7);
    }

    void theOneSpellingIsWritten()
    {
        app::ExplorerState state;
        state.distribution = engine::lessonExample();
        state.chain.lesson = engine::SamplerSettings{0.8, 40, 0.95};
        state.chain.stages.minP = 0.05;
        const QJsonObject sampler = QJsonDocument::fromJson(app::explorerStateToJson(state))
                                        .object()
                                        .value(QStringLiteral("sampler"))
                                        .toObject();
        QCOMPARE(sampler.keys(),
                 (QStringList{QStringLiteral("min-p"), QStringLiteral("semantics"), QStringLiteral("temperature"),
                              QStringLiteral("top-k"), QStringLiteral("top-p")}));
    }

    // Every parameter of the table through a state file, under a preset that has it.
    void everyParameterRoundTrips_data() { test::addParameterRows(); }
    void everyParameterRoundTrips()
    {
        const engine::SamplerParameter& p = test::currentParameter();
        app::ExplorerState state;
        state.distribution = engine::lessonExample();
        state.chain = test::explorerChainWith(p);
        state.seed = app::ExplorerState::kMaxSeed;
        state.draws = app::ExplorerState::kMaxDraws;
        const auto back = app::explorerStateFromJson(app::explorerStateToJson(state), QStringLiteral("s.json"));
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().c_str());
        QVERIFY(back->chain == state.chain);
        QCOMPARE(back->seed, state.seed);
        QCOMPARE(back->draws, state.draws);
    }

    void badSamplerFieldsAreNamed_data()
    {
        QTest::addColumn<QString>("sampler");
        QTest::addColumn<QString>("error");
        QTest::newRow("unknown key") << R"({"temperature": 1, "top_q": 0.9})"
                                     << "bad.json: sampler.top_q: unknown key";
        QTest::newRow("both spellings")
            << R"({"top-p": 0.9, "topP": 0.8})"
            << "bad.json: sampler.topP: is the old spelling of top-p: give only one of them";
        QTest::newRow("not a number") << R"({"min-p": "0.1"})"
                                      << "bad.json: sampler.min-p: must be a number, not a string";
        QTest::newRow("unknown arithmetic")
            << R"({"semantics": "vllm", "arithmetic": "fast"})"
            << R"(bad.json: sampler.arithmetic: must be one of exact, library, got "fast")";
        QTest::newRow("temperature hot") << R"({"temperature": "hot"})"
                                         << "bad.json: sampler.temperature: must be a number, not a string";
        QTest::newRow("temperature negative") << R"({"temperature": -1})"
                                              << "bad.json: sampler.temperature: must be in [0, 1000], got -1";
        for (const char* semantics : {"llama.cpp", "hf", "vllm"}) {
            const QString prefix = QStringLiteral(R"({"semantics": "%1", )").arg(QLatin1String(semantics));
            QTest::addRow("%s topK 0", semantics) << prefix + R"("topK": 0})"
                                                  << "bad.json: sampler.topK: must be in 1..2147483647, got 0";
            QTest::addRow("%s topK 2.5", semantics) << prefix + R"("topK": 2.5})"
                                                    << "bad.json: sampler.topK: must be a whole number, got 2.5";
            QTest::addRow("%s topK 1e20", semantics) << prefix + R"("topK": 1e20})"
                                                     << "bad.json: sampler.topK: must be in 1..2147483647, got 1";
            QTest::addRow("%s topK false", semantics)
                << prefix + R"("topK": false})"
                << "bad.json: sampler.topK: must be a whole number, not a boolean";
            QTest::addRow("%s topK x", semantics) << prefix + R"("topK": "x"})"
                                                  << "bad.json: sampler.topK: must be a whole number, not a string";
        }
        QTest::newRow("more decimals than shown") << R"({"semantics": "hf", "epsilon": 0.00025})"
                                                  << "bad.json: sampler.epsilon: has more than the 4 decimals the "
                                                     "Explorer holds, got 0.00025";
        QTest::newRow("top-p above 1") << R"({"top-p": 1.5})"
                                       << "bad.json: sampler.top-p: must be in [0, 1], got 1.5";
        QTest::newRow("mirostat 3") << R"({"semantics": "llama.cpp", "mirostat": 3})"
                                    << "bad.json: sampler.mirostat: must be in 0..2, got 3";
        QTest::newRow("min-keep fraction") << R"({"semantics": "hf", "min-keep": 1.5})"
                                           << "bad.json: sampler.min-keep: must be a whole number, got 1.5";
        QTest::newRow("bias not text") << R"({"logit-bias": 5})"
                                       << "bad.json: sampler.logit-bias: must be a string, not a number";
        QTest::newRow("semantics unknown") << R"({"semantics": "gpt"})"
                                           << "bad.json: sampler.semantics: must be one of lesson, llama.cpp, hf, vllm";
        QTest::newRow("context not ids") << R"({"context": [0, 1.5]})"
                                         << "bad.json: sampler.context[1]: must be a whole number, got 1.5";
        QTest::newRow("context outside")
            << R"({"semantics": "llama.cpp", "repeat-penalty": 2, "context": [0, 9]})"
            << "bad.json: sampler: context: token #9 is outside the vocabulary of 3 tokens";
        QTest::newRow("order of another preset")
            << R"({"semantics": "vllm", "order": ["typical"]})"
            << "bad.json: sampler: order: 'typical' is not a stage of the vllm chain";
        QTest::newRow("order not names") << R"({"order": [1]})"
                                         << "bad.json: sampler.order[0]: must be a stage name";
        QTest::newRow("bias outside") << R"({"semantics": "hf", "logit-bias": "7@1"})"
                                      << "bad.json: sampler: logit-bias";
        QTest::newRow("stage the preset lacks") << R"({"semantics": "vllm", "xtc-probability": 0.5})"
                                                << "bad.json: sampler: xtc";
    }

    void badSamplerFieldsAreNamed()
    {
        QFETCH(QString, sampler);
        QFETCH(QString, error);
        const auto state = app::explorerStateFromJson(withSampler(sampler), QStringLiteral("bad.json"));
        QVERIFY(!state.ok());
        QVERIFY2(QString::fromStdString(state.error()).startsWith(error), state.error().c_str());
    }

    void badDrawAndFileValuesAreNamed_data()
    {
        QTest::addColumn<QString>("draw");
        QTest::addColumn<QString>("error");
        QTest::newRow("64-bit seed") << R"("draw": {"seed": "18446744073709551615"})"
                                     << "bad.json: draw.seed: must be in 0..2147483647 (what the Explorer's seed box "
                                        "holds), got 18446744073709551615";
        QTest::newRow("seed 2^31") << R"("draw": {"seed": 2147483648})"
                                   << "bad.json: draw.seed: must be in 0..2147483647 (what the Explorer's seed box "
                                      "holds), got 2147483648";
        QTest::newRow("seed text") << R"("draw": {"seed": "forty"})"
                                   << "bad.json: draw.seed: must be a whole number, got \"forty\"";
        QTest::newRow("seed negative") << R"("draw": {"seed": -1})"
                                       << "bad.json: draw.seed: must be in";
        QTest::newRow("count above the box") << R"("draw": {"count": 10000001})"
                                             << "bad.json: draw.count: must be in 1..10000000, got 10000001";
        QTest::newRow("count zero") << R"("draw": {"count": 0})"
                                    << "bad.json: draw.count: must be in 1..10000000, got 0";
        QTest::newRow("count text") << R"("draw": {"count": "many"})"
                                    << "bad.json: draw.count: must be a whole number, not a string";
        QTest::newRow("rng unknown") << R"("draw": {"rng": "dice"})"
                                     << "bad.json: draw.rng: must be one of";
        QTest::newRow("draw unknown key") << R"("draw": {"seeds": 1})"
                                          << "bad.json: draw.seeds: unknown key";
        QTest::newRow("root unknown key") << R"("colour": "red")"
                                          << "bad.json: colour: unknown key";
        QTest::newRow("sampler not an object") << R"("sampler": 5)"
                                               << "bad.json: sampler: must be an object, not a number";
        QTest::newRow("no bars") << R"("chart": {"bars": 0})"
                                 << "bad.json: chart.bars: must be in 1..200, got 0";
        QTest::newRow("bars above the box") << R"("chart": {"bars": 201})"
                                            << "bad.json: chart.bars: must be in 1..200, got 201";
        QTest::newRow("bars fraction") << R"("chart": {"bars": 2.5})"
                                       << "bad.json: chart.bars: must be a whole number";
        QTest::newRow("chart unknown key") << R"("chart": {"log": true})"
                                           << "bad.json: chart.log: unknown key";
    }

    void badDrawAndFileValuesAreNamed()
    {
        QFETCH(QString, draw);
        QFETCH(QString, error);
        const QByteArray json =
            QStringLiteral(R"({"format": "logitlab-explorer", "version": 3, "tokens": ["a", "b", "c"],
                                                  "logits": [1, 2, 3], %1})")
                .arg(draw)
                .toUtf8();
        const auto state = app::explorerStateFromJson(json, QStringLiteral("bad.json"));
        QVERIFY(!state.ok());
        QVERIFY2(QString::fromStdString(state.error()).startsWith(error), state.error().c_str());
    }

    void aNumberSeedInRangeOpens()
    {
        const QByteArray json = R"({"format": "logitlab-explorer", "version": 3, "tokens": ["a", "b"],
                                    "logits": [1, 2], "draw": {"seed": 7, "count": 10000000}})";
        const auto state = app::explorerStateFromJson(json, QStringLiteral("ok.json"));
        QVERIFY2(state.ok(), state.ok() ? "" : state.error().c_str());
        QCOMPARE(state->seed, quint64(7));
        QCOMPARE(state->draws, qint64(10'000'000));
        QCOMPARE(state->bars, app::ExplorerState::kDefaultBars);
    }

    // The chart's top N is saved when chosen; a file without it (every file saved before the
    // choice) keeps its bytes.
    void chosenBarsRoundTrip()
    {
        app::ExplorerState state;
        state.distribution = engine::lessonExample();
        QVERIFY(!app::explorerStateToJson(state).contains("\"chart\""));
        state.bars = 7;
        const QByteArray json = app::explorerStateToJson(state);
        QVERIFY(json.contains("\"chart\""));
        const auto back = app::explorerStateFromJson(json, QStringLiteral("s.json"));
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().c_str());
        QCOMPARE(back->bars, 7);
    }
};

QTEST_GUILESS_MAIN(TestExplorerState)
#include "tst_explorer_state.moc"
