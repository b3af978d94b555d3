// Logits files written byte by byte for the import tests: .npy (every header version, dtype,
// byte order and memory order), safetensors, and the values they hold, so what is read back can
// be checked exactly. The layouts follow numpy.lib.format and huggingface/safetensors.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QTemporaryDir>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <vector>

namespace logitlab::test {

// The value at (batch, step, token) of every fixture: exact in float16, bfloat16, float32 and
// float64 (at most 8 significant bits), with token 3 of step 1 at -inf (a banned token).
inline double fixtureValue(std::uint64_t batch, std::uint64_t step, std::uint64_t token)
{
    if (step == 1 && token == 3)
        return -std::numeric_limits<double>::infinity();
    return static_cast<double>(batch) * 16.0 + static_cast<double>(step) * 2.0 + static_cast<double>(token) * 0.25 -
           1.5;
}

// Bits of `v` in a format with `mantissaBits` stored bits and `exponentBits`: only for values
// the format holds exactly (and zero, infinities, NaN).
inline std::uint64_t smallFloatBits(double v, int exponentBits, int mantissaBits)
{
    const std::uint64_t sign = std::signbit(v) ? 1 : 0;
    const std::uint64_t allOnes = (std::uint64_t{1} << exponentBits) - 1;
    std::uint64_t exponent = 0;
    std::uint64_t mantissa = 0;
    if (std::isnan(v)) {
        exponent = allOnes;
        mantissa = std::uint64_t{1} << (mantissaBits - 1);
    } else if (std::isinf(v)) {
        exponent = allOnes;
    } else if (v != 0) {
        int e = 0;
        const double m = std::frexp(std::fabs(v), &e);  // |v| = m 2^e, m in [0.5, 1)
        exponent = static_cast<std::uint64_t>(e - 1 + static_cast<int>(allOnes / 2));
        mantissa = static_cast<std::uint64_t>(std::ldexp(m * 2 - 1, mantissaBits));
    }
    return (sign << (exponentBits + mantissaBits)) | (exponent << mantissaBits) | mantissa;
}

// One element of `descr` ("<f4", ">f2", "BF16", ...) in its byte order.
inline QByteArray elementBytes(double v, char type, bool bigEndian)
{
    std::uint64_t bits = 0;
    int size = 0;
    switch (type) {
    case 'h':  // float16
        bits = smallFloatBits(v, 5, 10);
        size = 2;
        break;
    case 'b':  // bfloat16
        bits = std::bit_cast<std::uint32_t>(static_cast<float>(v)) >> 16;
        size = 2;
        break;
    case 'f':
        bits = std::bit_cast<std::uint32_t>(static_cast<float>(v));
        size = 4;
        break;
    default:
        bits = std::bit_cast<std::uint64_t>(v);
        size = 8;
        break;
    }
    QByteArray out(size, '\0');
    for (int i = 0; i < size; ++i)
        out[bigEndian ? size - 1 - i : i] = static_cast<char>((bits >> (8 * i)) & 0xFF);
    return out;
}

// The data of `shape` in C or Fortran order, element (b, s, t) from `value` (1-D and 2-D shapes
// use batch 0 and step 0).
inline QByteArray arrayData(const std::vector<std::uint64_t>& shape, bool fortran, char type, bool bigEndian,
                            const std::function<double(std::uint64_t, std::uint64_t, std::uint64_t)>& value)
{
    const std::uint64_t v = shape.back();
    const std::uint64_t steps = shape.size() >= 2 ? shape[shape.size() - 2] : 1;
    const std::uint64_t batches = shape.size() == 3 ? shape[0] : 1;
    QByteArray data;
    if (!fortran) {
        for (std::uint64_t b = 0; b < batches; ++b)
            for (std::uint64_t s = 0; s < steps; ++s)
                for (std::uint64_t t = 0; t < v; ++t)
                    data += elementBytes(value(b, s, t), type, bigEndian);
    } else {
        for (std::uint64_t t = 0; t < v; ++t)
            for (std::uint64_t s = 0; s < steps; ++s)
                for (std::uint64_t b = 0; b < batches; ++b)
                    data += elementBytes(value(b, s, t), type, bigEndian);
    }
    return data;
}

// "(2, 3, 4)" / "(4,)": the shape as numpy writes it.
inline QByteArray pythonShape(const std::vector<std::uint64_t>& shape)
{
    QByteArray text = "(";
    for (std::size_t i = 0; i < shape.size(); ++i)
        text += (i ? ", " : "") + QByteArray::number(static_cast<qulonglong>(shape[i]));
    return text + (shape.size() == 1 ? ",)" : ")");
}

// A .npy file: magic, version, header length (2 bytes for 1.0, 4 for 2.0 and 3.0), the dict
// padded with spaces to a multiple of 64 and ended by '\n', then `data`.
inline QByteArray npyFile(const QByteArray& descr, bool fortran, const QByteArray& shapeText, const QByteArray& data,
                          int major = 1)
{
    QByteArray dict = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
                      ", 'shape': " + shapeText + ", }";
    const int preamble = major == 1 ? 10 : 12;
    while ((preamble + dict.size() + 1) % 64 != 0)
        dict += ' ';
    dict += '\n';
    QByteArray file("\x93NUMPY", 6);
    file += static_cast<char>(major);
    file += '\0';
    const int lengthBytes = major == 1 ? 2 : 4;
    for (int i = 0; i < lengthBytes; ++i)
        file += static_cast<char>((dict.size() >> (8 * i)) & 0xFF);
    return file + dict + data;
}

// A safetensors file: 8-byte little-endian header length, the JSON header padded with spaces
// to a multiple of 8, then the data.
inline QByteArray safetensorsFile(QByteArray header, const QByteArray& data)
{
    while (header.size() % 8 != 0)
        header += ' ';
    QByteArray file;
    for (int i = 0; i < 8; ++i)
        file += static_cast<char>((static_cast<quint64>(header.size()) >> (8 * i)) & 0xFF);
    return file + header + data;
}

// Writes `bytes` to `name` in `dir` and returns the path.
inline QString writeFixture(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write the fixture %s", qPrintable(path));
    return path;
}

}  // namespace logitlab::test
