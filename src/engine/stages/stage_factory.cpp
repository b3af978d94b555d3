#include "engine/stages/stage_factory.h"

#include "engine/stages/dry_stage.h"
#include "engine/stages/dynamic_temperature_stage.h"
#include "engine/stages/epsilon_stage.h"
#include "engine/stages/eta_stage.h"
#include "engine/stages/greedy_stage.h"
#include "engine/stages/logit_bias_stage.h"
#include "engine/stages/min_p_stage.h"
#include "engine/stages/mirostat_v1_stage.h"
#include "engine/stages/mirostat_v2_stage.h"
#include "engine/stages/no_repeat_ngram_stage.h"
#include "engine/stages/penalties_stage.h"
#include "engine/stages/temperature_stage.h"
#include "engine/stages/top_k_stage.h"
#include "engine/stages/top_n_sigma_stage.h"
#include "engine/stages/top_p_stage.h"
#include "engine/stages/typical_stage.h"
#include "engine/stages/xtc_stage.h"

#include <functional>
#include <map>

namespace logitlab::engine {

namespace {

using Maker = std::function<std::unique_ptr<SamplerStage>(Semantics)>;

template <class Stage>
Maker maker()
{
    return [](Semantics s) { return std::make_unique<Stage>(s); };
}

const std::map<std::string, Maker>& makers()
{
    static const std::map<std::string, Maker> all{
        {"logit-bias", maker<LogitBiasStage>()},
        {"penalties", maker<PenaltiesStage>()},
        {"no-repeat-ngram", maker<NoRepeatNgramStage>()},
        {"dry", maker<DryStage>()},
        {"temperature", maker<TemperatureStage>()},
        {"dynamic-temperature", maker<DynamicTemperatureStage>()},
        {"greedy", maker<GreedyStage>()},
        {"top-k", maker<TopKStage>()},
        {"top-p", maker<TopPStage>()},
        {"min-p", maker<MinPStage>()},
        {"typical", maker<TypicalStage>()},
        {"epsilon", maker<EpsilonStage>()},
        {"eta", maker<EtaStage>()},
        {"top-n-sigma", maker<TopNSigmaStage>()},
        {"xtc", maker<XtcStage>()},
        {"mirostat-v1", maker<MirostatV1Stage>()},
        {"mirostat-v2", maker<MirostatV2Stage>()},
    };
    return all;
}

}  // namespace

const std::vector<std::string>& stageNames()
{
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const auto& [name, make] : makers())
            out.push_back(name);
        return out;
    }();
    return names;
}

Result<std::unique_ptr<SamplerStage>> makeStage(const std::string& name, Semantics semantics)
{
    const auto found = makers().find(name);
    if (found == makers().end()) {
        std::string known;
        for (const auto& n : stageNames())
            known += (known.empty() ? "" : ", ") + n;
        return Error{"unknown stage '" + name + "' (known: " + known + ")"};
    }
    return found->second(semantics);
}

}  // namespace logitlab::engine
