// A small multi-step logits file for the per-step seed-sweep tests, written byte by byte: a
// [4, 5] little-endian float32 .npy (format 1.0: magic, header length, a header padded with
// spaces to a multiple of 64 bytes, then the data in C order). Step 2 has one sharp peak.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QtEndian>

namespace logitlab::test {

inline constexpr int kSmallNpySteps = 4;
inline constexpr int kSmallNpyVocabulary = 5;

inline bool writeSmallNpy(const QString& path)
{
    QByteArray header = QByteArrayLiteral("{'descr': '<f4', 'fortran_order': False, 'shape': (4, 5), }");
    while ((10 + header.size() + 1) % 64 != 0)
        header += ' ';
    header += '\n';
    QByteArray bytes("\x93NUMPY\x01\x00", 8);
    const auto length = qToLittleEndian<quint16>(static_cast<quint16>(header.size()));
    bytes.append(reinterpret_cast<const char*>(&length), 2);
    bytes += header;
    for (int s = 0; s < kSmallNpySteps; ++s)
        for (int v = 0; v < kSmallNpyVocabulary; ++v) {
            const float logit = s == 2 ? (v == 3 ? 8.0f : 0.0f) : float((v * 3 + s * 2) % 5) * 0.6f;
            const auto le = qToLittleEndian(logit);
            bytes.append(reinterpret_cast<const char*>(&le), 4);
        }
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

}  // namespace logitlab::test
