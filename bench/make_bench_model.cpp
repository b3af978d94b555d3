// Writes a GGUF model file of a benchmark shape with random weights (tests/support's writer and
// its 12-token tokenizer, which names the first ids), for timing whole commands on a model of a
// real size: `make_bench_model OUT.gguf smollm2|llama1b q8_0|f32|q4_k`. docs/benchmarks.md.
#include "model_shapes.h"
#include "support/tiny_gguf_model.h"

#include <cstdio>
#include <string>

using namespace logitlab;

int main(int argc, char** argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: make_bench_model OUT.gguf smollm2|llama1b q8_0|f32|q4_k\n");
        return 2;
    }
    const std::string shape = argv[2];
    const std::string type = argv[3];
    if ((shape != "smollm2" && shape != "llama1b") || (type != "q8_0" && type != "f32" && type != "q4_k")) {
        std::fprintf(stderr, "make_bench_model: unknown shape or type\n");
        return 2;
    }
    const auto matrices = type == "f32"    ? test::GgmlType::F32
                          : type == "q8_0" ? test::GgmlType::Q8_0
                                           : test::GgmlType::Q4_K;
    const auto config = shape == "smollm2" ? bench::smolLm2Shape() : bench::llama1BShape();
    if (!test::modelOfShape(config, matrices).writeFile(argv[1])) {
        std::fprintf(stderr, "make_bench_model: cannot write %s\n", argv[1]);
        return 1;
    }
    return 0;
}
