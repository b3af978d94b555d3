#include "engine/experiments/load_trace.h"

#include "engine/rng/seed_split.h"

#include <algorithm>
#include <charconv>

namespace logitlab::engine {

std::vector<std::int64_t> seededLoadTrace(std::uint64_t seed, std::uint64_t run, std::int64_t steps,
                                          std::int64_t maxBatch)
{
    std::uint64_t state = streamSeed(seed, run);
    const auto below = [&state](std::int64_t n) {
        return static_cast<std::int64_t>(splitMix64(state) % static_cast<std::uint64_t>(n));
    };
    std::vector<std::int64_t> out;
    out.reserve(static_cast<std::size_t>(std::max<std::int64_t>(steps, 0)));
    std::int64_t batch = 1 + below(maxBatch);
    for (std::int64_t t = 0; t < steps; ++t) {
        // Mostly a drift of -1, 0 or +1 request per step; one step in 16 a burst to anywhere.
        if (below(16) == 0)
            batch = 1 + below(maxBatch);
        else
            batch = std::clamp<std::int64_t>(batch + below(3) - 1, 1, maxBatch);
        out.push_back(batch);
    }
    return out;
}

std::vector<std::int64_t> fileLoadTrace(const std::vector<std::int64_t>& trace, std::uint64_t run, std::int64_t steps)
{
    std::vector<std::int64_t> out;
    if (trace.empty())
        return out;
    for (std::int64_t t = 0; t < steps; ++t)
        out.push_back(trace[(run + static_cast<std::uint64_t>(t)) % trace.size()]);
    return out;
}

Result<std::vector<std::int64_t>> parseLoadTrace(const std::string& text)
{
    std::vector<std::int64_t> out;
    std::size_t lineNumber = 0;
    // A UTF-8 byte order mark (Excel, Notepad) is not part of the data, as in logits files.
    std::size_t at = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
    while (at <= text.size()) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        std::string line = text.substr(at, end - at);
        at = end + 1;
        ++lineNumber;
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
            line.pop_back();
        const std::size_t first = line.find_first_not_of(" \t");
        if (first == std::string::npos || line[first] == '#')
            continue;
        line = line.substr(first);
        std::int64_t value = 0;
        const auto [ptr, ec] = std::from_chars(line.data(), line.data() + line.size(), value);
        if (ec != std::errc() || ptr != line.data() + line.size())
            return Error{"line " + std::to_string(lineNumber) + ": \"" + line.substr(0, 40) +
                         "\" is not a whole batch size"};
        if (value < 1 || value > kMaxBatch)
            return Error{"line " + std::to_string(lineNumber) + ": batch size " + std::to_string(value) +
                         ": must be 1.." + std::to_string(kMaxBatch)};
        out.push_back(value);
        if (end == text.size())
            break;
    }
    if (out.empty())
        return Error{"holds no batch size"};
    return out;
}

}  // namespace logitlab::engine
