// Inputs that crashed a fuzz target (fuzz/, docs/reliability-fuzzing.md), replayed through the
// same path the target takes. Each must now be refused with a message naming the file and the
// field, or be accepted with a usable result: at least one survivor and no NaN.
#include "app/kinds/explorer_state.h"
#include "engine/sampler/candidates_from_order.h"

#include <QByteArray>
#include <QTest>

#include <cmath>

using namespace logitlab;

class TestFuzzRegressions : public QObject {
    Q_OBJECT
private slots:
    // fuzz_explorer_state: explorerStateFromJson, then the analysis the Explorer runs on open.
    void explorerStateFiles_data()
    {
        QTest::addColumn<QByteArray>("input");
        // Issue 11 item 1, the fuzzer's first find: top-k 0 (or a fraction read as 0) under a
        // library preset reached summarise() with no survivor; front() of an empty vector.
        QTest::newRow("hf top-k 0") << QByteArray(
            R"({"format": "logitlab-explorer", "version": 2, "tokens": ["a", "b", "c"], "logits": [1, 2, 3], "sampler": {"semantics": "hf", "topK": 0}})");
        QTest::newRow("vllm top-k 2.5") << QByteArray(
            R"({"format": "logitlab-explorer", "version": 2, "tokens": ["a", "b", "c"], "logits": [1, 2, 3], "sampler": {"semantics": "vllm", "topK": 2.5}})");
    }
    void explorerStateFiles()
    {
        QFETCH(QByteArray, input);
        const auto state = app::explorerStateFromJson(input, QStringLiteral("fuzz.json"));
        if (!state) {
            QVERIFY2(QString::fromStdString(state.error()).startsWith(QLatin1String("fuzz.json: ")),
                     state.error().c_str());
            return;
        }
        const auto& logits = state->distribution.logits;
        QVERIFY(logits.size() > 0);
        QVERIFY(!engine::validateExplorerChain(state->chain, static_cast<std::size_t>(logits.size())));
        const auto analysis = engine::analyseExplorerChain(logits, state->chain, engine::idsByDescendingLogit(logits));
        QVERIFY(!analysis.survivors.empty());
        for (const auto& c : analysis.survivors)
            QVERIFY2(std::isfinite(c.p), "a survivor's probability is NaN or infinite");
    }
};

QTEST_GUILESS_MAIN(TestFuzzRegressions)
#include "tst_fuzz_regressions.moc"
