#include "engine/sampler/cut_report.h"

#include "engine/core/number_format.h"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <limits>
#include <map>
#include <set>

namespace logitlab::engine {

namespace {

struct NotedRun {
    std::set<std::int32_t> survivors;
    std::vector<CutNote> notes;
};

NotedRun runNoted(const SamplerChain& chain, Arithmetic arithmetic, const Eigen::Ref<const Eigen::ArrayXd>& logits,
                  const std::vector<std::int32_t>& history)
{
    SamplerChain copy = chain;
    copy.setArithmetic(arithmetic);
    copy.reset();
    NotedRun run;
    SamplerContext context;
    context.history = history;
    context.cutNotes = &run.notes;
    // The chain's own stages (not the lesson's fast path, which notes nothing).
    const Eigen::ArrayXd owned = logits;
    const CandidateArray final = copy.run(owned.data(), static_cast<std::size_t>(owned.size()), context);
    for (const TokenData& t : final.data())
        if (t.p > 0.0)
            run.survivors.insert(t.id);
    return run;
}

// The note of the stage where the token's fate was decided in `notes`: its first "cut" note, or
// its last note when it stayed everywhere.
const CutNote* decidingNote(const std::vector<CutNote>& notes, std::int32_t id, bool kept, const std::string& stage)
{
    const CutNote* found = nullptr;
    for (const CutNote& n : notes) {
        if (n.id != id || (!stage.empty() && n.stage != stage))
            continue;
        if (!kept && !n.kept)
            return &n;
        found = &n;
    }
    return found;
}

// Nine significant digits: enough to tell float32 numbers apart.
std::string digits(double v)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.9g", v);
    return buffer;
}

std::string tokenText(std::int32_t id, const TokenNamer& name)
{
    const std::string n = name ? name(id) : std::string();
    return n.empty() || n == std::to_string(id) ? std::to_string(id) : std::to_string(id) + " (" + n + ")";
}

}  // namespace

std::vector<RoundingNote> roundingDependence(const SamplerChain& chain, const Eigen::Ref<const Eigen::ArrayXd>& logits,
                                             const std::vector<std::int32_t>& history)
{
    std::vector<RoundingNote> out;
    if (chain.semantics() == Semantics::Lesson)
        return out;
    const NotedRun exact = runNoted(chain, Arithmetic::Exact, logits, history);
    const NotedRun library = runNoted(chain, Arithmetic::Library, logits, history);
    std::set<std::int32_t> differing;
    std::set_symmetric_difference(exact.survivors.begin(), exact.survivors.end(), library.survivors.begin(),
                                  library.survivors.end(), std::inserter(differing, differing.end()));
    for (std::int32_t id : differing) {
        RoundingNote note;
        note.id = id;
        note.keptByLibrary = library.survivors.count(id) > 0;
        const NotedRun& cutting = note.keptByLibrary ? exact : library;
        const NotedRun& keeping = note.keptByLibrary ? library : exact;
        if (const CutNote* cut = decidingNote(cutting.notes, id, false, {}); cut && !cut->kept) {
            if (const CutNote* kept = decidingNote(keeping.notes, id, true, cut->stage)) {
                note.noted = true;
                note.library = note.keptByLibrary ? *kept : *cut;
                note.exact = note.keptByLibrary ? *cut : *kept;
            }
        }
        out.push_back(std::move(note));
    }
    return out;
}

std::vector<TieNote> tiesAtCuts(const SamplerChain& chain, const Eigen::Ref<const Eigen::ArrayXd>& logits,
                                const std::vector<std::int32_t>& history)
{
    const NotedRun run = runNoted(chain, chain.arithmetic(), logits, history);
    // Per stage and logit, which ids stayed and which went (the first note of an id per stage).
    std::map<std::pair<std::string, double>, TieNote> groups;
    std::set<std::pair<std::string, std::int32_t>> seen;
    for (const CutNote& n : run.notes) {
        if (!seen.insert({n.stage, n.id}).second || n.logit == -std::numeric_limits<double>::infinity())
            continue;
        TieNote& tie = groups[{n.stage, n.logit}];
        tie.stage = n.stage;
        tie.logit = n.logit;
        (n.kept ? tie.kept : tie.cut).push_back(n.id);
    }
    std::vector<TieNote> out;
    for (auto& [key, tie] : groups)
        if (!tie.kept.empty() && !tie.cut.empty()) {
            std::sort(tie.kept.begin(), tie.kept.end());
            std::sort(tie.cut.begin(), tie.cut.end());
            out.push_back(std::move(tie));
        }
    return out;
}

std::string describeRounding(const RoundingNote& note, const TokenNamer& name)
{
    std::string text = "token " + tokenText(note.id, name) +
                       (note.keptByLibrary ? ": kept by float32, cut in exact arithmetic"
                                           : ": cut by float32, kept in exact arithmetic");
    if (note.noted)
        text += ": " + note.library.stage + " " + note.library.quantity + " float32 " + digits(note.library.total) +
                " (cut " + digits(note.library.cut) + "), exact " + digits(note.exact.total) + " (cut " +
                digits(note.exact.cut) + ")";
    return text;
}

std::string describeTie(const TieNote& tie, const TokenNamer& name)
{
    const auto list = [&name](const std::vector<std::int32_t>& ids) {
        constexpr std::size_t kShown = 8;  // a tie of thousands of tokens stays one readable line
        std::string out;
        for (std::size_t i = 0; i < std::min(ids.size(), kShown); ++i)
            out += (out.empty() ? "" : ", ") + tokenText(ids[i], name);
        if (ids.size() > kShown)
            out += " and " + std::to_string(ids.size() - kShown) + " more";
        return out;
    };
    return tie.stage + ": tie at logit " + formatDouble(tie.logit) + ": kept " + list(tie.kept) + ", cut " +
           list(tie.cut) + " (LogitLab keeps the lower ids; the libraries do not fix an order)";
}

}  // namespace logitlab::engine
