// A model's dump opened as the Explorer and the CLI open it: row 199 of a 200 x 151,936 float32
// .npy (121.5 MB, Qwen2's vocabulary) read through app::readLogitsFile (map, header, decode one
// row), and the whole-file entropy scan the Explorer's step list shows (app::summarizeSteps).
// The file is written once, to $LOGITLAB_BENCH_NPY when set (bench/run_import.sh times numpy
// on the same file) or to a temporary folder.
#include "app/io/logits_file.h"

#include <QByteArray>
#include <QFile>
#include <QTemporaryDir>

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>

using namespace logitlab;

namespace {

constexpr std::uint64_t kSteps = 200;
constexpr std::uint64_t kVocabulary = 151'936;

QString benchFile()
{
    static std::unique_ptr<QTemporaryDir> dir;
    static QString path;
    if (!path.isEmpty())
        return path;
    path = qEnvironmentVariable("LOGITLAB_BENCH_NPY");
    if (path.isEmpty()) {
        dir = std::make_unique<QTemporaryDir>();
        path = dir->filePath(QStringLiteral("logits.npy"));
    }
    QByteArray header = "{'descr': '<f4', 'fortran_order': False, 'shape': (200, 151936), }";
    while ((10 + header.size() + 1) % 64 != 0)
        header += ' ';
    header += '\n';
    QByteArray file("\x93NUMPY\x01\x00", 8);
    file += static_cast<char>(header.size() & 0xFF);
    file += static_cast<char>(header.size() >> 8);
    file += header;
    QByteArray row(static_cast<qsizetype>(kVocabulary * 4), Qt::Uninitialized);
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly) || out.write(file) != file.size())
        qFatal("cannot write the benchmark file");
    for (std::uint64_t s = 0; s < kSteps; ++s) {
        for (std::uint64_t t = 0; t < kVocabulary; ++t) {
            // A smooth, Zipf-like logit per token, shifted per step, so every step differs.
            const float v = static_cast<float>(-std::log1p(static_cast<double>((t * 7919 + s * 104729) % kVocabulary)));
            std::memcpy(row.data() + t * 4, &v, 4);
        }
        if (out.write(row) != row.size())
            qFatal("cannot write the benchmark file");
    }
    return path;
}

void LoadRow199(benchmark::State& state)
{
    const QString path = benchFile();
    app::LogitsFileRequest request;
    request.row.step = 199;
    for (auto _ : state) {
        auto read = app::readLogitsFile(path, request);
        if (!read)
            state.SkipWithError(read.error().c_str());
        benchmark::DoNotOptimize(read->distribution.logits.data());
    }
}
BENCHMARK(LoadRow199)->Unit(benchmark::kMillisecond)->Repetitions(9)->ReportAggregatesOnly(true);

void EntropyScan200Steps(benchmark::State& state)
{
    const QString path = benchFile();
    for (auto _ : state) {
        auto summary = app::summarizeSteps(path, {}, 0, {});
        if (!summary)
            state.SkipWithError(summary.error().c_str());
        benchmark::DoNotOptimize(summary->entropy.data());
    }
}
BENCHMARK(EntropyScan200Steps)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

}  // namespace

BENCHMARK_MAIN();
