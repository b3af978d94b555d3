// `logitlab-cli tokenize` and `logitlab-cli logits` (issue 36) on a tiny random llama model the
// test writer makes (a SentencePiece vocabulary of 12 tokens, one layer, Q8_0 and F16 matrices):
// the ids and pieces, the logits equal to the engine's own forward pass bit for bit (their text
// reads back as the same floats), the same for a prompt and its ids and for 1 and 2 threads,
// the top-K table and the one-per-line form, and each mistake refused with one line, exit 2.
#include "engine/gguf/gguf_file.h"
#include "engine/transformer/transformer.h"
#include "support/gguf_writer.h"
#include "support/test_support.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <bit>

using namespace logitlab;
using engine::gguf::GgmlType;

namespace {

const std::vector<std::string> kTokens = {"<unk>",          "<s>", "</s>", "\xe2\x96\x81",  "h", "i", "\xe2\x96\x81h",
                                          "\xe2\x96\x81hi", "hi",  "!",    "\xe2\x96\x81!", "x"};

// A one-layer llama of width 32 with random weights (matrices in `matrices`).
test::GgufWriter tinyLlama(GgmlType matrices, bool withTokenizer = true)
{
    test::GgufWriter w;
    w.addString("general.architecture", "llama");
    w.addUint32("llama.embedding_length", 32);
    w.addUint32("llama.block_count", 1);
    w.addUint32("llama.attention.head_count", 2);
    w.addUint32("llama.attention.head_count_kv", 1);
    w.addUint32("llama.feed_forward_length", 64);
    w.addUint32("llama.context_length", 16);
    w.addUint32("llama.rope.dimension_count", 16);
    w.addFloat32("llama.rope.freq_base", 10000.0f);
    w.addFloat32("llama.attention.layer_norm_rms_epsilon", 1e-5f);
    if (withTokenizer) {
        w.addString("tokenizer.ggml.model", "llama");
        w.addStringArray("tokenizer.ggml.tokens", kTokens);
        w.addFloatArray("tokenizer.ggml.scores", {0, 0, 0, -5, -6, -6, -1, 0, -2, -6, -3, -6});
        w.addInt32Array("tokenizer.ggml.token_type", {2, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1});
        w.addUint32("tokenizer.ggml.bos_token_id", 1);
        w.addUint32("tokenizer.ggml.eos_token_id", 2);
        w.addUint32("tokenizer.ggml.unknown_token_id", 0);
        w.addBool("tokenizer.ggml.add_bos_token", true);
    }
    std::uint32_t seed = 1;
    const auto tensor = [&](const std::string& name, GgmlType type, std::vector<std::uint64_t> ne, float scale) {
        std::uint64_t n = 1;
        for (const auto d : ne)
            n *= d;
        w.addTensor(name, type, std::move(ne), test::randomWeights(n, seed++, scale));
    };
    const auto norm = [&](const std::string& name) {
        std::vector<float> ones(32, 1.0f);
        w.addTensor(name, GgmlType::F32, {32}, ones);
    };
    tensor("token_embd.weight", matrices, {32, kTokens.size()}, 1.0f);
    norm("blk.0.attn_norm.weight");
    norm("blk.0.ffn_norm.weight");
    tensor("blk.0.attn_q.weight", matrices, {32, 32}, 0.3f);
    tensor("blk.0.attn_k.weight", matrices, {32, 16}, 0.3f);
    tensor("blk.0.attn_v.weight", matrices, {32, 16}, 0.3f);
    tensor("blk.0.attn_output.weight", GgmlType::F16, {32, 32}, 0.3f);
    tensor("blk.0.ffn_gate.weight", matrices, {32, 64}, 0.3f);
    tensor("blk.0.ffn_up.weight", matrices, {32, 64}, 0.3f);
    tensor("blk.0.ffn_down.weight", matrices, {64, 32}, 0.2f);
    norm("output_norm.weight");
    return w;
}

QString writeModel(const QTemporaryDir& dir, const test::GgufWriter& w,
                   const QString& name = QStringLiteral("tiny.gguf"))
{
    const QString path = dir.filePath(name);
    if (!w.writeFile(path.toStdString()))
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

QJsonObject json(const test::CliRun& run) { return QJsonDocument::fromJson(run.out).object(); }

// The logits the engine computes for `ids`, in process.
std::vector<float> engineLogits(const QString& path, const std::vector<std::int32_t>& ids)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray bytes = file.readAll();
    const auto gguf = engine::gguf::GgufFile::parse(
        std::as_bytes(std::span(bytes.constData(), static_cast<std::size_t>(bytes.size()))), "tiny.gguf");
    if (!gguf)
        return {};
    engine::transformer::TransformerOptions options;
    options.context = static_cast<std::int64_t>(ids.size());
    auto model = engine::transformer::Transformer::load(*gguf, options);
    if (!model)
        return {};
    const auto logits = model.value().evaluate(ids);
    if (!logits)
        return {};
    return {logits->begin(), logits->end()};
}

}  // namespace

class TestGgufCli : public QObject {
    Q_OBJECT
private slots:
    void tokenize()
    {
        QTemporaryDir dir;
        const QString model = writeModel(dir, tinyLlama(GgmlType::Q8_0));
        auto run = test::runCli({QStringLiteral("tokenize"), QStringLiteral("--model"), model, QStringLiteral("--text"),
                                 QStringLiteral("hi!"), QStringLiteral("--json")});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject o = json(run);
        QCOMPARE(o.value(QStringLiteral("token_ids")).toArray(), (QJsonArray{1, 7, 9}));
        QCOMPARE(o.value(QStringLiteral("pieces")).toArray(),
                 (QJsonArray{QStringLiteral("<s>"), QStringLiteral(" hi"), QStringLiteral("!")}));
        QCOMPARE(o.value(QStringLiteral("count")).toInt(), 3);
        QCOMPARE(o.value(QStringLiteral("model")).toString(), model);

        run = test::runCli({QStringLiteral("tokenize"), QStringLiteral("--model"), model, QStringLiteral("--text"),
                            QStringLiteral("hi"), QStringLiteral("--no-bos")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QByteArray("7\t\" hi\"\n"));
    }

    void logitsMatchTheEngine()
    {
        QTemporaryDir dir;
        for (const GgmlType type : {GgmlType::Q8_0, GgmlType::F32}) {
            const QString model = writeModel(dir, tinyLlama(type));
            const std::vector<std::int32_t> ids{1, 7, 9};
            const std::vector<float> expected = engineLogits(model, ids);
            QCOMPARE(expected.size(), kTokens.size());
            QJsonObject first;
            for (const QStringList& how : {QStringList{QStringLiteral("--token-ids"), QStringLiteral("1,7,9")},
                                           QStringList{QStringLiteral("--token-ids"), QStringLiteral(" 1, 7 ,9"),
                                                       QStringLiteral("--threads"), QStringLiteral("2")},
                                           QStringList{QStringLiteral("--prompt"), QStringLiteral("hi!")}}) {
                const auto run = test::runCli(
                    QStringList{QStringLiteral("logits"), QStringLiteral("--model"), model, QStringLiteral("--json")} +
                    how);
                QVERIFY2(run.exitCode == 0, run.err.constData());
                const QJsonObject o = json(run);
                QCOMPARE(o.value(QStringLiteral("token_ids")).toArray(), (QJsonArray{1, 7, 9}));
                QCOMPARE(o.value(QStringLiteral("architecture")).toString(), QStringLiteral("llama"));
                QCOMPARE(o.value(QStringLiteral("vocabulary")).toInt(), static_cast<int>(kTokens.size()));
                const QJsonArray logits = o.value(QStringLiteral("logits")).toArray();
                QCOMPARE(logits.size(), static_cast<qsizetype>(kTokens.size()));
                for (qsizetype i = 0; i < logits.size(); ++i)
                    QCOMPARE(std::bit_cast<std::uint32_t>(static_cast<float>(logits[i].toDouble())),
                             std::bit_cast<std::uint32_t>(expected[static_cast<std::size_t>(i)]));
                if (first.isEmpty())
                    first = o;
                QCOMPARE(o, first);
            }
        }
    }

    void topAndEveryLogit()
    {
        QTemporaryDir dir;
        const QString model = writeModel(dir, tinyLlama(GgmlType::Q8_0));
        const std::vector<float> expected = engineLogits(model, {1, 4});
        auto run =
            test::runCli({QStringLiteral("logits"), QStringLiteral("--model"), model, QStringLiteral("--token-ids"),
                          QStringLiteral("1,4"), QStringLiteral("--top"), QStringLiteral("3")});
        QCOMPARE(run.exitCode, 0);
        const QStringList lines = QString::fromUtf8(run.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4);
        QCOMPARE(lines[0], QStringLiteral("rank\tid\tlogit\ttoken"));
        float previous = std::numeric_limits<float>::infinity();
        for (int r = 1; r <= 3; ++r) {
            const QStringList f = lines[r].split(QLatin1Char('\t'));
            QCOMPARE(f.size(), 4);
            QCOMPARE(f[0].toInt(), r);
            const int id = f[1].toInt();
            const float logit = f[2].toFloat();
            QCOMPARE(logit, expected[static_cast<std::size_t>(id)]);
            QVERIFY(logit <= previous);
            previous = logit;
            QVERIFY(f[3].startsWith(QLatin1Char('"')));
        }
        // The highest of all.
        QCOMPARE(previous <= *std::max_element(expected.begin(), expected.end()), true);
        QCOMPARE(lines[1].split(QLatin1Char('\t'))[2].toFloat(), *std::max_element(expected.begin(), expected.end()));

        run = test::runCli({QStringLiteral("logits"), QStringLiteral("--model"), model, QStringLiteral("--token-ids"),
                            QStringLiteral("1,4"), QStringLiteral("--top"), QStringLiteral("0")});
        QCOMPARE(run.exitCode, 0);
        const QStringList all = QString::fromUtf8(run.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(all.size(), static_cast<qsizetype>(kTokens.size()));
        for (qsizetype i = 0; i < all.size(); ++i)
            QCOMPARE(all[i].toFloat(), expected[static_cast<std::size_t>(i)]);
    }

    void refused_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("model");  // which file --model names: tiny, bare, broken
        QTest::addColumn<QString>("message");
        QTest::newRow("no model") << QStringList{QStringLiteral("logits"), QStringLiteral("--token-ids"),
                                                 QStringLiteral("1")}
                                  << QString() << "--model: give the GGUF model file";
        QTest::newRow("no text") << QStringList{QStringLiteral("tokenize")} << "tiny"
                                 << "--text: give the text to tokenize";
        QTest::newRow("both") << QStringList{QStringLiteral("logits"), QStringLiteral("--prompt"), QStringLiteral("a"),
                                             QStringLiteral("--token-ids"), QStringLiteral("1")}
                              << "tiny"
                              << "give either --prompt or --token-ids";
        QTest::newRow("neither") << QStringList{QStringLiteral("logits")} << "tiny"
                                 << "give either --prompt or --token-ids";
        QTest::newRow("id out of range") << QStringList{QStringLiteral("logits"), QStringLiteral("--token-ids"),
                                                        QStringLiteral("1,12")}
                                         << "tiny"
                                         << "--token-ids: token 12 is outside the vocabulary 0..11";
        QTest::newRow("id not a number") << QStringList{QStringLiteral("logits"), QStringLiteral("--token-ids"),
                                                        QStringLiteral("1,,2")}
                                         << "tiny"
                                         << "--token-ids: '' is not a whole number";
        QTest::newRow("over the context") << QStringList{QStringLiteral("logits"), QStringLiteral("--token-ids"),
                                                         QStringLiteral("1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1")}
                                          << "tiny"
                                          << "17 tokens are more than the model's context of 16";
        QTest::newRow("threads") << QStringList{QStringLiteral("logits"), QStringLiteral("--token-ids"),
                                                QStringLiteral("1"), QStringLiteral("--threads"), QStringLiteral("0")}
                                 << "tiny"
                                 << "threads: must be between 1 and 256, got 0";
        QTest::newRow("no tokenizer") << QStringList{QStringLiteral("logits"), QStringLiteral("--prompt"),
                                                     QStringLiteral("hi")}
                                      << "bare"
                                      << "MODEL: metadata key 'tokenizer.ggml.model' is missing";
        QTest::newRow("broken file") << QStringList{QStringLiteral("tokenize"), QStringLiteral("--text"),
                                                    QStringLiteral("hi")}
                                     << "broken"
                                     << "MODEL: version at byte 4: version 1 is not read (GGUF versions 2 and 3 "
                                        "are; version 1 files predate 64-bit counts: convert the model again)";
    }
    void refused()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, model);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QStringList args = arguments;
        if (!model.isEmpty()) {
            test::GgufWriter w =
                model == QLatin1String("bare") ? tinyLlama(GgmlType::F32, false) : tinyLlama(GgmlType::F32);
            if (model == QLatin1String("broken"))
                w.setVersion(1);
            const QString path = writeModel(dir, w);
            args << QStringLiteral("--model") << path;
            message.replace(QStringLiteral("MODEL"), path);
        }
        const auto run = test::runCli(args);
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.out, QByteArray());
        const QString err = QString::fromUtf8(run.err).trimmed();
        QVERIFY2(!err.contains(QLatin1Char('\n')), qPrintable(err));
        QVERIFY2(err.contains(message), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestGgufCli)
#include "tst_gguf_cli.moc"
