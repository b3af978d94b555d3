// The Explorer's state file, version 2: every stage, the order, the context and the bias come
// back as they were written; version 1 files still open; bad sampler fields are refused with
// the file and the field named, and nothing else is read.
#include "explorer_state.h"
#include "lesson_examples.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace logitlab;

namespace {

QByteArray withSampler(const QString& samplerJson, int version = 2)
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

    void versionOneStillOpens()
    {
        const auto state = app::explorerStateFromJson(
            withSampler(R"({"semantics": "hf", "temperature": 0.7, "minP": 0.1, "typical": 0.9})", 1),
            QStringLiteral("old.json"));
        QVERIFY2(state.ok(), state.ok() ? "" : state.error().c_str());
        QCOMPARE(state->chain.stages.minP, std::optional<double>(0.1));
        QCOMPARE(state->chain.stages.typical, std::optional<double>(0.9));
    }

    void badSamplerFieldsAreNamed_data()
    {
        QTest::addColumn<QString>("sampler");
        QTest::addColumn<QString>("error");
        QTest::newRow("unknown key") << R"({"temperature": 1, "top_p": 0.9})"
                                     << "bad.json: sampler.top_p: unknown key";
        QTest::newRow("not a number") << R"({"min-p": "0.1"})" << "bad.json: sampler.min-p: not a number";
        QTest::newRow("context not ids") << R"({"context": [0, 1.5]})"
                                         << "bad.json: sampler.context[1]: not a token id";
        QTest::newRow("context outside") << R"({"semantics": "llama.cpp", "repeat-penalty": 2, "context": [0, 9]})"
                                         << "bad.json: sampler: context: token #9 is outside the vocabulary of 3 tokens";
        QTest::newRow("order of another preset") << R"({"semantics": "vllm", "order": ["typical"]})"
                                                 << "bad.json: sampler: order: 'typical' is not a stage of the vllm chain";
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
};

QTEST_GUILESS_MAIN(TestExplorerState)
#include "tst_explorer_state.moc"
