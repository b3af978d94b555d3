// A GGUF model in the experiments (issue 36; app/kinds/loop_spec.h, engine/transformer/gguf_model.h),
// on the tiny llama the test writer makes (tests/support/tiny_gguf_model.h). Junk risk along a
// model's reply reads, at step t, the logits of a fresh pass over the prompt and the reply's first
// t tokens; a sweep over whole replies gives each seed the reply the Loop gives it, for 1 and 2
// threads. The Loop: a greedy run picks,
// at every step, the argmax of the logits a fresh forward pass over the whole context gives; the
// same file gives the same CSV bytes; a branch re-evaluates only its own steps and its shared
// steps keep their bits; the prompt goes through the model's tokenizer; files naming a missing
// model, a run past the context or a token the model lacks are refused with the key named; and
// `logitlab-cli run` writes the steps and the model's SHA-256.
#include "app/io/file_sha256.h"
#include "app/io/gguf_model_file.h"
#include "app/kinds/batch_model_decode.h"
#include "app/kinds/experiment_result.h"
#include "app/kinds/loop_job.h"
#include "app/kinds/loop_spec.h"
#include "app/kinds/result_table.h"
#include "app/kinds/seed_sweep_spec.h"
#include "app/kinds/sequence_sweep_job.h"
#include "app/kinds/step_source.h"
#include "engine/gguf/gguf_file.h"
#include "engine/transformer/gguf_model.h"
#include "engine/transformer/transformer.h"
#include "support/test_support.h"
#include "support/tiny_gguf_model.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

using namespace logitlab;
using engine::gguf::GgmlType;

namespace {

// The tiny model with room for a run (the writer's default context is 16).
QString writeTinyModel(const QTemporaryDir& dir, GgmlType type, const QString& name = QStringLiteral("tiny.gguf"))
{
    const QString path = dir.filePath(name);
    if (!test::tinyLlama(type, true, 64).writeFile(path.toStdString()))
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

// `model` written as `name` with `tensor`'s weight `index` (F32) made NaN.
QString writePoisonedModel(const QTemporaryDir& dir, const test::GgufWriter& model, const QString& name,
                           const std::string& tensor, std::size_t index)
{
    std::vector<std::byte> bytes = model.bytes();
    const auto file = engine::gguf::GgufFile::parse(bytes, "tiny");
    if (!file || !file.value().tensor(tensor))
        qFatal("no tensor %s", tensor.c_str());
    const std::size_t at = file.value().dataOffset() + file.value().tensor(tensor)->offset + 4 * index;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::memcpy(bytes.data() + at, &nan, sizeof nan);
    const QString path = dir.filePath(name);
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly) ||
        out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<qint64>(bytes.size())) !=
            static_cast<qint64>(bytes.size()))
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

QJsonObject loopRoot(const QString& modelFile, int steps = 12)
{
    return {{"logitlab", 1},   {"experiment", "loop"},     {"name", "gguf-loop"},
            {"model", "gguf"}, {"model-file", modelFile},  {"prompt", "hi!"},
            {"steps", steps},  {"semantics", "llama.cpp"}, {"chain", "temperature=0"},
            {"seed", 42},      {"rng", "mulberry32"}};
}

app::LoopSpec parsed(const QJsonObject& root)
{
    const auto spec = app::parseLoop(root, QStringLiteral("f.json"));
    if (!spec)
        qFatal("%s", spec.error().c_str());
    return spec.value();
}

}  // namespace

// The result of `root` run through its kind, relative paths from `dir`.
app::ExperimentResult runKind(const QJsonObject& root, const QString& dir, int threads = 1)
{
    const app::ExperimentKind* kind = app::findExperimentKind(root.value(QStringLiteral("experiment")).toString());
    if (!kind)
        qFatal("no kind");
    app::RunContext context;
    context.source = QStringLiteral("f.json");
    context.baseDir = dir;
    context.threads = threads;
    return kind->run(root, context);
}

class TestGgufExperiments : public QObject {
    Q_OBJECT

private slots:
    // F32 weights give the same bits for any split of the context into passes, so the run's
    // incremental steps equal fresh passes over the whole context.
    void greedyPicksTheArgmaxOfEachStep()
    {
        QTemporaryDir dir;
        const QString path = writeTinyModel(dir, GgmlType::F32);
        const app::LoopSpec spec = parsed(loopRoot(QStringLiteral("tiny.gguf")));
        const app::LoopOutcome outcome = app::runLoop(spec, dir.path(), {});
        QVERIFY2(outcome.status.finished(), qPrintable(outcome.status.message));
        QCOMPARE(outcome.promptText, QStringLiteral("hi!"));
        const auto& steps = outcome.tracks.front().steps;
        QCOMPARE(steps.size(), std::size_t{12});
        std::vector<std::int32_t> context{1, 7, 9};  // <s> ▁hi !
        QCOMPARE(outcome.mainLoop->prompt(), context);
        for (const engine::LoopStep& step : steps) {
            const std::vector<float> logits = test::freshLogits(path.toStdString(), context);
            QCOMPARE(logits.size(), test::kTinyTokens.size());
            const auto argmax =
                static_cast<std::int32_t>(std::max_element(logits.begin(), logits.end()) - logits.begin());
            QCOMPARE(step.token, argmax);
            QCOMPARE(step.rank, std::int64_t{1});
            context.push_back(step.token);
        }
        QCOMPARE(outcome.tracks.front().tokens.size(), qsizetype{12});
        QCOMPARE(outcome.vocabulary.size(), test::kTinyTokens.size());
        QCOMPARE(outcome.vocabulary[7], std::string(" hi"));  // names are the tokens' text
    }

    // Each architecture (llama, qwen2, gpt2 in the tests' small shape, F32): the Loop's greedy
    // steps are the argmax of fresh passes, and `logitlab-cli run` of the file writes them.
    void everyArchitectureRunsTheLoop_data()
    {
        QTest::addColumn<int>("arch");
        QTest::newRow("llama") << int(engine::transformer::Architecture::Llama);
        QTest::newRow("qwen2") << int(engine::transformer::Architecture::Qwen2);
        QTest::newRow("gpt2") << int(engine::transformer::Architecture::Gpt2);
    }
    void everyArchitectureRunsTheLoop()
    {
        QFETCH(int, arch);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tiny.gguf"));
        QVERIFY(test::tinyModel(static_cast<engine::transformer::Architecture>(arch), GgmlType::F32, 64)
                    .writeFile(path.toStdString()));
        const QJsonObject root = loopRoot(QStringLiteral("tiny.gguf"), 10);
        // The CLI first, while this process has no model threads running (TSan: no fork after them).
        QFile file(dir.filePath(QStringLiteral("gguf-loop.json")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(root).toJson());
        file.close();
        QProcess cli;
        cli.start(test::binaryPath(QStringLiteral("logitlab-cli")),
                  {QStringLiteral("run"), file.fileName(), QStringLiteral("--out"), dir.filePath(QStringLiteral("out")),
                   QStringLiteral("--formats"), QStringLiteral("csv,svg")});
        QVERIFY(cli.waitForFinished(120000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("out/gguf-loop.csv"))));
        // The last step's bars name all 12 tokens, "<s>" and "<unk>" too: Qt Charts would read
        // those as HTML tags and draw empty labels.
        QFile svg(dir.filePath(QStringLiteral("out/gguf-loop-last-step.svg")));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QStringList texts;
        QXmlStreamReader xml(&svg);
        while (!xml.atEnd())
            if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("text"))
                texts << xml.readElementText(QXmlStreamReader::IncludeChildElements);
        const auto shown = [&texts](const QString& name) {
            return texts.contains(name) || texts.contains(QLatin1Char('[') + name + QLatin1Char(']'));  // the pick
        };
        QVERIFY2(shown(QStringLiteral("<s>")) && shown(QStringLiteral("<unk>")),
                 qPrintable(texts.join(QLatin1Char('|'))));
        const app::LoopOutcome outcome = app::runLoop(parsed(root), dir.path(), {});
        QVERIFY2(outcome.status.finished(), qPrintable(outcome.status.message));
        std::vector<std::int32_t> context{1, 7, 9};
        for (const engine::LoopStep& step : outcome.tracks.front().steps) {
            const std::vector<float> logits = test::freshLogits(path.toStdString(), context);
            QCOMPARE(logits.size(), test::kTinyTokens.size());
            QCOMPARE(step.token,
                     static_cast<std::int32_t>(std::max_element(logits.begin(), logits.end()) - logits.begin()));
            context.push_back(step.token);
        }
    }

    // Every weight type: a run twice gives the same CSV bytes, and a run on a source that has
    // served another run (the cache holds that run) gives the same steps as a fresh one.
    void runsAreReproducible_data()
    {
        QTest::addColumn<int>("type");
        QTest::newRow("F32") << int(GgmlType::F32);
        QTest::newRow("Q8_0") << int(GgmlType::Q8_0);
        QTest::newRow("F16") << int(GgmlType::F16);
    }
    void runsAreReproducible()
    {
        QFETCH(int, type);
        QTemporaryDir dir;
        writeTinyModel(dir, static_cast<GgmlType>(type));
        QJsonObject root = loopRoot(QStringLiteral("tiny.gguf"), 20);
        root.insert("chain", "temperature=1.5");
        const app::LoopSpec spec = parsed(root);
        const app::ExperimentResult a = app::loopResult(spec, app::runLoop(spec, dir.path(), {}), dir.path());
        const app::LoopOutcome second = app::runLoop(spec, dir.path(), {});
        const app::ExperimentResult b = app::loopResult(spec, second, dir.path());
        QVERIFY2(a.status.finished(), qPrintable(a.status.message));
        QCOMPARE(a.tables.size(), b.tables.size());
        for (std::size_t t = 0; t < a.tables.size(); ++t)
            QCOMPARE(app::resultTableCsv(a.provenance, a.tables[t]), app::resultTableCsv(b.provenance, b.tables[t]));

        // The same source again, after its cache moved on: the same bits.
        const app::LoopOutcome reused = app::runLoop(spec, dir.path(), {}, second.source);
        QVERIFY(reused.status.finished());
        const auto& x = second.tracks.front().steps;
        const auto& y = reused.tracks.front().steps;
        QCOMPARE(x.size(), y.size());
        for (std::size_t i = 0; i < x.size(); ++i) {
            QCOMPARE(y[i].token, x[i].token);
            QCOMPARE(std::bit_cast<std::uint64_t>(y[i].modelProbability),
                     std::bit_cast<std::uint64_t>(x[i].modelProbability));
        }
    }

    // A reseeded branch at step 5 shares steps 0..4 bit for bit and costs one pass per step of its
    // own: the source truncates its cache instead of evaluating the prompt again.
    void branchesReuseTheCache()
    {
        QTemporaryDir dir;
        writeTinyModel(dir, GgmlType::Q8_0);
        QJsonObject root = loopRoot(QStringLiteral("tiny.gguf"), 10);
        root.insert("chain", "temperature=2");
        root.insert("branch", QJsonObject{{"at", 5}, {"seed", 7}});
        const app::LoopSpec spec = parsed(root);
        const app::LoopOutcome outcome = app::runLoop(spec, dir.path(), {});
        QVERIFY2(outcome.status.finished(), qPrintable(outcome.status.message));
        QCOMPARE(outcome.tracks.size(), std::size_t{2});
        const auto& main = outcome.tracks[0].steps;
        const auto& branch = outcome.tracks[1].steps;
        for (std::size_t i = 0; i < 5; ++i) {
            QCOMPARE(branch[i].token, main[i].token);
            QCOMPARE(std::bit_cast<std::uint64_t>(branch[i].modelProbability),
                     std::bit_cast<std::uint64_t>(main[i].modelProbability));
        }
        const auto* source = dynamic_cast<const engine::transformer::GgufModelSource*>(outcome.source.get());
        QVERIFY(source);
        QCOMPARE(source->evaluations(), std::size_t{10 + 5});  // the prompt once, then one per step
    }

    void forcedBranchTokenByItsText()
    {
        QTemporaryDir dir;
        writeTinyModel(dir, GgmlType::F32);
        QJsonObject root = loopRoot(QStringLiteral("tiny.gguf"), 6);
        root.insert("branch", QJsonObject{{"at", 2}, {"token", "x"}});
        const app::LoopSpec spec = parsed(root);
        const app::LoopOutcome outcome = app::runLoop(spec, dir.path(), {});
        QVERIFY2(outcome.status.finished(), qPrintable(outcome.status.message));
        QCOMPARE(outcome.tracks[1].steps[2].token, std::int32_t{11});
        QVERIFY(outcome.tracks[1].steps[2].forced);
    }

    void fileRoundTrips()
    {
        const app::LoopSpec spec = parsed(loopRoot(QStringLiteral("models/tiny.gguf")));
        QCOMPARE(spec.modelFile, QStringLiteral("models/tiny.gguf"));
        const auto again = app::parseLoop(app::toJson(spec), QStringLiteral("again"));
        QVERIFY2(again, again ? "" : again.error().c_str());
        QVERIFY(again.value() == spec);
    }

    void badFilesAreRefused_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("no model file") << QStringLiteral("model-file") << QJsonValue(QString())
                                       << QStringLiteral("f.json: model-file: must name the GGUF model file");
        QTest::newRow("empty prompt") << QStringLiteral("prompt") << QJsonValue(QString())
                                      << QStringLiteral("f.json: prompt: must not be empty");
        QTest::newRow("no steps") << QStringLiteral("steps") << QJsonValue(0) << QStringLiteral("f.json: steps:");
    }
    void badFilesAreRefused()
    {
        QFETCH(QString, key);
        QFETCH(QJsonValue, value);
        QFETCH(QString, message);
        QJsonObject root = loopRoot(QStringLiteral("tiny.gguf"));
        root.insert(key, value);
        const auto spec = app::parseLoop(root, QStringLiteral("f.json"));
        QVERIFY(!spec);
        QVERIFY2(QString::fromStdString(spec.error()).startsWith(message), spec.error().c_str());
    }

    // What only the open model can tell is refused when the run starts, with the key named.
    void badRunsFail_data()
    {
        QTest::addColumn<QJsonObject>("changes");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing model") << QJsonObject{{"model-file", "absent.gguf"}} << QStringLiteral("model-file: ");
        QTest::newRow("past the context") << QJsonObject{{"steps", 62}}
                                          << QStringLiteral("steps: the prompt's 3 tokens and 62 steps are more than "
                                                            "the 64 positions");
        QTest::newRow("unknown branch token")
            << QJsonObject{{"branch", QJsonObject{{"at", 1}, {"token", "zebra"}}}}
            << QStringLiteral("branch.token: 'zebra' is not a token of tiny.gguf (12 tokens)");
        QTest::newRow("not a model") << QJsonObject{{"model-file", "notes.gguf"}} << QStringLiteral("model-file: ");
    }
    void badRunsFail()
    {
        QFETCH(QJsonObject, changes);
        QFETCH(QString, message);
        QTemporaryDir dir;
        writeTinyModel(dir, GgmlType::F32);
        QFile notes(dir.filePath(QStringLiteral("notes.gguf")));
        QVERIFY(notes.open(QIODevice::WriteOnly));
        notes.write("not a model\n");
        notes.close();
        QJsonObject root = loopRoot(QStringLiteral("tiny.gguf"));
        for (auto it = changes.begin(); it != changes.end(); ++it)
            root.insert(it.key(), it.value());
        const app::LoopOutcome outcome = app::runLoop(parsed(root), dir.path(), {});
        QCOMPARE(outcome.status.state, app::RunStatus::State::Failed);
        QVERIFY2(outcome.status.message.startsWith(message), qPrintable(outcome.status.message));
        QVERIFY(!outcome.status.message.contains(QLatin1Char('\n')));
    }

    // A model whose logits come out NaN fails every run that reads it, with the model file and
    // the step named, instead of sampling from flat rows: NaN in the output norm spoils every
    // pass; NaN in the embedding of "x" (id 11; qwen2's output is untied) spoils the passes
    // after a branch forces "x".
    void nonFiniteLogitsFailTheRun()
    {
        QTemporaryDir dir;
        writePoisonedModel(dir, test::tinyLlama(GgmlType::F32, true, 64), QStringLiteral("norm.gguf"),
                           "output_norm.weight", 5);
        writePoisonedModel(dir, test::tinyModel(engine::transformer::Architecture::Qwen2, GgmlType::F32),
                           QStringLiteral("x.gguf"), "token_embd.weight", 11 * 64);
        const QString expected = QStringLiteral("model-file: the model's logits after ");
        const auto failsNamingTheModel = [&](const app::LoopOutcome& outcome, const QString& after) {
            QCOMPARE(outcome.status.state, app::RunStatus::State::Failed);
            QVERIFY2(outcome.status.message.startsWith(expected + after), qPrintable(outcome.status.message));
            QVERIFY2(outcome.status.message.contains(QStringLiteral("are not finite (NaN for token id ")),
                     qPrintable(outcome.status.message));
        };
        failsNamingTheModel(app::runLoop(parsed(loopRoot(QStringLiteral("norm.gguf"))), dir.path(), {}),
                            QStringLiteral("3 tokens"));

        // "x" is never the greedy pick after "hi!": the main run is whole, its branch is not.
        const app::LoopOutcome clean = app::runLoop(parsed(loopRoot(QStringLiteral("x.gguf"), 4)), dir.path(), {});
        QVERIFY2(clean.status.finished(), qPrintable(clean.status.message));
        const std::vector<std::int32_t> picks = clean.mainLoop->tokens();
        QCOMPARE(picks.size(), std::size_t{4});
        QCOMPARE(std::count(picks.begin(), picks.end(), 11), 0);
        QJsonObject branched = loopRoot(QStringLiteral("x.gguf"), 4);
        branched.insert("branch", QJsonObject{{"at", 1}, {"token", "x"}});
        failsNamingTheModel(app::runLoop(parsed(branched), dir.path(), {}), QStringLiteral("5 tokens"));

        app::ReplySpec reply;
        reply.modelFile = QStringLiteral("norm.gguf");
        reply.prompt = QStringLiteral("hi!");
        reply.length = 4;
        reply.chain = QStringLiteral("temperature=1");
        const auto steps = app::replySteps(reply, dir.path());
        QVERIFY(!steps);
        QVERIFY2(QString::fromStdString(steps.error()).startsWith(QStringLiteral("reply.") + expected),
                 steps.error().c_str());

        QJsonObject sweepRoot{{"logitlab", 1},
                              {"experiment", "seed-sweep"},
                              {"name", "nan-replies"},
                              {"source", "sequence"},
                              {"model", "gguf"},
                              {"model-file", "norm.gguf"},
                              {"prompt", "hi!"},
                              {"steps", 3},
                              {"semantics", "llama.cpp"},
                              {"chain", "temperature=1"},
                              {"rng", "mulberry32"},
                              {"seeds", QJsonObject{{"first", 1}, {"count", 4}}}};
        const auto sweep = app::parseSeedSweep(sweepRoot, QStringLiteral("f.json"));
        QVERIFY(sweep);
        const app::SequenceSweepOutcome swept = app::runSequenceSweep(sweep.value(), dir.path(), {}, 2, {});
        QCOMPARE(swept.status.state, app::RunStatus::State::Failed);
        QVERIFY2(swept.status.message.contains(QStringLiteral("model-file: seed ")) &&
                     swept.status.message.contains(QStringLiteral("are not finite")),
                 qPrintable(swept.status.message));

        const auto next =
            app::ggufNextTokenDistribution(dir.filePath(QStringLiteral("norm.gguf")), QStringLiteral("hi!"));
        QVERIFY(!next);
        QVERIFY2(next.error().find("are not finite (NaN") != std::string::npos, next.error().c_str());
    }

    // Every architecture through every kind that runs a model (the Loop: everyArchitectureRunsTheLoop):
    // junk risk along its reply, a sweep of its replies, batch invariance on its kernels, and the
    // Explorer's next-token distribution, each finished with the shape of result it promises.
    void everyArchitectureRunsEveryKind_data() { everyArchitectureRunsTheLoop_data(); }
    void everyArchitectureRunsEveryKind()
    {
        QFETCH(int, arch);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tiny.gguf"));
        QVERIFY(test::tinyModel(static_cast<engine::transformer::Architecture>(arch), GgmlType::Q8_0, 64)
                    .writeFile(path.toStdString()));
        app::ReplySpec replySpec;
        replySpec.modelFile = QStringLiteral("tiny.gguf");
        replySpec.prompt = QStringLiteral("hi!");
        replySpec.length = 6;
        replySpec.chain = QStringLiteral("temperature=1");
        const QJsonObject reply = app::replyToJson(replySpec);
        const QJsonObject junk{{"logitlab", 1},
                               {"experiment", "junk-risk"},
                               {"name", "arch-junk"},
                               {"reply", reply},
                               {"junk", QJsonObject{{"kind", "below-probability"}, {"threshold", 0.01}}},
                               {"settings", QJsonArray{QJsonObject{{"label", "plain"}, {"temperature", 1}}}},
                               {"replies", 500},
                               {"seed", 42},
                               {"rng", "mt19937_64"}};
        const QJsonObject sweep{{"logitlab", 1},
                                {"experiment", "seed-sweep"},
                                {"name", "arch-replies"},
                                {"source", "sequence"},
                                {"model", "gguf"},
                                {"model-file", "tiny.gguf"},
                                {"prompt", "hi!"},
                                {"steps", 4},
                                {"semantics", "llama.cpp"},
                                {"chain", "temperature=2"},
                                {"rng", "mulberry32"},
                                {"seeds", QJsonObject{{"first", 1}, {"count", 6}}}};
        const QJsonObject batch{{"logitlab", 1},
                                {"experiment", "batch-invariance"},
                                {"name", "arch-batch"},
                                {"study", "model-decode"},
                                {"model-file", "tiny.gguf"},
                                {"prompt", "hi!"},
                                {"steps", 5},
                                {"max_batch", 8}};
        for (const QJsonObject& root : {junk, sweep, batch}) {
            const app::ExperimentResult result = runKind(root, dir.path(), 2);
            QVERIFY2(result.status.finished(), qPrintable(result.status.message));
            QVERIFY(!result.tables.empty());
            QVERIFY2(result.tables.front().rows > 0, qPrintable(result.name));
            QVERIFY(
                app::resultTableCsv(result.provenance, result.tables.front()).contains(app::fileSha256(path).value()));
        }
        const auto next = app::ggufNextTokenDistribution(path, QStringLiteral("hi!"));
        QVERIFY2(next, next ? "" : next.error().c_str());
        QCOMPARE(next->tokens.size(), test::kTinyTokens.size());
        QVERIFY(next->logits.isFinite().all());
        QCOMPARE(next->logits.cast<float>().matrix(),
                 Eigen::Map<const Eigen::VectorXf>(test::freshLogits(path.toStdString(), {1, 7, 9}).data(), 12).eval());
    }

    // Batch invariance on a model: batch 1's greedy reply is the Loop's greedy reply; on F32
    // weights the batched kernel (eigen-gemm) has batch 1's arithmetic (same bits), a split-K
    // plan changes the bits; the CSV is the same for 1 and 2 threads; a bad file or run names
    // the key.
    void batchInvarianceStudyOnAModel()
    {
        QTemporaryDir dir;
        writeTinyModel(dir, GgmlType::F32);
        const QJsonObject root{{"logitlab", 1},
                               {"experiment", "batch-invariance"},
                               {"name", "bi-model"},
                               {"study", "model-decode"},
                               {"model-file", "tiny.gguf"},
                               {"prompt", "hi!"},
                               {"steps", 8},
                               {"max_batch", 9},
                               {"plan", QJsonArray{QJsonObject{{"up_to", 1}, {"kernel", "eigen-gemv"}},
                                                   QJsonObject{{"up_to", 4}, {"kernel", "split-k-2"}},
                                                   QJsonObject{{"up_to", 8}, {"kernel", "eigen-gemm"}},
                                                   QJsonObject{{"up_to", 9}, {"kernel", "invariant"}}}}};
        const auto spec = app::parseBatchInvariance(root, QStringLiteral("f.json"));
        QVERIFY2(spec, spec ? "" : spec.error().c_str());
        QCOMPARE(app::toJson(spec.value()), root);
        const app::ModelDecodeOutcome outcome = app::runModelDecode(spec.value(), dir.path(), 1, {});
        QVERIFY2(outcome.status.finished(), qPrintable(outcome.status.message));
        QCOMPARE(outcome.rows.size(), std::size_t{9});
        QCOMPARE(outcome.promptTokens, 3);
        for (const app::ModelDecodeRow& row : outcome.rows) {
            const bool split = row.batch >= 2 && row.batch <= 4;
            QCOMPARE(row.kernel, split            ? QStringLiteral("split-k-2")
                                 : row.batch == 1 ? QStringLiteral("eigen-gemv")
                                 : row.batch <= 8 ? QStringLiteral("eigen-gemm")
                                                  : QStringLiteral("invariant"));
            QCOMPARE(row.splitK, split ? 2 : 1);
            QCOMPARE(row.blockKernels, row.batch < 5 || row.batch > 8);
            if (!split) {  // F32: one pass a row, whatever the kernel
                QCOMPARE(row.maxDifference, 0.0);
                QCOMPARE(row.firstDivergent, -1);
                QCOMPARE(row.reply, outcome.referenceReply);
            } else {
                QVERIFY(row.maxDifference > 0.0);
                QVERIFY(row.maxDifference < 1e-4);
            }
        }
        QJsonObject greedy = loopRoot(QStringLiteral("tiny.gguf"), 8);
        const app::LoopOutcome loop = app::runLoop(parsed(greedy), dir.path(), {});
        QVERIFY2(loop.status.finished(), qPrintable(loop.status.message));
        const auto model = app::openGgufModel(dir.filePath(QStringLiteral("tiny.gguf")));
        QVERIFY(model);
        QCOMPARE(outcome.referenceReply, QString::fromStdString(model.value()->decode(loop.mainLoop->tokens())));

        const app::ExperimentResult one = runKind(root, dir.path(), 1);
        const app::ExperimentResult two = runKind(root, dir.path(), 2);
        QVERIFY2(one.status.finished(), qPrintable(one.status.message));
        QCOMPARE(app::resultTableCsv(one.provenance, one.tables.front()),
                 app::resultTableCsv(two.provenance, two.tables.front()));
        QVERIFY(app::resultTableCsv(one.provenance, one.tables.front())
                    .contains(app::fileSha256(dir.filePath(QStringLiteral("tiny.gguf"))).value()));

        const auto refused = [&](const QJsonObject& changes, const QString& message) {
            QJsonObject bad = root;
            for (auto it = changes.begin(); it != changes.end(); ++it)
                bad.insert(it.key(), it.value());
            const auto parsedBad = app::parseBatchInvariance(bad, QStringLiteral("f.json"));
            const QString error = parsedBad ? app::runModelDecode(parsedBad.value(), dir.path(), 1, {}).status.message
                                            : QString::fromStdString(parsedBad.error());
            QVERIFY2(error.startsWith(message), qPrintable(error));
        };
        refused({{"model-file", ""}}, QStringLiteral("f.json: model-file: must name the GGUF model file"));
        refused({{"prompt", ""}}, QStringLiteral("f.json: prompt: must not be empty"));
        refused({{"model", QJsonObject{{"vocabulary", 4096}}}}, QStringLiteral("f.json: model"));
        refused({{"steps", 62}}, QStringLiteral("steps: the prompt's 3 tokens and 62 steps are more than the 64"));
        refused({{"model-file", "absent.gguf"}}, QStringLiteral("model-file: "));
    }

    // Junk risk along the model's reply: step t's distribution is a fresh pass's over the prompt
    // and the reply's first t tokens (F32: the same bits), the chosen tokens named by their text.
    void replyStepsAreTheModelsOwn()
    {
        QTemporaryDir dir;
        const QString path = writeTinyModel(dir, GgmlType::F32);
        app::ReplySpec reply;
        reply.modelFile = QStringLiteral("tiny.gguf");
        reply.prompt = QStringLiteral("hi!");
        reply.length = 10;
        reply.chain = QStringLiteral("temperature=1.5");
        auto steps = app::replySteps(reply, dir.path());
        QVERIFY2(steps, steps ? "" : steps.error().c_str());
        QCOMPARE(steps->count, std::size_t{10});
        QCOMPARE(steps->tokens.size(), test::kTinyTokens.size());
        std::vector<std::int32_t> context{1, 7, 9};
        for (std::size_t t = 0; t < steps->count; ++t) {
            const auto logits = steps->logits(t);
            QVERIFY(logits);
            const std::vector<float> fresh = test::freshLogits(path.toStdString(), context);
            QCOMPARE(static_cast<std::size_t>(logits->size()), fresh.size());
            for (std::size_t i = 0; i < fresh.size(); ++i)
                QCOMPARE(std::bit_cast<std::uint64_t>((*logits)[static_cast<Eigen::Index>(i)]),
                         std::bit_cast<std::uint64_t>(static_cast<double>(fresh[i])));
            const auto id =
                std::find(steps->tokens.begin(), steps->tokens.end(), steps->chosen[t]) - steps->tokens.begin();
            QVERIFY(id < static_cast<std::ptrdiff_t>(steps->tokens.size()));
            context.push_back(static_cast<std::int32_t>(id));
        }

        // The experiment file runs through its kind and names the model's hash.
        const QJsonObject root{{"logitlab", 1},
                               {"experiment", "junk-risk"},
                               {"name", "gguf-junk"},
                               {"reply", app::replyToJson(reply)},
                               {"junk", QJsonObject{{"kind", "below-probability"}, {"threshold", 0.01}}},
                               {"settings", QJsonArray{QJsonObject{{"label", "plain"}, {"temperature", 1}}}},
                               {"replies", 2000},
                               {"seed", 42},
                               {"rng", "mt19937_64"}};
        const app::ExperimentResult a = runKind(root, dir.path());
        QVERIFY2(a.status.finished(), qPrintable(a.status.message));
        const app::ExperimentResult b = runKind(root, dir.path(), 2);
        QCOMPARE(app::resultTableCsv(a.provenance, a.tables.front()),
                 app::resultTableCsv(b.provenance, b.tables.front()));
        QVERIFY(app::resultTableCsv(a.provenance, a.tables.front()).contains(app::fileSha256(path).value()));
    }

    // A sweep over whole replies: seed s's reply is the one the Loop gives seed s, the same for
    // 1 and 2 threads, its text the tokenizer's.
    void sequenceSweepGivesEachSeedItsLoopReply()
    {
        QTemporaryDir dir;
        writeTinyModel(dir, GgmlType::Q8_0);
        const QJsonObject root{{"logitlab", 1},
                               {"experiment", "seed-sweep"},
                               {"name", "gguf-replies"},
                               {"source", "sequence"},
                               {"model", "gguf"},
                               {"model-file", "tiny.gguf"},
                               {"prompt", "hi!"},
                               {"steps", 6},
                               {"semantics", "llama.cpp"},
                               {"chain", "temperature=2"},
                               {"rng", "mulberry32"},
                               {"seeds", QJsonObject{{"first", 1}, {"count", 8}}}};
        const auto spec = app::parseSeedSweep(root, QStringLiteral("f.json"));
        QVERIFY2(spec, spec ? "" : spec.error().c_str());
        QCOMPARE(spec->modelFile, QStringLiteral("tiny.gguf"));
        const app::SequenceSweepOutcome one = app::runSequenceSweep(spec.value(), dir.path(), {}, 1, {});
        const app::SequenceSweepOutcome two = app::runSequenceSweep(spec.value(), dir.path(), {}, 2, {});
        QVERIFY2(one.status.finished(), qPrintable(one.status.message));
        QCOMPARE(one.replies, two.replies);
        QVERIFY(one.census.replies.size() > 1);  // T = 2 over 12 tokens: the seeds differ
        for (std::size_t i = 0; i < one.seeds.size(); ++i) {
            QJsonObject loopRoot_ = loopRoot(QStringLiteral("tiny.gguf"), 6);
            loopRoot_.insert("chain", "temperature=2");
            loopRoot_.insert("seed", static_cast<qint64>(one.seeds[i]));
            const app::LoopOutcome loop = app::runLoop(parsed(loopRoot_), dir.path(), {});
            QCOMPARE(one.replies[i], loop.mainLoop->tokens());
        }
        QVERIFY(!one.replyTexts.isEmpty());
        QVERIFY(one.replyTexts.front().contains(QStringLiteral("hi")) || one.replyTexts.front().contains('!') ||
                one.replyTexts.front().contains('x') || one.replyTexts.front().contains('h'));
        QVERIFY(app::toJson(spec.value()).value(QStringLiteral("model-file")) == QStringLiteral("tiny.gguf"));
    }

    // A run on a model is bounded by its passes times the model's weights: SmolLM2-135M's
    // shape (134,515,008 weights) runs 29,000 passes, not 30,000; the refusal names the key, the
    // estimate and the limit.
    void modelWorkIsBounded()
    {
        const std::uint64_t smolLm2 = 134'515'008;
        QVERIFY(!app::modelWorkProblem(smolLm2, 29'000, "steps", "fewer"));
        const auto problem = app::modelWorkProblem(smolLm2, 30'000, "steps", "fewer steps");
        QVERIFY(problem);
        QVERIFY2(QString::fromStdString(*problem).startsWith(QStringLiteral("steps: ")), problem->c_str());
        QVERIFY2(problem->find("multiply-adds") != std::string::npos, problem->c_str());
        QVERIFY2(problem->find("fewer steps") != std::string::npos, problem->c_str());
    }

    // Models are read into memory whole (never mapped, so never a SIGBUS): one larger than the
    // machine's memory allows is refused with both sizes before anything is read.
    void modelsLargerThanMemoryAreRefused()
    {
        const qint64 gib = qint64{1} << 30;
        QVERIFY(app::modelMemoryLimit() >= gib);
        QVERIFY(!app::modelSizeProblem(QStringLiteral("m.gguf"), 3 * gib, 8 * gib));
        QVERIFY(!app::modelSizeProblem(QStringLiteral("m.gguf"), 8 * gib, 8 * gib));
        const auto problem = app::modelSizeProblem(QStringLiteral("m.gguf"), 9 * gib, 8 * gib);
        QVERIFY(problem);
        QCOMPARE(QString::fromStdString(*problem).left(72),
                 QStringLiteral("m.gguf: 9.0 GiB is more than this machine can hold in memory for a model"));
        QVERIFY2(problem->find("(8.0 GiB)") != std::string::npos, problem->c_str());
    }

    // A model file truncated while it is open (another program rewrites it): the open model
    // keeps running with the weights it read, no SIGBUS from a mapping (issue 34, item 11, for
    // models); opening the file again names what is wrong with it now.
    void truncatedModelFileKeepsTheOpenModel()
    {
        QTemporaryDir dir;
        const QString path = writeTinyModel(dir, GgmlType::F32);
        const std::vector<float> before = test::freshLogits(path.toStdString(), {1, 7, 9});
        auto model = app::openGgufModel(path);
        QVERIFY(model);
        auto source = engine::transformer::GgufModelSource::create(model.value(), 16, 2);
        QVERIFY(source);
        QFile file(path);
        QVERIFY(file.resize(200));
        std::vector<double> logits(source.value()->vocabSize());
        const std::vector<std::int32_t> context{1, 7, 9};
        source.value()->logits(0, context, logits.data());
        for (std::size_t i = 0; i < before.size(); ++i)
            QCOMPARE(logits[i], static_cast<double>(before[i]));
        const auto again = app::openGgufModel(path);
        QVERIFY(!again);
        QVERIFY2(QString::fromStdString(again.error()).startsWith(path), again.error().c_str());
    }

    // The model opened twice while held is opened once.
    void theOpenModelIsShared()
    {
        QTemporaryDir dir;
        const QString path = writeTinyModel(dir, GgmlType::F32);
        const auto a = app::openGgufModel(path);
        const auto b = app::openGgufModel(path);
        QVERIFY(a && b);
        QCOMPARE(a.value().get(), b.value().get());
    }

    // `logitlab-cli run` on a file beside its model: the steps' CSV, read back, holds the
    // in-process tokens, and the provenance names the model's SHA-256.
    void cliRunWritesTheStepsAndTheModelsHash()
    {
        QTemporaryDir dir;
        const QString path = writeTinyModel(dir, GgmlType::Q8_0);
        const QJsonObject root = loopRoot(QStringLiteral("tiny.gguf"), 8);
        QFile file(dir.filePath(QStringLiteral("gguf-loop.json")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(root).toJson());
        file.close();
        const app::LoopOutcome outcome = app::runLoop(parsed(root), dir.path(), {});
        QVERIFY(outcome.status.finished());

        QTemporaryDir out;
        QProcess cli;
        cli.start(test::binaryPath(QStringLiteral("logitlab-cli")),
                  {QStringLiteral("run"), file.fileName(), QStringLiteral("--out"), out.path(),
                   QStringLiteral("--formats"), QStringLiteral("csv")});
        QVERIFY(cli.waitForFinished(120000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        QFile csv(QDir(out.path()).filePath(QStringLiteral("gguf-loop.csv")));
        QVERIFY2(csv.open(QIODevice::ReadOnly), qPrintable(csv.fileName()));
        const QString text = QString::fromUtf8(csv.readAll());
        QVERIFY(text.contains(QStringLiteral("sha256=") + app::fileSha256(path).value()));
        QStringList rows;
        for (const QString& line : text.split(QLatin1Char('\n')))
            if (!line.isEmpty() && !line.startsWith(QLatin1Char('#')))
                rows << line;
        QCOMPARE(rows.size(), qsizetype{1 + 8});
        const QStringList header = test::csvFields(rows[0]);
        const auto tokenId = header.indexOf(QStringLiteral("token_id"));
        QVERIFY(tokenId >= 0);
        for (std::size_t i = 0; i < 8; ++i)
            QCOMPARE(test::csvFields(rows[static_cast<qsizetype>(i + 1)])[tokenId].toInt(),
                     outcome.tracks.front().steps[i].token);
    }
};

QTEST_GUILESS_MAIN(TestGgufExperiments)
#include "tst_gguf_experiments.moc"
