// The LM head's kernels, chosen by batch size as a server chooses them. Each kernel has a name
// that every number the lab shows carries:
//   eigen-gemv   Eigen's matrix-vector product W*h (a batch of one request)
//   eigen-gemm   Eigen's matrix-matrix product W*H, H holding h and other requests' states,
//                padded with empty requests to a multiple of 8 columns (servers pad batches
//                to captured sizes; it also keeps every state on Eigen's full-panel path)
//   split-k-S    the reduction over d cut into S equal slices (each an Eigen matrix-vector
//                product), the S partial logits added in slice order; S follows the batch size
//   invariant    one fixed reduction order for every batch size: eight lanes over d (lane
//                k mod 8), added pairwise; no blocking that depends on the shape
// The variable plan is what a throughput-minded server does: gemv for one request, split-K
// for a handful (too few output tiles to keep the cores busy, so the reduction is split, more
// when the batch is smaller), gemm from 8 requests up. The invariant plan uses `invariant` for
// every batch size.
//
// Every kernel works on fixed tiles of 256 rows of W (output tiles, as a GPU kernel's thread
// blocks own them): the tiling is part of the kernel, the same for every batch and vocabulary
// size, and a caller may compute any tile on its own (a decode computes tiles on threads).
//
// For a given kernel the column of h does not depend on the other columns' values nor on its
// position, only on the kernel (tests/engine/tst_batch_kernels.cpp checks this on the machine it
// runs on), which is what lets a decode cache logits per (state, kernel).
#pragma once

#include <Eigen/Core>

#include <compare>
#include <cstdint>
#include <string>
#include <vector>

namespace logitlab::engine {

struct HeadKernel {
    enum class Kind { EigenGemv, EigenGemm, SplitK, Invariant };
    Kind kind = Kind::Invariant;
    int splits = 1;  // SplitK only

    std::string name() const;  // "eigen-gemv", "split-k-4", ...
    // NOLINTNEXTLINE(modernize-use-nullptr): clang-tidy 14 misreads a defaulted <=> as a 0 literal
    friend auto operator<=>(const HeadKernel&, const HeadKernel&) = default;
};

// Which kernel serves which batch size: steps "batch sizes up to N use kernel K", ascending.
class KernelPlan {
public:
    struct Step {
        std::int64_t upTo = 1;
        HeadKernel kernel;
        friend bool operator==(const Step&, const Step&) = default;
    };
    // The server's plan described above.
    static KernelPlan server();
    // `invariant` for every batch size.
    static KernelPlan invariant();
    // Steps with ascending `upTo` >= 1; batch sizes past the last step use the last kernel.
    static KernelPlan fromSteps(std::vector<Step> steps);

    HeadKernel kernelFor(std::int64_t batch) const;
    // Every kernel the plan uses for batch sizes 1..maxBatch, in order of first use.
    std::vector<HeadKernel> kernels(std::int64_t maxBatch) const;
    const std::vector<Step>& steps() const { return m_steps; }
    // "1: eigen-gemv; 2-3: split-k-4; 4-7: split-k-2; 8+: eigen-gemm"
    std::string describe() const;

private:
    std::vector<Step> m_steps;
};

// The kernel a name names (eigen-gemv, eigen-gemm, split-k-S for S in 2..64, invariant);
// false when none.
bool parseKernelName(const std::string& name, HeadKernel& kernel);
inline constexpr int kMaxSplits = 64;

using HeadMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic>;

inline constexpr Eigen::Index kHeadTileRows = 256;
// How many tiles a vocabulary of `rows` has.
Eigen::Index headTileCount(Eigen::Index rows);
// Tile `tile` of W, copied into a matrix of its own: the kernels see the same shape and
// strides whatever V is (Eigen's blocking reads the stride).
HeadMatrix headTile(const HeadMatrix& W, Eigen::Index tile);
// Logits [tile rows x n] of one tile (from headTile) for the n states in H [d x n].
HeadMatrix applyHeadKernelTile(const HeadMatrix& tileRows, const HeadMatrix& H, const HeadKernel& kernel);

// Logits [V x n] for the n states in H [d x n] under `kernel`, tile by tile. EigenGemv runs on
// each column on its own; EigenGemm pads H with zero columns to a multiple of 8.
HeadMatrix applyHeadKernel(const HeadMatrix& W, const HeadMatrix& H, const HeadKernel& kernel);

}  // namespace logitlab::engine
