#include "charts/explorer_snapshot.h"

#include "charts/token_display.h"
#include "engine/core/number_format.h"

#include <QObject>

namespace logitlab::ui {

ExplorerSnapshot::ExplorerSnapshot() : m_table(std::make_shared<const engine::PreparedDistribution>()) {}

ExplorerSnapshot::ExplorerSnapshot(std::shared_ptr<const engine::PreparedDistribution> table,
                                   const engine::ExplorerChain& chain, std::optional<engine::SamplerAnalysis> analysis)
{
    reset(std::move(table), chain, std::move(analysis));
}

engine::SamplerAnalysis ExplorerSnapshot::analyse(const engine::PreparedDistribution& table,
                                                  const engine::ExplorerChain& chain)
{
    const auto& logits = table.distribution.logits;
    if (logits.size() == 0 || table.problem ||
        engine::validateExplorerChain(chain, static_cast<std::size_t>(logits.size()))) {
        engine::SamplerAnalysis empty;
        empty.probabilities.assign(static_cast<std::size_t>(logits.size()), 0.0);
        return empty;
    }
    return engine::analyseExplorerChain(logits, chain, table.byLogit);
}

void ExplorerSnapshot::reset(std::shared_ptr<const engine::PreparedDistribution> table,
                             const engine::ExplorerChain& chain, std::optional<engine::SamplerAnalysis> analysis)
{
    m_table = std::move(table);
    m_chain = chain;
    recompute(std::move(analysis));
}

bool ExplorerSnapshot::setChain(const engine::ExplorerChain& chain)
{
    if (chain == m_chain)
        return false;
    m_chain = chain;
    recompute();
    return true;
}

void ExplorerSnapshot::setTable(std::shared_ptr<const engine::PreparedDistribution> table, bool reanalyse)
{
    m_table = std::move(table);
    if (reanalyse)
        recompute();
}

void ExplorerSnapshot::recompute(std::optional<engine::SamplerAnalysis> analysis)
{
    const std::size_t n = size();
    // Clear only the old survivors' marks: at V = 262,144 a full reset is a megabyte per step.
    if (m_survivorIndex.size() != n)
        m_survivorIndex.assign(n, -1);
    else
        for (const auto& c : m_analysis.survivors)
            m_survivorIndex[static_cast<std::size_t>(c.id)] = -1;
    m_analysis = analysis ? std::move(*analysis) : analyse(*m_table, m_chain);
    const auto& survivors = m_analysis.survivors;
    for (std::size_t i = 0; i < survivors.size(); ++i)
        m_survivorIndex[static_cast<std::size_t>(survivors[i].id)] = static_cast<int>(i);
}

QString ExplorerSnapshot::tokenName(std::int32_t id) const
{
    return QString::fromStdString(m_table->distribution.tokens[static_cast<std::size_t>(id)]);
}

QString ExplorerSnapshot::shownName(std::int32_t id) const
{
    return shownTokenName(m_table->distribution.tokens[static_cast<std::size_t>(id)]);
}

QString ExplorerSnapshot::cutDescription() const
{
    const auto& a = m_analysis;
    if (a.survivors.empty())
        return {};
    const QString last = shownName(a.survivors.back().id);
    switch (a.rule) {
    case engine::CutRule::Greedy:
        return QObject::tr("greedy: argmax '%1'").arg(last);
    case engine::CutRule::TopP: {
        // Enough digits that the shown total is visibly above p ("0.900 > 0.9" would read as a tie).
        QString total = QString::number(a.massKept, 'f', 3);
        for (int digits = 4; digits <= 12 && total.toDouble() <= a.cutThreshold; ++digits)
            total = QString::number(a.massKept, 'f', digits);
        return QObject::tr("cumulative %1 > %2 after '%3'")
            .arg(total, QString::fromStdString(engine::formatDouble(a.cutThreshold)), last);
    }
    case engine::CutRule::TopK:
        return QObject::tr("top-k = %1 keeps the %1 most likely, up to '%2'").arg(a.survivors.size()).arg(last);
    case engine::CutRule::Chain:
        // The rule is the chain itself, in its order, and the running total is the probability
        // the survivors held before renormalising.
        return QObject::tr("%1: %2\nkeeps %L3 of %L4 (p kept %5), down to '%6'")
            .arg(QString::fromStdString(engine::semanticsName(m_chain.semantics)),
                 QString::fromStdString(engine::describeExplorerChain(m_chain)))
            .arg(a.survivors.size())
            .arg(size())
            .arg(QString::number(a.massKept, 'f', 3))
            .arg(last);
    case engine::CutRule::None:
        break;
    }
    return QObject::tr("no cut: all %1 tokens survive").arg(a.survivors.size());
}

}  // namespace logitlab::ui
