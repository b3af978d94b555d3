#include "engine/experiments/summation_terms.h"

#include "engine/core/input_limits.h"
#include "engine/io/logits_parser.h"
#include "engine/rng/seed_split.h"
#include "engine/stages/stage_support.h"

#include <cmath>
#include <cstdio>
#include <numbers>

namespace logitlab::engine {

namespace {

struct DistributionName {
    TermDistribution distribution;
    std::string_view name;
};

constexpr DistributionName kNames[] = {
    {TermDistribution::Normal, "normal"}, {TermDistribution::Uniform, "uniform"}, {TermDistribution::Cauchy, "cauchy"},
    {TermDistribution::Mixed, "mixed"},   {TermDistribution::List, "list"},
};

// A uniform double in (0, 1): 53 bits, never 0 (Box-Muller takes its log).
double openUniform(std::uint64_t& state) { return (static_cast<double>(splitMix64(state) >> 11) + 0.5) * 0x1.0p-53; }

}  // namespace

std::string_view termDistributionName(TermDistribution distribution)
{
    return kNames[static_cast<int>(distribution)].name;
}

std::optional<TermDistribution> termDistributionFromName(std::string_view name)
{
    for (const DistributionName& d : kNames)
        if (d.name == name)
            return d.distribution;
    return std::nullopt;
}

std::vector<std::string> termDistributionNames()
{
    std::vector<std::string> out;
    for (const DistributionName& d : kNames)
        out.emplace_back(d.name);
    return out;
}

std::string describeTermDistribution(TermDistribution distribution, double scale)
{
    char s[32];
    std::snprintf(s, sizeof s, "%.17g", scale);
    switch (distribution) {
    case TermDistribution::Normal:
        return std::string("normal, mean 0, sd ") + s;
    case TermDistribution::Uniform:
        return std::string("uniform on [0, ") + s + ")";
    case TermDistribution::Cauchy:
        return std::string("Cauchy (heavy-tailed), scale ") + s;
    case TermDistribution::Mixed:
        return std::string("mixed magnitudes: random sign x 10^U(-4, 4) x ") + s;
    case TermDistribution::List:
        return "a list of terms";
    }
    return {};
}

std::vector<double> generateTerms(TermDistribution distribution, std::size_t n, double scale, std::uint64_t seed)
{
    std::vector<double> out(n);
    std::uint64_t state = seed;
    for (std::size_t i = 0; i < n; ++i) {
        double x = 0.0;
        switch (distribution) {
        case TermDistribution::Normal: {
            // One Box-Muller draw per term (the second value is dropped), so term i depends
            // only on its two uniforms.
            const double u = openUniform(state);
            const double v = openUniform(state);
            x = std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * std::numbers::pi * v);
            break;
        }
        case TermDistribution::Uniform:
            x = static_cast<double>(splitMix64(state) >> 11) * 0x1.0p-53;
            break;
        case TermDistribution::Cauchy:
            x = std::tan(std::numbers::pi * (openUniform(state) - 0.5));
            break;
        case TermDistribution::Mixed: {
            const std::uint64_t bits = splitMix64(state);
            const double exponent = -4.0 + 8.0 * openUniform(state);
            x = ((bits & 1u) ? -1.0 : 1.0) * std::pow(10.0, exponent);
            break;
        }
        case TermDistribution::List:
            break;
        }
        out[i] = scale * x;
    }
    return out;
}

Result<std::vector<double>> parseTermsText(std::string_view text, std::string_view sourceName)
{
    std::vector<double> terms;
    const std::string source(sourceName);
    // A UTF-8 byte order mark (Excel, Notepad) is not part of the data, as in logits files.
    if (text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    std::size_t lineNumber = 0;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        if (!line.empty() && line.back() == '\r')  // CRLF files
            line.remove_suffix(1);
        line = detail::trimSpaces(line);
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
        ++lineNumber;
        if (line.empty() || line.front() == '#')
            continue;
        std::string_view rest = line;
        while (true) {
            const std::size_t comma = rest.find(',');
            const std::string_view item = detail::trimSpaces(rest.substr(0, comma));
            const std::string where = source + ":" + std::to_string(lineNumber) + ": ";
            const auto value = parseDouble(item);
            if (!value)
                return Error{where + "'" + std::string(item) + "' is not a number"};
            if (!std::isfinite(*value))
                return Error{where + "'" + std::string(item) + "' is not finite; terms must be finite numbers"};
            if (terms.size() == kMaxValues)
                return Error{source + ": more than " + groupedNumber(kMaxValues) + " terms"};
            terms.push_back(*value);
            if (comma == std::string_view::npos)
                break;
            rest = rest.substr(comma + 1);
        }
    }
    if (terms.empty())
        return Error{source + ": no terms (one number per line)"};
    return terms;
}

}  // namespace logitlab::engine
