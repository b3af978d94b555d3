// Experiment 2 of the batch-invariance lab at the size (R = 1,000 runs x T = 200 steps,
// V = 32,768, d = 1,024) through the same job the CLI and the page run, on the threaded runner:
// wall time per repetition and their median, the distinct completions and states, the
// (prefix, kernel) evaluations the trie needed instead of R x T, and the invariant plan's
// measured cost. Also one W*h and one W*H (Eigen, float32) at that size, to set beside numpy.
// A plain program rather than Google Benchmark: one repetition takes tens of seconds.
//
// bench_batch_invariance [--runs R] [--steps T] [--vocabulary V] [--hidden d] [--threads N]
//                        [--repetitions K] [--twin-share S] [--products-only]
#include "app/kinds/batch_invariance_job.h"
#include "engine/kernels/lm_head_kernels.h"
#include "engine/models/toy_language_model.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QStringList>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace logitlab;

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

void products(qint64 V, qint64 d)
{
    engine::ToyModelParameters p;
    p.vocabulary = V;
    p.hidden = d;
    const auto model = engine::ToyLanguageModel::build(p).value();
    engine::HeadMatrix H(d, 8);
    for (int j = 0; j < 8; ++j)
        H.col(j) = model.read({j});
    std::vector<double> gemv;
    std::vector<double> gemm;
    for (int r = 0; r < 7; ++r) {
        QElapsedTimer t;
        t.start();
        const Eigen::VectorXf a = model.head() * H.col(0);
        gemv.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        t.restart();
        const engine::HeadMatrix b = model.head() * H;
        gemm.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        if (a[0] != a[0] || b(0, 0) != b(0, 0))
            std::printf("NaN\n");
    }
    std::printf("{\"what\": \"eigen W*h\", \"V\": %lld, \"d\": %lld, \"median_ms\": %.3f}\n", V, d, median(gemv));
    std::printf("{\"what\": \"eigen W*H (8 columns)\", \"V\": %lld, \"d\": %lld, \"median_ms\": %.3f}\n", V, d,
                median(gemm));
}

}  // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QStringList args = app.arguments();
    const auto value = [&args](const QString& name, qint64 fallback) {
        const auto i = args.indexOf(name);
        return i >= 0 && i + 1 < args.size() ? args[i + 1].toLongLong() : fallback;
    };
    app::BatchInvarianceSpec spec;
    spec.name = QStringLiteral("bench");
    spec.study = app::BatchInvarianceSpec::Study::Decode;
    spec.runs = value(QStringLiteral("--runs"), 1000);
    spec.steps = value(QStringLiteral("--steps"), 200);
    spec.vocabulary = value(QStringLiteral("--vocabulary"), 32768);
    spec.hidden = value(QStringLiteral("--hidden"), 1024);
    const int threads = static_cast<int>(value(QStringLiteral("--threads"), 2));
    const int repetitions = static_cast<int>(value(QStringLiteral("--repetitions"), 3));
    if (const auto i = args.indexOf(QStringLiteral("--twin-share")); i >= 0 && i + 1 < args.size())
        spec.twinShare = args[i + 1].toDouble();
    products(spec.vocabulary, spec.hidden);
    if (args.contains(QStringLiteral("--products-only")))
        return 0;
    std::vector<double> seconds;
    app::BatchInvarianceOutcome last;
    for (int r = 0; r < repetitions; ++r) {
        spec.measureCost = r == 0;  // once is enough; it is not part of the decode's time
        QElapsedTimer t;
        t.start();
        app::BatchInvarianceOutcome o = app::runBatchInvariance(spec, QString(), QStringLiteral("bench"), threads, {});
        if (!o.status.finished()) {
            std::fprintf(stderr, "bench_batch_invariance: %s\n", qPrintable(o.status.message));
            return 1;
        }
        seconds.push_back(o.variableSeconds + o.invariantSeconds);
        if (r == 0)
            last = std::move(o);
        (void)t;
    }
    const auto& s = last.decode.summary;
    std::int64_t peak = 0;
    for (const auto& step : last.decode.steps)
        peak = std::max(peak, step.distinctStates);
    std::printf(
        "{\"R\": %lld, \"T\": %lld, \"V\": %lld, \"d\": %lld, \"threads\": %d, \"repetitions\": %d, "
        "\"median_s\": %.2f, \"min_s\": %.2f, \"max_s\": %.2f, \"variable_s\": %.2f, \"invariant_s\": %.2f, "
        "\"distinct_variable\": %lld, \"distinct_invariant\": %lld, \"common_prefix\": %lld, \"peak_states\": %lld, "
        "\"evaluations\": %lld, \"naive_evaluations\": %lld, \"invariant_cost_ratio\": %.2f}\n",
        spec.runs, spec.steps, spec.vocabulary, spec.hidden, threads, repetitions, median(seconds),
        *std::min_element(seconds.begin(), seconds.end()), *std::max_element(seconds.begin(), seconds.end()),
        last.variableSeconds, last.invariantSeconds, static_cast<long long>(s.distinctVariable),
        static_cast<long long>(s.distinctInvariant), static_cast<long long>(s.commonPrefix),
        static_cast<long long>(peak), static_cast<long long>(s.evaluationsVariable), spec.runs * spec.steps,
        last.costRatio);
    for (const auto& c : last.costs)
        std::printf(
            "{\"cost_batch\": %lld, \"variable_kernel\": \"%s\", \"variable_ms\": %.2f, \"invariant_ms\": %.2f}\n",
            c.batch, qPrintable(c.variableKernel), c.variableMs, c.invariantMs);
    return 0;
}
