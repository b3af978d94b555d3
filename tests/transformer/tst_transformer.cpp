// The forward pass (issue 36): logits of llama, qwen2 and gpt2 models with random weights
// against a float64 reference within 1e-4 (F32, F16 and Q8_0 weights: the reference runs on the
// weights as dequantised, which are exact, so only the float arithmetic differs), for both
// kernel paths, several thread counts and prompt batch sizes; greedy continuations identical
// across thread counts; the KV cache's truncation for branching; the products' reduction plans
// and their independence from the row ranges threads get; refusals naming what is wrong.
#include "engine/transformer/matmul.h"
#include "engine/transformer/thread_pool.h"
#include "engine/transformer/transformer.h"
#include "random_model.h"
#include "support/gguf_writer.h"
#include "support/same_bits.h"
#include "support/tiny_gguf_model.h"

#include <QTest>

#include <algorithm>
#include <cstring>
#include <set>

using namespace logitlab;
using namespace logitlab::engine::transformer;
using logitlab::engine::gguf::GgmlType;
using logitlab::test::RandomModel;
using logitlab::test::randomModel;
using logitlab::test::RandomModelOptions;
using logitlab::test::smallConfig;

namespace {

const std::vector<std::int32_t> kPrompt = {5, 17, 200, 3, 99, 42, 7, 150, 1, 64, 33};

std::vector<KernelPath> kernelPaths()
{
    std::vector<KernelPath> paths{KernelPath::Scalar};
    if (bestKernelPath() == KernelPath::Avx2)
        paths.push_back(KernelPath::Avx2);
    return paths;
}

Transformer make(const RandomModel& m, TransformerOptions o = {})
{
    auto t = Transformer::create(m.config, m.tensors, o);
    if (!t)
        qFatal("%s", t.error().c_str());
    return std::move(t).value();
}

std::int32_t argmax(std::span<const float> logits)
{
    return static_cast<std::int32_t>(std::max_element(logits.begin(), logits.end()) - logits.begin());
}

std::vector<std::int32_t> greedy(Transformer& t, std::vector<std::int32_t> prompt, int steps)
{
    t.reset();
    auto logits = t.evaluate(prompt);
    std::vector<std::int32_t> out;
    for (int i = 0; i < steps; ++i) {
        const std::int32_t next = argmax(logits.value());
        out.push_back(next);
        logits = t.evaluate(std::span<const std::int32_t>(&next, 1));
    }
    return out;
}

}  // namespace

class TransformerTest : public QObject {
    Q_OBJECT

private slots:
    void logitsMatchReference_data();
    void logitsMatchReference();
    void threadCountsAgree_data();
    void threadCountsAgree();
    void f32BatchSplitKeepsBits();
    void truncateBranches();
    void reductionPlanChangesBitsNotValues();
    void productsMatchAcrossPathsAndPlans_data();
    void productsMatchAcrossPathsAndPlans();
    void rowsIndependentOfRanges();
    void attentionHelpersKeepBits();
    void threadPoolChunks();
    void loadsGgufFiles_data();
    void loadsGgufFiles();
    void refusesGgufArchitectureAndKeys();
    void refusesMissingTensor();
    void refusesWrongShape();
    void refusesKvCacheOverLimit();
    void refusesBadTokensAndFullContext();
    void refusesBadOptions();
};

void TransformerTest::logitsMatchReference_data()
{
    QTest::addColumn<int>("arch");
    QTest::addColumn<int>("type");
    QTest::addColumn<bool>("tied");
    QTest::addColumn<bool>("ropeFactors");
    QTest::addColumn<int>("path");
    QTest::addColumn<int>("threads");
    QTest::addColumn<int>("batch");
    const std::pair<GgmlType, const char*> types[] = {
        {GgmlType::F32, "f32"}, {GgmlType::F16, "f16"}, {GgmlType::Q8_0, "q8_0"}};
    for (Architecture arch : {Architecture::Llama, Architecture::Qwen2, Architecture::Gpt2})
        for (auto [type, typeName] : types)
            for (KernelPath path : kernelPaths())
                for (int threads : {1, 2, 3})
                    for (int batch : {1, 4, 256}) {
                        if (threads == 3 && batch == 4)
                            continue;
                        const std::string name = architectureName(arch) + "/" + typeName + "/" + kernelPathName(path) +
                                                 "/t" + std::to_string(threads) + "/b" + std::to_string(batch);
                        QTest::newRow(name.c_str())
                            << int(arch) << int(type) << true << false << int(path) << threads << batch;
                    }
    for (KernelPath path : kernelPaths())
        for (GgmlType type : {GgmlType::F32, GgmlType::Q8_0}) {
            const std::string name = "llama/untied+rope_freqs/" + std::string(type == GgmlType::F32 ? "f32" : "q8_0") +
                                     "/" + kernelPathName(path);
            QTest::newRow(name.c_str()) << int(Architecture::Llama) << int(type) << false << true << int(path) << 2
                                        << 256;
        }
}

// A prompt of 11 tokens in one call, then 6 more one at a time: after each call the logits
// are those of the reference at that position.
void TransformerTest::logitsMatchReference()
{
    QFETCH(int, arch);
    QFETCH(int, type);
    QFETCH(bool, tied);
    QFETCH(bool, ropeFactors);
    QFETCH(int, path);
    QFETCH(int, threads);
    QFETCH(int, batch);
    RandomModelOptions ro;
    ro.matrixType = static_cast<GgmlType>(type);
    ro.tiedOutput = tied;
    ro.ropeFactors = ropeFactors;
    ro.seed = 7 + static_cast<std::uint64_t>(arch);
    const RandomModel m = randomModel(smallConfig(static_cast<Architecture>(arch)), ro);
    TransformerOptions o;
    o.threads = threads;
    o.batch = batch;
    o.kernels = static_cast<KernelPath>(path);
    Transformer t = make(m, o);
    QCOMPARE(t.weights().tiedOutput, tied);

    std::vector<std::int32_t> tokens = kPrompt;
    const std::vector<std::int32_t> more = {8, 190, 2, 77, 77, 120};
    tokens.insert(tokens.end(), more.begin(), more.end());
    const auto expected = test::reference::logits(m, tokens);

    double worst = 0.0;
    double largest = 0.0;
    auto check = [&](std::span<const float> logits, std::size_t position) {
        QCOMPARE(logits.size(), static_cast<std::size_t>(m.config.vocabulary));
        for (std::size_t i = 0; i < logits.size(); ++i) {
            worst = std::max(worst, std::fabs(logits[i] - expected[position][i]));
            largest = std::max(largest, std::fabs(expected[position][i]));
        }
    };
    auto first = t.evaluate(kPrompt);
    QVERIFY2(first.ok(), first.ok() ? "" : first.error().c_str());
    check(first.value(), kPrompt.size() - 1);
    for (std::size_t i = 0; i < more.size(); ++i) {
        auto next = t.evaluate(std::span<const std::int32_t>(&more[i], 1));
        QVERIFY(next.ok());
        check(next.value(), kPrompt.size() + i);
    }
    QCOMPARE(t.position(), static_cast<std::int64_t>(tokens.size()));
    qInfo("max |logit error| %.3g (logits up to %.2f)", worst, largest);
    QVERIFY2(largest > 1.0, "the random model's logits should be of a few units");
    QVERIFY2(worst <= 1e-4, std::to_string(worst).c_str());
}

void TransformerTest::threadCountsAgree_data()
{
    QTest::addColumn<int>("arch");
    QTest::addColumn<int>("type");
    for (Architecture arch : {Architecture::Llama, Architecture::Qwen2, Architecture::Gpt2})
        for (GgmlType type : {GgmlType::F32, GgmlType::Q8_0}) {
            const std::string name = architectureName(arch) + (type == GgmlType::F32 ? "/f32" : "/q8_0");
            QTest::newRow(name.c_str()) << int(arch) << int(type);
        }
}

// 64 greedy tokens after an 11-token prompt (evaluated in batches of 4, so both the batched
// and the one-state kernels run): the same tokens and the same logits' bits for 1, 2 and 3
// threads.
void TransformerTest::threadCountsAgree()
{
    QFETCH(int, arch);
    QFETCH(int, type);
    RandomModelOptions ro;
    ro.matrixType = static_cast<GgmlType>(type);
    ro.tiedOutput = false;  // tied random embeddings mostly repeat the last token
    const RandomModel m = randomModel(smallConfig(static_cast<Architecture>(arch)), ro);
    std::vector<std::int32_t> reference;
    std::vector<float> referenceLogits;
    for (int threads : {1, 2, 3}) {
        TransformerOptions o;
        o.threads = threads;
        o.batch = 4;
        Transformer t = make(m, o);
        const auto tokens = greedy(t, kPrompt, 64);
        const std::vector<float> last(t.logits().begin(), t.logits().end());
        if (threads == 1) {
            reference = tokens;
            referenceLogits = last;
            const auto distinct = std::set<std::int32_t>(tokens.begin(), tokens.end()).size();
            qInfo("%zu distinct tokens in the continuation", distinct);
            QVERIFY2(distinct > 3, "a degenerate continuation");
        } else {
            QCOMPARE(tokens, reference);
            QVERIFY(test::sameBits<float>(last, referenceLogits));
        }
    }
}

// F32 products compute each element with the same arithmetic whatever the batch, so a prompt
// evaluated whole, in batches of 3 or token by token gives the same bits.
void TransformerTest::f32BatchSplitKeepsBits()
{
    for (KernelPath path : kernelPaths()) {
        const RandomModel m = randomModel(smallConfig(Architecture::Llama));
        std::vector<float> whole;
        for (std::int64_t batch : {256, 3, 1}) {
            TransformerOptions o;
            o.batch = batch;
            o.kernels = path;
            Transformer t = make(m, o);
            auto logits = t.evaluate(kPrompt);
            QVERIFY(logits.ok());
            if (whole.empty())
                whole.assign(logits.value().begin(), logits.value().end());
            else
                QVERIFY(test::sameBits<float>(logits.value(), whole));
        }
    }
}

// truncate(n) drops the cache after n positions: evaluating another token there gives what a
// fresh run of the shorter prompt and that token gives.
void TransformerTest::truncateBranches()
{
    const RandomModel m = randomModel(smallConfig(Architecture::Qwen2));
    TransformerOptions o;
    o.threads = 2;
    o.batch = 1;
    Transformer t = make(m, o);
    QVERIFY(t.evaluate(kPrompt).ok());
    t.truncate(5);
    QCOMPARE(t.position(), 5);
    QVERIFY(t.logits().empty());
    const std::int32_t branch = 11;
    auto branched = t.evaluate(std::span<const std::int32_t>(&branch, 1));
    QVERIFY(branched.ok());
    const std::vector<float> a(branched.value().begin(), branched.value().end());

    Transformer fresh = make(m, o);
    std::vector<std::int32_t> prompt(kPrompt.begin(), kPrompt.begin() + 5);
    prompt.push_back(branch);
    auto direct = fresh.evaluate(prompt);
    QVERIFY(direct.ok());
    QVERIFY(test::sameBits<float>(a, direct.value()));

    t.truncate(100);  // past the position: kept as is
    QCOMPARE(t.position(), 6);
    t.reset();
    QCOMPARE(t.position(), 0);
}

// A split-K plan (what a batch-size-dependent plan would pick) changes the logits' bits, not
// their values: still within 1e-4 of the reference. Same plan, same bits.
void TransformerTest::reductionPlanChangesBitsNotValues()
{
    const RandomModel m = randomModel(smallConfig(Architecture::Llama));
    const auto expected = test::reference::logits(m, kPrompt);
    std::vector<float> plain;
    for (int splitK : {1, 2, 2}) {
        TransformerOptions o;
        o.plan.splitK = splitK;
        Transformer t = make(m, o);
        auto logits = t.evaluate(kPrompt);
        QVERIFY(logits.ok());
        double worst = 0.0;
        for (std::size_t i = 0; i < logits.value().size(); ++i)
            worst = std::max(worst, std::fabs(logits.value()[i] - expected.back()[i]));
        QVERIFY2(worst <= 1e-4, std::to_string(worst).c_str());
        if (splitK == 1)
            plain.assign(logits.value().begin(), logits.value().end());
        else
            QVERIFY(!test::sameBits<float>(logits.value(), plain));
    }
}

void TransformerTest::productsMatchAcrossPathsAndPlans_data()
{
    QTest::addColumn<int>("type");
    QTest::addColumn<int>("batch");
    QTest::addColumn<int>("splitK");
    for (GgmlType type :
         {GgmlType::F32, GgmlType::F16, GgmlType::Q8_0, GgmlType::Q4_0, GgmlType::Q5_0, GgmlType::Q4_K, GgmlType::Q6_K})
        for (int batch : {1, 3, 4, 9})
            for (int splitK : {1, 2, 5, 64}) {
                const std::string name = std::string(engine::gguf::ggmlTypeName(type)) + "/n" + std::to_string(batch) +
                                         "/split" + std::to_string(splitK);
                QTest::newRow(name.c_str()) << int(type) << batch << splitK;
            }
}

// y = W x for a 37 x 160 matrix (37 x 512 for the K-quants' 256-weight blocks; split 5 then
// cuts blocks between sub-blocks): both paths and every split-K plan within float rounding of
// the double product of the dequantised weights; the split plans change bits, not values.
void TransformerTest::productsMatchAcrossPathsAndPlans()
{
    QFETCH(int, type);
    QFETCH(int, batch);
    QFETCH(int, splitK);
    RandomModel holder;
    test::SplitMix rng(5);
    const std::int64_t cols = engine::gguf::blockWeights(static_cast<GgmlType>(type)) == 256 ? 512 : 160, rows = 37;
    std::vector<double> wanted(static_cast<std::size_t>(cols * rows));
    for (double& w : wanted)
        w = rng.next();
    test::addTensor(holder, "w", static_cast<GgmlType>(type), {std::uint64_t(cols), std::uint64_t(rows)}, wanted, true);
    const WeightView w{static_cast<GgmlType>(type), holder.tensors[0].data.data(), cols, rows};
    std::vector<float> x(static_cast<std::size_t>(cols * batch));
    for (float& v : x)
        v = static_cast<float>(rng.next());
    const auto& values = holder.values["w"];
    for (KernelPath path : kernelPaths()) {
        ThreadPool pool(2);
        std::vector<float> y(static_cast<std::size_t>(rows * batch), -1.0f);
        const MatmulTask task{&w, x.data(), cols, y.data(), rows};
        std::vector<float> scratch(matmulScratchFloats({&task, 1}) * 2);
        matmul(pool, {&task, 1}, batch, ReductionPlan{splitK}, path, scratch.data());
        for (int t = 0; t < batch; ++t)
            for (std::int64_t r = 0; r < rows; ++r) {
                double exact = 0.0;
                for (std::int64_t k = 0; k < cols; ++k)
                    exact += values[static_cast<std::size_t>(r * cols + k)] * x[static_cast<std::size_t>(t * cols + k)];
                const float got = y[static_cast<std::size_t>(t * rows + r)];
                QVERIFY2(std::fabs(got - exact) <= 1e-5 * cols,
                         (std::to_string(got) + " vs " + std::to_string(exact)).c_str());
            }
    }
}

// Threads get different row ranges for different counts: a row's value must not depend on the
// range it is computed in (tiles of 4 and 1 rows by 3 and 1 states share the arithmetic).
void TransformerTest::rowsIndependentOfRanges()
{
    for (GgmlType type : {GgmlType::F32, GgmlType::Q8_0, GgmlType::Q5_0, GgmlType::Q4_K, GgmlType::Q6_K})
        for (int batch : {1, 7})
            for (KernelPath path : kernelPaths()) {
                RandomModel holder;
                test::SplitMix rng(9);
                const std::int64_t cols = engine::gguf::blockWeights(type) == 256 ? 256 : 96, rows = 45;
                std::vector<double> wanted(static_cast<std::size_t>(cols * rows));
                for (double& w : wanted)
                    w = rng.next();
                test::addTensor(holder, "w", type, {std::uint64_t(cols), std::uint64_t(rows)}, wanted, false);
                const WeightView w{type, holder.tensors[0].data.data(), cols, rows};
                std::vector<float> x(static_cast<std::size_t>(cols * batch));
                for (float& v : x)
                    v = static_cast<float>(rng.next());
                std::vector<float> whole(static_cast<std::size_t>(rows * batch));
                std::vector<float> scratch(static_cast<std::size_t>(kTileRows * cols));
                const MatmulTask all{&w, x.data(), cols, whole.data(), rows};
                matmulRows(all, batch, 0, rows, {}, path, scratch.data());
                for (std::int64_t step : {1, 3, 7}) {
                    std::vector<float> pieces(whole.size());
                    const MatmulTask part{&w, x.data(), cols, pieces.data(), rows};
                    for (std::int64_t r = 0; r < rows; r += step)
                        matmulRows(part, batch, r, std::min(rows, r + step), {}, path, scratch.data());
                    QVERIFY(test::sameBits<float>(pieces, whole));
                }
            }
}

// Every chunk once, with its own range, whatever thread claims it; many operations in a row
// (workers waking late must not claim a later operation's chunks for an earlier one).
// Attention's batched helpers give the bits of their one-at-a-time forms: dotsF32 those of
// dotF32 per row, weightedSumF32 those of axpyF32 row after row.
void TransformerTest::attentionHelpersKeepBits()
{
    test::SplitMix rng(11);
    for (KernelPath path : kernelPaths())
        for (std::int64_t n : {64, 70, 5})
            for (std::int64_t count : {1, 7, 33}) {
                const std::int64_t stride = n + 3;
                std::vector<float> rows(static_cast<std::size_t>(count * stride)), x(static_cast<std::size_t>(n)),
                    weights(static_cast<std::size_t>(count));
                for (float& v : rows)
                    v = static_cast<float>(rng.next());
                for (float& v : x)
                    v = static_cast<float>(rng.next());
                for (float& v : weights)
                    v = static_cast<float>(rng.next());
                std::vector<float> dots(static_cast<std::size_t>(count)), single(dots.size());
                dotsF32(rows.data(), stride, count, x.data(), n, dots.data(), path);
                for (std::int64_t r = 0; r < count; ++r)
                    single[static_cast<std::size_t>(r)] = dotF32(rows.data() + r * stride, x.data(), n, path);
                QVERIFY(test::sameBits<float>(dots, single));
                std::vector<float> sum(static_cast<std::size_t>(n)), steps(sum.size(), 0.0f);
                weightedSumF32(rows.data(), stride, count, weights.data(), n, sum.data(), path);
                for (std::int64_t r = 0; r < count; ++r)
                    axpyF32(weights[static_cast<std::size_t>(r)], rows.data() + r * stride, steps.data(), n, path);
                QVERIFY(test::sameBits<float>(sum, steps));
            }
}

void TransformerTest::threadPoolChunks()
{
    for (int threads : {1, 2, 3}) {
        ThreadPool pool(threads);
        for (std::int64_t count : {1, 5, 16, 17, 1000})
            for (std::int64_t chunk : {1, 7, 16}) {
                for (int round = 0; round < 200; ++round) {
                    std::vector<std::atomic<int>> hits(static_cast<std::size_t>(count));
                    std::atomic<bool> badRange{false};
                    pool.parallelFor(count, chunk, [&](std::int64_t b, std::int64_t e, int thread) {
                        if (thread < 0 || thread >= threads ||
                            (threads > 1 && count > chunk && (b % chunk != 0 || e - b > chunk)))
                            badRange = true;
                        for (std::int64_t i = b; i < e; ++i)
                            ++hits[static_cast<std::size_t>(i)];
                    });
                    QVERIFY(!badRange);
                    for (auto& h : hits)
                        QCOMPARE(h.load(), 1);
                }
            }
    }
}

namespace {

// A shape whose rows are whole blocks of every type (256 weights for the K-quants).
ModelConfig ggufConfig(Architecture arch)
{
    ModelConfig c = smallConfig(arch);
    c.embedding = 256;
    c.headDim = 64;
    c.feedForward = 256;
    c.ropeDims = arch == Architecture::Gpt2 ? 0 : 64;
    c.context = 48;
    return c;
}

// A random model written as a GGUF file by the test writer: its bytes, and the values the
// reader gives back for the reference.
RandomModel writeModel(const ModelConfig& c, GgmlType type, std::vector<std::byte>& bytes)
{
    test::GgufWriter w;
    test::addModelMetadata(w, c, architectureName(c.arch));
    RandomModelOptions o;
    o.matrixType = type;
    o.tiedOutput = c.arch != Architecture::Qwen2;
    o.write = [&w](const std::string& name, GgmlType t, const std::vector<std::uint64_t>& ne,
                   const std::vector<double>& values) {
        const std::vector<float> floats(values.begin(), values.end());
        const std::vector<float> back = w.addTensor(name, t, ne, floats);
        return std::vector<double>(back.begin(), back.end());
    };
    RandomModel m = randomModel(c, o);
    bytes = w.bytes();
    return m;
}

}  // namespace

void TransformerTest::loadsGgufFiles_data()
{
    QTest::addColumn<int>("arch");
    QTest::addColumn<int>("type");
    QTest::addColumn<double>("ropeScale");
    for (Architecture arch : {Architecture::Llama, Architecture::Qwen2, Architecture::Gpt2})
        for (GgmlType type : {GgmlType::F32, GgmlType::F16, GgmlType::BF16, GgmlType::Q8_0, GgmlType::Q4_0,
                              GgmlType::Q5_0, GgmlType::Q4_K, GgmlType::Q6_K}) {
            const std::string name = architectureName(arch) + "/" + std::string(engine::gguf::ggmlTypeName(type));
            QTest::newRow(name.c_str()) << int(arch) << int(type) << 1.0;
        }
    QTest::newRow("llama/F32/linear-rope-scaling-4") << int(Architecture::Llama) << int(GgmlType::F32) << 0.25;
    QTest::newRow("qwen2/Q8_0/linear-rope-scaling-2") << int(Architecture::Qwen2) << int(GgmlType::Q8_0) << 0.5;
}

// A file written with every weight type, parsed and loaded: the shape from its keys, and logits
// within 1e-4 of the reference run on the weights as the reader dequantises them (exactly the
// numbers the forward pass multiplies, so only the arithmetic differs: no tolerance for
// quantisation is needed).
void TransformerTest::loadsGgufFiles()
{
    QFETCH(int, arch);
    QFETCH(int, type);
    QFETCH(double, ropeScale);
    ModelConfig c = ggufConfig(static_cast<Architecture>(arch));
    c.ropeScale = ropeScale;
    std::vector<std::byte> bytes;
    const RandomModel m = writeModel(c, static_cast<GgmlType>(type), bytes);
    auto file = engine::gguf::GgufFile::parse(bytes, "tiny.gguf");
    QVERIFY2(file.ok(), file.ok() ? "" : file.error().c_str());
    TransformerOptions o;
    o.threads = 2;
    o.batch = 5;
    auto t = Transformer::load(file.value(), o);
    QVERIFY2(t.ok(), t.ok() ? "" : t.error().c_str());
    const ModelConfig& loaded = t.value().config();
    QCOMPARE(loaded.vocabulary, c.vocabulary);
    QCOMPARE(loaded.headDim, c.headDim);
    QCOMPARE(loaded.kvHeads, c.kvHeads);
    QCOMPARE(loaded.ropeDims, c.ropeDims);
    QCOMPARE(loaded.ropeScale, c.ropeScale);
    QCOMPARE(t.value().weights().tiedOutput, c.arch != Architecture::Qwen2);

    const std::vector<std::int32_t> tokens(kPrompt.begin(), kPrompt.begin() + 9);
    const auto expected = test::reference::logits(m, tokens);
    auto logits = t.value().evaluate(std::span<const std::int32_t>(tokens).first(8));
    QVERIFY(logits.ok());
    double worst = 0.0;
    for (std::size_t i = 0; i < logits.value().size(); ++i)
        worst = std::max(worst, std::fabs(logits.value()[i] - expected[7][i]));
    logits = t.value().evaluate(std::span<const std::int32_t>(tokens).subspan(8));
    QVERIFY(logits.ok());
    for (std::size_t i = 0; i < logits.value().size(); ++i)
        worst = std::max(worst, std::fabs(logits.value()[i] - expected[8][i]));
    qInfo("max |logit error| %.3g", worst);
    QVERIFY2(worst <= 1e-4, std::to_string(worst).c_str());
}

void TransformerTest::refusesGgufArchitectureAndKeys()
{
    const ModelConfig c = ggufConfig(Architecture::Llama);
    {
        test::GgufWriter w;
        test::addModelMetadata(w, c, "mamba");
        const auto bytes = w.bytes();
        auto file = engine::gguf::GgufFile::parse(bytes, "other.gguf");
        QVERIFY(file.ok());
        auto t = Transformer::load(file.value());
        QVERIFY(!t.ok());
        QCOMPARE(QString::fromStdString(t.error()),
                 QStringLiteral("other.gguf: the architecture \"mamba\" is not supported (LogitLab runs llama, "
                                "qwen2 and gpt2)"));
    }
    {
        test::GgufWriter w;
        w.addString("general.architecture", "llama");
        w.addUint32("llama.embedding_length", 256);
        const auto bytes = w.bytes();
        auto file = engine::gguf::GgufFile::parse(bytes, "short.gguf");
        QVERIFY(file.ok());
        auto t = Transformer::load(file.value());
        QVERIFY(!t.ok());
        QVERIFY2(t.error().find("llama.block_count") != std::string::npos, t.error().c_str());
    }
    {
        test::GgufWriter w;
        test::addModelMetadata(w, c, "llama");
        w.addFloat32("llama.attention.head_count_kv", 3.0f);  // a second key: the reader refuses
        const auto bytes = w.bytes();
        QVERIFY(!engine::gguf::GgufFile::parse(bytes, "twice.gguf").ok());
    }
    {
        test::GgufWriter w;
        test::addModelMetadata(w, c, "qwen2");
        w.addString("qwen2.rope.scaling.type", "yarn");
        w.addFloat32("qwen2.rope.scaling.factor", 4.0f);
        const auto bytes = w.bytes();
        auto file = engine::gguf::GgufFile::parse(bytes, "long.gguf");
        QVERIFY(file.ok());
        auto t = Transformer::load(file.value());
        QVERIFY(!t.ok());
        QCOMPARE(QString::fromStdString(t.error()),
                 QStringLiteral("long.gguf: RoPE scaling \"yarn\" is not supported (LogitLab applies none or linear)"));
    }
    {
        ModelConfig odd = c;
        odd.kvHeads = 3;
        test::GgufWriter w;
        test::addModelMetadata(w, odd, "llama");
        w.addTensor("token_embd.weight", GgmlType::F32, {256, 10}, std::vector<float>(2560, 0.5f));
        const auto bytes = w.bytes();
        auto file = engine::gguf::GgufFile::parse(bytes, "odd.gguf");
        QVERIFY(file.ok());
        auto t = Transformer::load(file.value());
        QVERIFY(!t.ok());
        QCOMPARE(QString::fromStdString(t.error()),
                 QStringLiteral("odd.gguf: llama: attention.head_count 4 is not a multiple of head_count_kv 3"));
    }
}

void TransformerTest::refusesMissingTensor()
{
    RandomModel m = randomModel(smallConfig(Architecture::Llama));
    std::erase_if(m.tensors, [](const auto& t) { return t.name == "blk.1.ffn_gate.weight"; });
    auto t = Transformer::create(m.config, m.tensors, {}, "tiny.gguf");
    QVERIFY(!t.ok());
    QCOMPARE(QString::fromStdString(t.error()),
             QStringLiteral("tiny.gguf: the tensor blk.1.ffn_gate.weight is missing (expected shape [64, 96])"));

    RandomModel q = randomModel(smallConfig(Architecture::Qwen2));
    std::erase_if(q.tensors, [](const auto& t) { return t.name == "blk.0.attn_k.bias"; });
    auto u = Transformer::create(q.config, q.tensors);
    QVERIFY(!u.ok());
    QVERIFY2(u.error().find("blk.0.attn_k.bias is missing (expected shape [32])") != std::string::npos,
             u.error().c_str());
}

void TransformerTest::refusesWrongShape()
{
    RandomModel m = randomModel(smallConfig(Architecture::Gpt2));
    for (auto& t : m.tensors)
        if (t.name == "blk.0.attn_qkv.weight")
            t.ne = {64, 64, 3};
    auto t = Transformer::create(m.config, m.tensors, {}, "tiny.gguf");
    QVERIFY(!t.ok());
    QCOMPARE(QString::fromStdString(t.error()),
             QStringLiteral("tiny.gguf: the tensor blk.0.attn_qkv.weight has shape [64, 64, 3], expected [64, 192]"));

    RandomModel n = randomModel(smallConfig(Architecture::Llama));
    for (auto& t : n.tensors)
        if (t.name == "output_norm.weight")
            t.data = t.data.first(8);
    auto u = Transformer::create(n.config, n.tensors);
    QVERIFY(!u.ok());
    QVERIFY2(u.error().find("output_norm.weight holds 8 bytes, not 64 F32 values") != std::string::npos,
             u.error().c_str());
}

void TransformerTest::refusesKvCacheOverLimit()
{
    const RandomModel m = randomModel(smallConfig(Architecture::Llama));
    TransformerOptions o;
    o.kvCacheLimitBytes = 40000;
    // 2 x 2 layers x 96 positions x 32 floats x 4 bytes = 49,152
    auto t = Transformer::create(m.config, m.tensors, o, "tiny.gguf");
    QVERIFY(!t.ok());
    QCOMPARE(QString::fromStdString(t.error()),
             QStringLiteral("tiny.gguf: the KV cache for a context of 96 positions needs 49152 bytes, over the "
                            "limit of 40000 bytes; choose a smaller context"));
    o.context = 64;
    auto smaller = Transformer::create(m.config, m.tensors, o);
    QVERIFY(smaller.ok());
    QCOMPARE(smaller.value().kvCacheBytes(), 32768u);
}

void TransformerTest::refusesBadTokensAndFullContext()
{
    const RandomModel m = randomModel(smallConfig(Architecture::Llama));
    TransformerOptions o;
    o.context = 12;
    Transformer t = make(m, o);
    const std::vector<std::int32_t> bad = {1, 203};
    auto r = t.evaluate(bad);
    QVERIFY(!r.ok());
    QCOMPARE(QString::fromStdString(r.error()), QStringLiteral("token 203 (at 1) is outside the vocabulary of 203"));
    QCOMPARE(t.position(), 0);
    QVERIFY(!t.evaluate({}).ok());
    QVERIFY(t.evaluate(kPrompt).ok());
    auto full = t.evaluate(kPrompt);
    QVERIFY(!full.ok());
    QCOMPARE(QString::fromStdString(full.error()),
             QStringLiteral("11 tokens do not fit: 11 of 12 positions are in use"));
    QCOMPARE(t.position(), 11);
}

void TransformerTest::refusesBadOptions()
{
    const RandomModel m = randomModel(smallConfig(Architecture::Gpt2));
    TransformerOptions o;
    o.threads = 0;
    QVERIFY(!Transformer::create(m.config, m.tensors, o).ok());
    o = {};
    o.plan.splitK = 65;
    QVERIFY(!Transformer::create(m.config, m.tensors, o).ok());
    o = {};
    o.context = 97;  // gpt2 learned 96 positions
    auto t = Transformer::create(m.config, m.tensors, o);
    QVERIFY(!t.ok());
    QVERIFY2(t.error().find("gpt2 learned 96 positions") != std::string::npos, t.error().c_str());
    ModelConfig c = m.config;
    c.kvHeads = 3;
    auto u = Transformer::create(c, m.tensors);
    QVERIFY(!u.ok());
    QVERIFY2(u.error().find("not a multiple of head_count_kv 3") != std::string::npos, u.error().c_str());
}

QTEST_GUILESS_MAIN(TransformerTest)
#include "tst_transformer.moc"
