// What the fuzz targets share: the fuzzer's bytes as a file on disk (for the readers that take a
// path, so the whole read path is fuzzed, size checks included) and as text.
#pragma once

#include <QDir>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <unistd.h>

namespace logitlab::fuzz {

inline std::string_view asText(const std::uint8_t* data, std::size_t size)
{
    return {reinterpret_cast<const char*>(data), size};
}

// Writes the input to one file per process (several fuzzer jobs may run at once) and returns its
// path. `suffix` keeps the extension readers may look at (".json", ".csv").
inline QString writeInputFile(const std::uint8_t* data, std::size_t size, const char* suffix)
{
    static const QString path =
        QDir::temp().filePath(QStringLiteral("logitlab-fuzz-%1%2").arg(::getpid()).arg(QLatin1String(suffix)));
    static const QByteArray local = path.toLocal8Bit();
    std::FILE* file = std::fopen(local.constData(), "wb");
    if (!file)
        std::abort();  // the fuzzer cannot work without its scratch file: stop loudly
    if (size > 0 && std::fwrite(data, 1, size, file) != size)
        std::abort();
    std::fclose(file);
    return path;
}

}  // namespace logitlab::fuzz
