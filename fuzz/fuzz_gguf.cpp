// Fuzzes reading GGUF model files (engine::gguf::GgufFile::parse, issue 36): the header, the
// metadata of every value type, the tensor directory; an accepted file has every row of every
// tensor dequantised (the data must lie inside the input) and every typed look-up tried on
// every key. A refusal must be one line.
#include "engine/gguf/gguf_file.h"
#include "fuzz_support.h"

#include <span>
#include <vector>

using namespace logitlab::engine::gguf;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
    const auto file = GgufFile::parse(bytes, "fuzz.gguf");
    if (!file) {
        if (file.error().find('\n') != std::string::npos)
            std::abort();
        return 0;
    }
    std::vector<float> row;
    for (const TensorInfo& t : file->tensors()) {
        if (t.data.data() < bytes.data() || t.data.data() + t.data.size() > bytes.data() + bytes.size())
            std::abort();
        row.resize(static_cast<std::size_t>(t.ne[0]));
        for (std::uint64_t r = 0; r < t.rows(); ++r)
            dequantizeRow(t.type, t.row(r).data(), row.data(), row.size());
    }
    for (const auto& entry : file->metadata()) {
        const std::string& key = entry.first;
        (void)typeOf(entry.second);
        (void)file->string(key);
        (void)file->unsignedInteger(key);
        (void)file->number(key);
        (void)file->stringArray(key);
        (void)file->floatArray(key);
        (void)file->intArray(key);
    }
    return 0;
}
