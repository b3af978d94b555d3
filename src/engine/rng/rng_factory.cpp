#include "engine/rng/rng_factory.h"

#include "engine/rng/mersenne_twister.h"
#include "engine/rng/mulberry32.h"

namespace logitlab::engine {

const std::vector<std::string>& rngNames()
{
    static const std::vector<std::string> names{"mulberry32", "mt19937", "mt19937_64"};
    return names;
}

Result<std::unique_ptr<Rng>> makeRng(const std::string& name, std::uint64_t seed)
{
    if (name == "mulberry32")
        return std::unique_ptr<Rng>(std::make_unique<Mulberry32>(seed));
    if (name == "mt19937")
        return std::unique_ptr<Rng>(std::make_unique<Mt19937>(seed));
    if (name == "mt19937_64")
        return std::unique_ptr<Rng>(std::make_unique<Mt19937_64>(seed));
    std::string known;
    for (const auto& n : rngNames())
        known += (known.empty() ? "" : ", ") + n;
    return Error{"rng: unknown generator '" + name + "' (known: " + known + ")"};
}

}  // namespace logitlab::engine
