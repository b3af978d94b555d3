// The Explorer's chain beyond the lesson: a user's stage order, token fields typed by name,
// draws by each preset's own rule (ArrayDraw is drawIndex exactly), and XTC's coin mixed into
// the draws the way a real llama.cpp step flips it.
#include "engine/models/synthetic_logits.h"
#include "engine/models/token_reference.h"
#include "engine/rng/rng_factory.h"
#include "engine/rng/seed_split.h"
#include "engine/sampler/array_draw.h"
#include "engine/sampler/candidates.h"
#include "engine/sampler/candidates_from_order.h"
#include "engine/sampler/chain_evaluation.h"
#include "engine/sampler/chain_settings.h"
#include "engine/sampler/chain_text.h"
#include "engine/sampler/draw.h"
#include "engine/sampler/explorer_chain.h"
#include "engine/sampler/explorer_draws.h"
#include "engine/sampler/lesson_examples.h"
#include "engine/sampler/sample.h"
#include "engine/stats/statistics.h"

#include <QTest>

#include <map>
#include <random>

using namespace logitlab::engine;

Q_DECLARE_METATYPE(logitlab::engine::Semantics)

namespace {

using Order = std::vector<std::string>;

ExplorerChain lessonAt(double t, std::optional<double> topP)
{
    return ExplorerChain{Semantics::Lesson, SamplerSettings{t, std::nullopt, topP}, {}, {}};
}

std::vector<double> expectedOf(const CandidateList& list)
{
    std::vector<double> p;
    for (const Candidate& c : list)
        p.push_back(c.p);
    return p;
}

}  // namespace

class TestExplorerChain : public QObject {
    Q_OBJECT

private slots:
    void customOrderIsChecked_data()
    {
        QTest::addColumn<int>("semantics");
        QTest::addColumn<QStringList>("order");
        QTest::addColumn<QString>("error");  // empty: accepted
        const auto join = [](const Order& o) {
            QStringList out;
            for (const auto& s : o)
                out << QString::fromStdString(s);
            return out;
        };
        Order vllm = presetOrder(Semantics::Vllm);
        QTest::newRow("the preset's own") << int(Semantics::Vllm) << join(vllm) << QString();
        Order reversed(vllm.rbegin(), vllm.rend());
        QTest::newRow("reversed") << int(Semantics::Vllm) << join(reversed) << QString();
        Order foreign = vllm;
        foreign[0] = "typical";
        QTest::newRow("a stage vllm lacks") << int(Semantics::Vllm) << join(foreign)
                                            << QStringLiteral("order: 'typical' is not a stage of the vllm chain");
        Order twice = vllm;
        twice[1] = twice[0];
        QTest::newRow("listed twice") << int(Semantics::Vllm) << join(twice)
                                      << QStringLiteral("order: 'logit-bias' is listed twice");
        Order missing(vllm.begin(), vllm.end() - 1);
        QTest::newRow("one missing") << int(Semantics::Vllm) << join(missing)
                                     << QStringLiteral(
                                            "order: 'top-p' is missing (list every stage of the vllm chain)");
    }

    void customOrderIsChecked()
    {
        QFETCH(int, semantics);
        QFETCH(QStringList, order);
        QFETCH(QString, error);
        ChainSettings s;
        s.topP = 0.9;
        for (const QString& stage : order)
            s.order.push_back(stage.toStdString());
        const auto built = buildChain(s, static_cast<Semantics>(semantics));
        if (error.isEmpty()) {
            QVERIFY2(built.ok(), built.ok() ? "" : built.error().c_str());
            std::vector<std::string> names;
            for (const auto& stage : built->stages())
                names.push_back(presetStageKey(stage->name()));
            // Every stage asked for runs in the user's order.
            std::vector<std::string> wanted;
            for (const auto& stage : s.order)
                if (std::find(names.begin(), names.end(), stage) != names.end())
                    wanted.push_back(stage);
            QVERIFY(names == wanted);
        } else {
            QVERIFY(!built.ok());
            QCOMPARE(QString::fromStdString(built.error()), error);
        }
    }

    // The lesson's interaction, reordered: at T = 0.5 top-p 0.9 keeps 2 tokens; run top-p
    // before the temperature and it cuts at T = 1, where 3 survive (the temperature then only
    // reshapes the survivors).
    void runningTopPBeforeTheTemperatureChangesTheCut()
    {
        const auto d = lessonExample();
        ExplorerChain chain = lessonAt(0.5, 0.9);
        const auto order = idsByDescendingLogit(d.logits);
        QCOMPARE(analyseExplorerChain(d.logits, chain, order).survivors.size(), std::size_t{2});
        Order custom = presetOrder(Semantics::Lesson);
        const auto t = std::find(custom.begin(), custom.end(), "temperature");
        const auto p = std::find(custom.begin(), custom.end(), "top-p");
        std::iter_swap(t, p);
        chain.stages.order = custom;
        QVERIFY(!chain.lessonOnly());
        QVERIFY(!validateExplorerChain(chain));
        const auto a = analyseExplorerChain(d.logits, chain, order);
        QCOMPARE(a.survivors.size(), std::size_t{3});
        // Renormalised at T = 0.5 over users, data, items: e^6 / (e^6 + e^4 + e^3).
        const double expected = std::exp(6.0) / (std::exp(6.0) + std::exp(4.0) + std::exp(3.0));
        QVERIFY(std::abs(a.survivors[0].p - expected) < 1e-12);
        // Compare runs each preset in its own order: the lesson's gives 2 again.
        QCOMPARE(compareSemantics(d.logits, chain).front().value().size(), std::size_t{2});
    }

    void tokenReferences_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("ids");    // space-separated, or empty when an error is expected
        QTest::addColumn<QString>("error");  // a part of the message
        QTest::newRow("names") << "users data users"
                               << "0 1 0" << QString();
        QTest::newRow("commas and #ids") << "banana,#2, 3"
                                         << "4 2 3" << QString();
        QTest::newRow("empty") << "  "
                               << "" << QString();
        QTest::newRow("unknown word") << "users spam" << QString() << "context: item 2 'spam' is neither";
        QTest::newRow("id past the end") << "#5" << QString() << "context: item 1 '#5' is outside the vocabulary of 5";
        QTest::newRow("negative id") << "-1" << QString() << "'-1' is outside the vocabulary";
    }

    void tokenReferences()
    {
        QFETCH(QString, text);
        QFETCH(QString, ids);
        QFETCH(QString, error);
        const auto names = lessonExample().tokens;
        const auto parsed = parseTokenReferences(text.toStdString(), names, "context");
        if (!error.isEmpty()) {
            QVERIFY(!parsed.ok());
            QVERIFY2(QString::fromStdString(parsed.error()).contains(error), parsed.error().c_str());
            return;
        }
        QVERIFY(parsed.ok());
        QStringList got;
        for (std::int32_t id : *parsed)
            got << QString::number(id);
        QCOMPARE(got.join(QLatin1Char(' ')), ids);
        // Written back and read again: the same ids.
        const auto again = parseTokenReferences(formatTokenReferences(*parsed, names), names, "context");
        QVERIFY(again.ok() && *again == *parsed);
    }

    void tokensNamedLikeIdsOrWithSpacesAreWrittenAsIds()
    {
        const std::vector<std::string> names{"1", "0", "a b", "#x", "ok"};
        QCOMPARE(resolveToken("1", names).value(), 0);  // the name wins over the id
        QCOMPARE(tokenReference(0, names), std::string("1"));
        QCOMPARE(tokenReference(2, names), std::string("#2"));
        QCOMPARE(tokenReference(3, names), std::string("#3"));
        QCOMPARE(formatTokenReferences({4, 2, 1}, names), std::string("ok #2 0"));
    }

    void biasReferences_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("spelling");
        QTest::addColumn<QString>("error");
        QTest::newRow("name and id") << "banana:-inf, #1:+1.5"
                                     << "4@-inf/1@1.5" << QString();
        QTest::newRow("no value") << "users" << QString() << "logit bias: item 1 'users' is not token:value";
        QTest::newRow("+inf") << "users:inf" << QString() << "the value must be a number or -inf";
        QTest::newRow("nan") << "users:nan" << QString() << "the value must be a number or -inf";
        QTest::newRow("unknown token") << "spam:1" << QString() << "the token is neither";
    }

    void biasReferences()
    {
        QFETCH(QString, text);
        QFETCH(QString, spelling);
        QFETCH(QString, error);
        const auto names = lessonExample().tokens;
        const auto parsed = parseBiasReferences(text.toStdString(), names, "logit bias");
        if (!error.isEmpty()) {
            QVERIFY(!parsed.ok());
            QVERIFY2(QString::fromStdString(parsed.error()).contains(error), parsed.error().c_str());
            return;
        }
        QVERIFY(parsed.ok());
        QCOMPARE(QString::fromStdString(*parsed), spelling);
        QCOMPARE(QString::fromStdString(formatBiasReferences(*parsed, names)), QStringLiteral("banana:-inf, data:1.5"));
    }

    // A chain written as text (the Loop's) becomes settings (the Explorer's) that cut and weigh
    // the same logits the same way, after the same context; a chain settings cannot hold is an
    // error naming the stage.
    void chainTextBecomesSettings_data()
    {
        QTest::addColumn<Semantics>("semantics");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error");  // empty: the settings give the same survivors
        const auto row = [](const char* name, Semantics s, const char* text, const char* error = "") {
            QTest::newRow(name) << s << QString::fromUtf8(text) << QString::fromUtf8(error);
        };
        row("llama defaults spelled out", Semantics::LlamaCpp, "top-k=40,top-p=0.95,min-p=0.05,temperature=0.8");
        row("llama temperature first", Semantics::LlamaCpp, "temperature=0.7,top-k=5,top-p=0.8");
        row("llama penalties and dry", Semantics::LlamaCpp,
            "penalties:last-n=64:repeat=1.3:presence=0.5,dry:multiplier=0.8:allowed-length=1,top-k=10");
        row("llama xtc certain", Semantics::LlamaCpp, "xtc:probability=1:threshold=0.05,temperature=1.2");
        row("llama dynamic temperature", Semantics::LlamaCpp, "top-k=20,dynamic-temperature=0.9:delta=0.5");
        row("llama min-keep", Semantics::LlamaCpp, "top-p=0.5:min-keep=4,min-p=0.2");
        row("llama mirostat", Semantics::LlamaCpp, "temperature=0.9,mirostat-v2:tau=3:eta=0.1");
        row("hf", Semantics::Hf, "temperature=0.7,top-k=50,top-p=0.9:min-keep=3,typical=0.95");
        row("vllm reordered", Semantics::Vllm, "top-p=0.8,min-p=0.1,top-k=5");
        row("lesson greedy", Semantics::Lesson, "greedy");
        row("lesson mirostat v1", Semantics::Lesson, "temperature=1.1,mirostat-v1:tau=4");
        row("empty", Semantics::LlamaCpp, "");
        row("twice", Semantics::LlamaCpp, "top-k=40,top-k=20", "top-k: listed twice");
        row("two min-keeps", Semantics::LlamaCpp, "top-p=0.9:min-keep=2,min-p=0.05:min-keep=3",
            "min-p: min-keep 3 differs from 2");
        row("mirostat with penalties", Semantics::LlamaCpp, "penalties:repeat=1.2,mirostat-v2:tau=5",
            "penalties cannot stay");
    }
    void chainTextBecomesSettings()
    {
        QFETCH(Semantics, semantics);
        QFETCH(QString, text);
        QFETCH(QString, error);
        auto parsed = parseChain(text.toStdString(), semantics);
        QVERIFY2(parsed, parsed ? "" : parsed.error().c_str());
        const auto settings = chainSettingsOf(parsed.value());
        if (!error.isEmpty()) {
            QVERIFY(!settings);
            QVERIFY2(QString::fromStdString(settings.error()).contains(error), settings.error().c_str());
            return;
        }
        QVERIFY2(settings, settings ? "" : settings.error().c_str());
        auto built = buildChain(settings.value(), semantics);
        QVERIFY2(built, built ? "" : built.error().c_str());
        Eigen::ArrayXd logits(60);
        for (Eigen::Index i = 0; i < logits.size(); ++i)
            logits[i] = 6.0 * std::sin(1.7 * static_cast<double>(i)) - 0.05 * static_cast<double>(i);
        const std::vector<std::int32_t> history{3, 3, 11, 3, 11};
        const auto survivors = [&](SamplerChain& chain) {
            SamplerContext context;
            context.history = history;
            context.vocabSize = static_cast<std::size_t>(logits.size());
            return evaluateChain(chain, logits, context);
        };
        const CandidateList expected = survivors(parsed.value());
        const CandidateList got = survivors(built.value());
        QCOMPARE(got.size(), expected.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
            QCOMPARE(got[i].id, expected[i].id);
            QCOMPARE(got[i].p, expected[i].p);
        }
        // And as the Explorer holds it, after the same context.
        const auto explorer = explorerChainOf(parsed.value(), history, static_cast<std::size_t>(logits.size()));
        QVERIFY2(explorer, explorer ? "" : explorer.error().c_str());
        const auto analysis = analyseExplorerChain(logits, explorer.value(), idsByDescendingLogit(logits));
        QCOMPARE(analysis.survivors.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i)
            QCOMPARE(analysis.survivors[i].id, expected[i].id);
    }

    void contextFeedsThePenalties()
    {
        const auto d = lessonExample();
        ExplorerChain chain{Semantics::LlamaCpp, SamplerSettings{1.0, std::nullopt, 0.9}, {}, {}};
        chain.stages.repeatPenalty = 3.0;
        const auto order = idsByDescendingLogit(d.logits);
        QCOMPARE(analyseExplorerChain(d.logits, chain, order).survivors.front().id, 0);  // no context: users
        chain.context = {0, 0};
        // users' logit 3 / 3 = 1 falls below data (2) and items (1.5), and the probabilities at T
        // (table, chart, entropy) are those of the penalised logits [1, 2, 1.5, 1, -2].
        const SamplerAnalysis a = analyseExplorerChain(d.logits, chain, order);
        QCOMPARE(a.survivors.front().id, 1);
        Eigen::ArrayXd penalised = d.logits;
        penalised[0] = 1.0;
        const SamplerAnalysis expected = analyse(penalised, chain.lesson);
        QCOMPARE(a.probabilities, expected.probabilities);
        QCOMPARE(a.entropyNats, expected.entropyNats);
        QVERIFY(a.probabilities[0] < a.probabilities[2]);
        chain.context = {0, 7};
        const auto problem = validateExplorerChain(chain, 5);
        QVERIFY(problem);
        QCOMPARE(QString::fromStdString(*problem),
                 QStringLiteral("context: token #7 is outside the vocabulary of 5 tokens"));
        QVERIFY(!explorerDraws(d.logits, chain, 10, "mulberry32", 1).ok());
    }

    void arrayDrawIsDrawIndex_data()
    {
        QTest::addColumn<Semantics>("semantics");
        for (Semantics s : allSemantics())
            QTest::newRow(semanticsName(s).c_str()) << s;
    }

    // Same generator state, same pick, for arrays with ties, zeros and a lone candidate.
    void arrayDrawIsDrawIndex()
    {
        QFETCH(Semantics, semantics);
        std::mt19937_64 shapes(7);
        for (int trial = 0; trial < 40; ++trial) {
            const std::size_t n = trial == 0 ? 1 : 1 + shapes() % 300;
            CandidateArray a;
            for (std::size_t i = 0; i < n; ++i) {
                const double logit = shapes() % 5 == 0 ? -std::numeric_limits<double>::infinity()
                                                       : static_cast<double>(shapes() % 8) / 2.0;
                a.data().push_back({static_cast<std::int32_t>(i), logit, 0.0});
            }
            if (trial % 2 == 1)
                a.sortDescending();
            a.softmax();
            const ArrayDraw fast(a, semantics);
            auto one = makeRng("mt19937_64", static_cast<std::uint64_t>(trial)).value();
            auto two = makeRng("mt19937_64", static_cast<std::uint64_t>(trial)).value();
            const int draws = semantics == Semantics::Vllm ? 50 : 2000;
            for (int i = 0; i < draws; ++i)
                QCOMPARE(fast.draw(*one), drawIndex(a, semantics, *two));
            QCOMPARE(one->nextDouble(), two->nextDouble());  // and the same uniforms used
        }
    }

    void lessonDrawsAreTheLessonsSample()
    {
        const auto d = lessonExercise();
        const ExplorerChain chain = lessonAt(1.0, 0.9);
        const auto draws = explorerDraws(d.logits, chain, 1000, "mulberry32", 42);
        QVERIFY(draws.ok());
        QCOMPARE(draws->counts.counts, (std::vector<std::uint64_t>{493, 393, 114}));
        // Draw for draw: sample() on candidates() with the same generator.
        const auto list = candidates(d.logits, chain.lesson);
        auto rng = makeRng("mulberry32", 42).value();
        std::map<std::int32_t, std::uint64_t> counts;
        for (int i = 0; i < 1000; ++i)
            ++counts[sample(list, *rng)];
        for (std::size_t i = 0; i < draws->expected.size(); ++i)
            QCOMPARE(draws->counts.counts[i], counts[draws->expected[i].id]);
    }

    void drawsFollowEachPresetsRule_data()
    {
        QTest::addColumn<Semantics>("semantics");
        for (Semantics s : allSemantics())
            QTest::newRow(semanticsName(s).c_str()) << s;
    }

    // Chain-by-chain, draw-by-draw: what SamplerChain::run + drawIndex give, step after step,
    // with XTC at 0.5 flipping its own coin; and the counts fit the mixture.
    void drawsFollowEachPresetsRule()
    {
        QFETCH(Semantics, semantics);
        const auto d = lessonExample();
        ExplorerChain chain{semantics, SamplerSettings{1.0, std::nullopt, 0.95}, {}, {}};
        chain.stages.minP = 0.01;
        const bool xtc = semantics == Semantics::LlamaCpp || semantics == Semantics::Lesson;
        if (xtc) {
            chain.stages.xtcProbability = 0.5;
            chain.stages.xtcThreshold = 0.2;
        }
        const std::uint64_t n = semantics == Semantics::Vllm ? 20'000 : 100'000;
        const auto draws = explorerDraws(d.logits, chain, n, "mt19937", 11);
        QVERIFY2(draws.ok(), draws.ok() ? "" : draws.error().c_str());
        QCOMPARE(draws->counts.draws, n);

        auto reference = buildChain(toChainSettings(chain), semantics).value();
        auto coin = makeRng("mt19937", randomStageSeed(11)).value();
        reference.setRng(*coin);
        auto rng = makeRng("mt19937", 11).value();
        std::map<std::int32_t, std::uint64_t> counts;
        for (std::uint64_t i = 0; i < 2000; ++i) {
            SamplerContext context;
            context.vocabSize = 5;
            const CandidateArray final = reference.run(d.logits.data(), 5, context);
            ++counts[final[drawIndex(final, semantics, *rng)].id];
        }
        const auto first = explorerDraws(d.logits, chain, 2000, "mt19937", 11);
        for (std::size_t i = 0; i < first->expected.size(); ++i)
            QCOMPARE(first->counts.counts[i], counts[first->expected[i].id]);

        const FitTest fit = chiSquareTest(draws->counts.counts, expectedOf(draws->expected));
        QVERIFY2(fit.pValue > 1e-3, QByteArray::number(fit.pValue));
        if (xtc) {
            // The mixture is not either outcome alone: users survives only when XTC stays quiet.
            QCOMPARE(draws->expected.size(), std::size_t{4});
            ExplorerChain always = chain;
            always.stages.xtcProbability = 1.0;
            const auto fired = explorerDraws(d.logits, always, 1000, "mt19937", 11);
            QVERIFY(fired->expected.size() < draws->expected.size());
            // A claim that XTC always fires fails the fit.
            std::vector<double> wrong(draws->expected.size(), 0.0);
            for (const Candidate& c : fired->expected)
                for (std::size_t i = 0; i < draws->expected.size(); ++i)
                    if (draws->expected[i].id == c.id)
                        wrong[i] = c.p;
            for (double& w : wrong)
                w = 0.98 * w + 0.02 / static_cast<double>(wrong.size());
            QVERIFY(chiSquareTest(draws->counts.counts, wrong).pValue < 1e-6);
        }
    }

    void drawsReportAnUnknownGenerator()
    {
        const auto d = lessonExample();
        const auto draws = explorerDraws(d.logits, lessonAt(1.0, 0.9), 10, "dice", 1);
        QVERIFY(!draws.ok());
        QVERIFY2(QString::fromStdString(draws.error()).contains(QStringLiteral("mulberry32")), draws.error().c_str());
    }

    void drawsStopWhenAsked()
    {
        const auto logits = zipfLogits(4096, 1.1);
        int polls = 0;
        const auto draws = explorerDraws(logits, ExplorerChain{Semantics::Hf, SamplerSettings{}, {}, {}}, 1'000'000,
                                         "mt19937_64", 3, [&polls] { return ++polls == 2; });
        QVERIFY(draws.ok());
        QCOMPARE(draws->counts.draws, std::uint64_t{8192});
    }
};

QTEST_GUILESS_MAIN(TestExplorerChain)
#include "tst_explorer_chain.moc"
