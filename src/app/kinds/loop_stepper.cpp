#include "app/kinds/loop_stepper.h"

#include <QElapsedTimer>

namespace logitlab::app {

namespace {

// Whether a slice that started at `clock` still has time (a negative limit never ends).
bool inSlice(const QElapsedTimer& clock, std::int64_t sliceMs) { return sliceMs < 0 || clock.elapsed() < sliceMs; }

}  // namespace

QJsonObject LoopStepper::keyOf(const LoopSpec& spec)
{
    QJsonObject json = toJson(spec);
    for (const char* key : {"steps", "branch", "name", "description"})
        json.remove(QLatin1String(key));
    return json;
}

bool LoopStepper::isFor(const LoopSpec& spec) const { return m_main && m_key == keyOf(spec); }

QString LoopStepper::start(const LoopSpec& spec, std::shared_ptr<const engine::StepLogitsSource> source)
{
    auto loop = makeLoop(spec, std::move(source));
    if (!loop)
        return QString::fromStdString(loop.error());
    m_main.emplace(std::move(loop).value());
    m_branch.reset();
    ++m_mainGeneration;
    ++m_branchGeneration;
    m_key = keyOf(spec);
    return {};
}

void LoopStepper::adopt(const LoopSpec& spec, std::optional<engine::GenerationLoop> main,
                        std::optional<engine::GenerationLoop> branch)
{
    m_main = std::move(main);
    m_branch = std::move(branch);
    m_branchTarget = m_branch ? m_branch->steps().size() : 0;
    ++m_mainGeneration;
    ++m_branchGeneration;
    m_key = keyOf(spec);
}

void LoopStepper::clear()
{
    m_main.reset();
    m_branch.reset();
    ++m_mainGeneration;
    ++m_branchGeneration;
}

std::size_t LoopStepper::stepMain(std::size_t target, std::int64_t sliceMs)
{
    if (!m_main)
        return 0;
    QElapsedTimer clock;
    clock.start();
    std::size_t taken = 0;
    while (m_main->steps().size() < target && !m_main->atEnd() && inSlice(clock, sliceMs)) {
        m_main->step();
        ++taken;
    }
    return taken;
}

void LoopStepper::rewindOne()
{
    if (!m_main || m_main->steps().empty())
        return;
    const std::size_t to = m_main->steps().size() - 1;
    m_main->rewind(to);  // the runs lose their last steps: views cut theirs
    if (m_branch) {
        if (m_branch->steps().size() > to)
            m_branch->rewind(to);
        if (!engine::firstDivergence(m_main->steps(), m_branch->steps()))
            m_branch.reset();
    }
}

void LoopStepper::branch(std::size_t at, std::optional<std::int32_t> forced, std::unique_ptr<engine::Rng> rng)
{
    m_branch.emplace(*m_main, at);  // not the steps after `at`: copying their records costs ms
    ++m_branchGeneration;
    if (forced)
        m_branch->step(forced);
    else if (rng)
        m_branch->reseed(std::move(rng));
    m_branchTarget = m_main->steps().size();
}

bool LoopStepper::stepBranch(std::int64_t sliceMs)
{
    if (!m_branch)
        return true;
    QElapsedTimer clock;
    clock.start();
    while (m_branch->steps().size() < m_branchTarget && !m_branch->atEnd() && inSlice(clock, sliceMs))
        m_branch->step();
    return m_branch->steps().size() >= m_branchTarget || m_branch->atEnd();
}

std::optional<engine::Divergence> LoopStepper::divergence() const
{
    if (!m_main || !m_branch)
        return std::nullopt;
    return engine::firstDivergence(m_main->steps(), m_branch->steps());
}

std::vector<std::int32_t> LoopStepper::contextAt(std::size_t at) const
{
    std::vector<std::int32_t> context = m_main->prompt();
    const auto history = m_main->history();
    context.insert(context.end(), history.begin(), history.begin() + static_cast<std::ptrdiff_t>(at));
    return context;
}

engine::Distribution LoopStepper::distributionAt(std::size_t at) const
{
    const std::vector<std::int32_t> context = contextAt(at);
    if (m_main->hasModel())
        return m_main->model().distributionAfter(context);
    engine::Distribution distribution;
    distribution.tokens = m_main->vocabulary();
    distribution.logits.resize(static_cast<Eigen::Index>(distribution.tokens.size()));
    m_main->source().logits(at, context, distribution.logits.data());
    return distribution;
}

std::vector<LoopTrack> LoopStepper::tracks() const
{
    std::vector<LoopTrack> out;
    if (m_main)
        out.push_back(trackOf(*m_main, QStringLiteral("main")));
    if (m_branch)
        out.push_back(trackOf(*m_branch, QStringLiteral("branch")));
    return out;
}

}  // namespace logitlab::app
