// The result-table columns both junk-risk tables share (one distribution by length, and along a
// reply by step): the setting, and the Monte Carlo's replies, hits, estimate and 95% interval.
// A Row has setting, chain, replies, repliesWithJunk, monteCarlo, low and high.
#pragma once

#include "app/kinds/result_table.h"

#include <QObject>
#include <QString>

#include <cmath>
#include <memory>
#include <vector>

namespace logitlab::app {

template <class Row>
std::vector<ResultColumn> junkRiskSettingColumns(const std::shared_ptr<const std::vector<Row>>& rows)
{
    using Kind = ResultColumn::Kind;
    return {columnOf(
                rows, QStringLiteral("setting"), QObject::tr("setting"), Kind::Text,
                [](const Row& r) { return QString::fromStdString(r.setting); },
                QObject::tr("The decoding setting's label.")),
            columnOf(
                rows, QStringLiteral("chain"), QObject::tr("chain"), Kind::Text,
                [](const Row& r) { return QString::fromStdString(r.chain); },
                QObject::tr("The setting's sampler chain."))};
}

// `withJunk` explains replies_with_junk ("among their first N", "... first n").
template <class Row>
std::vector<ResultColumn> junkRiskMonteCarloColumns(const std::shared_ptr<const std::vector<Row>>& rows,
                                                    const QString& withJunk)
{
    using Kind = ResultColumn::Kind;
    // No interval without replies (the analytic-only rows of a run with replies = 0).
    const auto sampled = [](const Row& r, double value) { return r.replies ? value : NAN; };
    return {
        columnOf(
            rows, QStringLiteral("replies"), QObject::tr("replies"), Kind::Integer,
            [](const Row& r) { return qint64(r.replies); }, QObject::tr("Monte Carlo replies drawn.")),
        columnOf(
            rows, QStringLiteral("replies_with_junk"), QObject::tr("with junk"), Kind::Integer,
            [](const Row& r) { return qint64(r.repliesWithJunk); }, withJunk),
        columnOf(
            rows, QStringLiteral("p_any_mc"), QObject::tr("P(junk) Monte Carlo"), Kind::Real,
            [sampled](const Row& r) { return sampled(r, r.monteCarlo); }, QObject::tr("Share of replies with junk.")),
        columnOf(
            rows, QStringLiteral("p_any_mc_low"), QObject::tr("95% low"), Kind::Real,
            [sampled](const Row& r) { return sampled(r, r.low); }, QObject::tr("95% Wilson interval, low end.")),
        columnOf(
            rows, QStringLiteral("p_any_mc_high"), QObject::tr("95% high"), Kind::Real,
            [sampled](const Row& r) { return sampled(r, r.high); }, QObject::tr("95% Wilson interval, high end.")),
    };
}

}  // namespace logitlab::app
