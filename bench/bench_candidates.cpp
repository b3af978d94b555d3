// The foundation's speed target: candidates() + one draw at T = 0.7, top-p = 0.9 over
// V = 128,256 float32 logits drawn from normal(0, 2.5), median at most 1 ms per token on one
// core (issue 17: 0.3 ms). Also the softmax alone (issue 17: 0.25 ms), the floor its id-order sum
// sets, the other vocabulary sizes, and top-k, for context.
#include "engine/kernels/lesson_exp_sum.h"
#include "engine/rng/mulberry32.h"
#include "engine/sampler/candidates.h"
#include "engine/sampler/sample.h"
#include "engine/sampler/softmax.h"

#include <benchmark/benchmark.h>
#include <immintrin.h>

#include <random>

using namespace logitlab::engine;

namespace {

Eigen::ArrayXf normalLogits(int n)
{
    std::mt19937 gen(12345);
    std::normal_distribution<float> dist(0.0f, 2.5f);
    Eigen::ArrayXf a(n);
    for (int i = 0; i < n; ++i)
        a[i] = dist(gen);
    return a;
}

void BM_CandidatesAndDraw(benchmark::State& state, SamplerSettings settings)
{
    const Eigen::ArrayXf logits = normalLogits(static_cast<int>(state.range(0)));
    Mulberry32 rng(42);
    std::size_t survivors = 0;
    for (auto _ : state) {
        const CandidateList list = candidates(logits, settings);
        benchmark::DoNotOptimize(sampleAt(list, rng.nextDouble()));
        survivors = list.size();
    }
    state.counters["survivors"] = static_cast<double>(survivors);
}

void BM_Softmax(benchmark::State& state)
{
    const Eigen::ArrayXf logits = normalLogits(static_cast<int>(state.range(0)));
    for (auto _ : state)
        benchmark::DoNotOptimize(softmax(logits, 0.7));
}

// The cost of the lesson's id-order sum added as JavaScript's reduce adds it: one dependent
// addition per token. The softmax loop runs this chain under its exps. It is not a hard floor for
// the sum's bits: docs/benchmarks.md ("Thirteenth session") adds blocks of terms exactly in
// lanes, with the chain's bits.
void BM_IdOrderSumFloor(benchmark::State& state)
{
    const Eigen::ArrayXf logits = normalLogits(static_cast<int>(state.range(0)));
    const Eigen::ArrayXd values = logits.cast<double>();
    for (auto _ : state) {
        double sum = 0.0;
        for (Eigen::Index i = 0; i < values.size(); ++i)
            sum += values[i];
        benchmark::DoNotOptimize(sum);
    }
}

// The other floor: the lesson's bits need two IEEE divisions per token, l / T and the one inside
// fdlibm's exp (r c / (2 - c)); a division is not something a multiply can stand in for without
// changing the last bit. This is those two divisions alone, four lanes at a time, nothing else.
__attribute__((target("avx2"))) void twoDivisions(const double* in, double* out, std::size_t n, double t)
{
    const __m256d tt = _mm256_set1_pd(t);
    const __m256d two = _mm256_set1_pd(2.0);
    for (std::size_t i = 0; i + 4 <= n; i += 4) {
        const __m256d x = _mm256_div_pd(_mm256_loadu_pd(in + i), tt);
        _mm256_storeu_pd(out + i, _mm256_div_pd(x, _mm256_sub_pd(two, x)));
    }
}

void BM_TwoDivisionsFloor(benchmark::State& state)
{
    if (!__builtin_cpu_supports("avx2")) {
        state.SkipWithError("no AVX2 on this processor");
        return;
    }
    const Eigen::ArrayXf logits = normalLogits(static_cast<int>(state.range(0)));
    const Eigen::ArrayXd values = logits.cast<double>();
    Eigen::ArrayXd out(values.size());
    for (auto _ : state) {
        twoDivisions(values.data(), out.data(), static_cast<std::size_t>(values.size()), 0.7);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
}

// What any pass over the softmax's exps costs at the least: V doubles read once, four
// independent maxima so no chain of operations holds the loads (the gather and the argmax
// floors in docs/benchmarks.md).
void BM_ReadExpsFloor(benchmark::State& state)
{
    const Eigen::ArrayXf logits = normalLogits(static_cast<int>(state.range(0)));
    const Eigen::ArrayXd values = logits.cast<double>();
    for (auto _ : state) {
        __m128d a = _mm_set1_pd(values[0]);
        __m128d b = a;
        for (Eigen::Index i = 0; i + 4 <= values.size(); i += 4) {
            a = _mm_max_pd(a, _mm_loadu_pd(values.data() + i));
            b = _mm_max_pd(b, _mm_loadu_pd(values.data() + i + 2));
        }
        benchmark::DoNotOptimize(_mm_max_pd(a, b));
    }
}

// The lesson's exp-and-sum pass alone on each instruction set the processor has: on processors
// that split 256-bit operations in two (Zen 1), AVX2 need not beat SSE2.
void BM_ExpSumPath(benchmark::State& state)
{
    const auto path = static_cast<ExpPath>(state.range(1));
    if (!expPathAvailable(path)) {
        state.SkipWithError("instruction set not on this processor");
        return;
    }
    const Eigen::ArrayXf logits = normalLogits(static_cast<int>(state.range(0)));
    const double maxScaled = static_cast<double>(logits.maxCoeff()) / 0.7;
    Eigen::ArrayXd out(logits.size());
    for (auto _ : state)
        benchmark::DoNotOptimize(detail::lessonExpSum(logits.data(), static_cast<std::size_t>(logits.size()), 0.7,
                                                      maxScaled, out.data(), path));
}

void vocabularies(benchmark::internal::Benchmark* b)
{
    for (int v : {32000, 128256, 151936, 262144})
        b->Arg(v);
    b->Unit(benchmark::kMillisecond)->Repetitions(15)->ReportAggregatesOnly(true);
}

}  // namespace

BENCHMARK_CAPTURE(BM_CandidatesAndDraw, T0_7_topP0_9, SamplerSettings{0.7, std::nullopt, 0.9})->Apply(vocabularies);
BENCHMARK_CAPTURE(BM_CandidatesAndDraw, T1_topK40, SamplerSettings{1.0, 40, std::nullopt})->Apply(vocabularies);
BENCHMARK(BM_Softmax)->Apply(vocabularies);
BENCHMARK(BM_IdOrderSumFloor)->Apply(vocabularies);
BENCHMARK(BM_TwoDivisionsFloor)->Apply(vocabularies);
BENCHMARK(BM_ReadExpsFloor)->Apply(vocabularies);
BENCHMARK(BM_ExpSumPath)
    ->ArgsProduct({{128256},
                   {static_cast<int>(ExpPath::Scalar), static_cast<int>(ExpPath::Sse2), static_cast<int>(ExpPath::Avx2),
                    static_cast<int>(ExpPath::Avx2WithoutFma)}})
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(9)
    ->ReportAggregatesOnly(true);

BENCHMARK_MAIN();
