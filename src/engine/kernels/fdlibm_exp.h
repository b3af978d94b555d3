// exp() exactly as JavaScript's Math.exp computes it: fdlibm's e_exp.c algorithm (the one V8
// ships as base::ieee754::exp), operation for operation, so the lesson's softmax gets the lesson's
// bits. glibc's exp rounds differently from it for about one argument in ten.
//
// The scalar fdlibmExp() is the reference. fdlibmExpArray() evaluates the same operations on
// SSE2 or AVX2 lanes; every lane returns the scalar's bits (lanes that need fdlibm's rare
// branches, NaN, overflow, k = 1024 and exp(1), are handed to the scalar).
#pragma once

#include <cstddef>

namespace logitlab::engine {

// The code path fdlibmExpArray() takes. Auto picks AVX2 when the processor has it, else SSE2.
// Avx2WithoutFma is the AVX2 path as it runs on a processor without FMA (the lesson's softmax
// loop uses FMA where that gives the same bits); tests force it.
enum class ExpPath { Auto, Scalar, Sse2, Avx2, Avx2WithoutFma };

double fdlibmExp(double x);

// True when the processor can run `path` (Auto, Scalar and SSE2 always can on x86-64).
bool expPathAvailable(ExpPath path);

// out[i] = fdlibmExp(in[i]) for i in [0, n). `in` and `out` may be the same array.
void fdlibmExpArray(const double* in, double* out, std::size_t n, ExpPath path = ExpPath::Auto);

}  // namespace logitlab::engine
