// An array of logits in a binary file, opened once and read row by row: a .npy (memory-mapped),
// an .npz member (inflated into memory; libzip) or a safetensors tensor (memory-mapped). The
// format comes from the content (engine::detectLogitsFormat), not the name.
#pragma once

#include "engine/core/result.h"
#include "engine/io/logits_format.h"
#include "engine/io/npy_header.h"
#include "engine/io/tensor_layout.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <memory>
#include <span>
#include <vector>

namespace logitlab::app {

class MappedFile;

class LogitsArray {
public:
    // `array` names the .npz member or safetensors tensor; empty picks `logits`, or the only one. A text
    // file is refused here (it is not an array); logits_file.h reads both.
    // `values`: Integers opens a token-id array (generate's `sequences`) instead of logits.
    // `maxMemberBytes` caps an .npz member before it is inflated (a sequences array has a
    // known most: its caller passes it, so an over-long one is refused without inflating it).
    static engine::Result<LogitsArray> open(const QString& path, const QString& array,
                                            engine::ArrayValues values = engine::ArrayValues::Floats,
                                            qint64 maxMemberBytes = -1);

    engine::LogitsFormat format() const { return m_format; }
    const engine::TensorLayout& layout() const { return m_layout; }
    // The logits of (batch, step), both from 0; see engine::decodeTensorRow.
    engine::Result<Eigen::ArrayXd> row(std::uint64_t batch, std::uint64_t step) const;
    // An integer array's sequence `batch`, every id below `vocabulary`; see engine::decodeTokenIds.
    engine::Result<std::vector<std::int32_t>> tokenIds(std::uint64_t batch, std::uint64_t vocabulary) const;

private:
    std::span<const unsigned char> bytes() const;

    engine::LogitsFormat m_format = engine::LogitsFormat::Npy;
    engine::TensorLayout m_layout;
    std::shared_ptr<const MappedFile> m_mapped;  // .npy, safetensors
    QByteArray m_member;                         // .npz
};

// The names of the arrays a .npz or safetensors file holds (empty for a .npy: one unnamed array).
engine::Result<QStringList> arrayNames(const QString& path);

// The format of the file from its first 16 bytes (text when unreadable: the text reader says why).
engine::LogitsFormat fileFormat(const QString& path);

// A QByteArray's bytes as the engine's readers take them.
std::span<const unsigned char> byteSpan(const QByteArray& bytes);

}  // namespace logitlab::app
