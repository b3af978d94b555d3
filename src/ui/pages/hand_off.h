// What one page hands another (Page::distributionOffered -> MainWindow::handOff ->
// Page::acceptDistribution): a next-token distribution and, from a Loop step, the chain that step
// ran with, as the Explorer holds chains, with the tokens before the step as its context.
#pragma once

#include "engine/sampler/distribution.h"
#include "engine/sampler/explorer_chain.h"

#include <QMetaType>
#include <QString>

#include <optional>
#include <utility>

namespace logitlab::ui {

struct HandOff {
    HandOff() = default;
    // Implicit: a bare distribution is a hand-off without a chain.
    HandOff(engine::Distribution d) : distribution(std::move(d)) {}

    engine::Distribution distribution;
    std::optional<engine::ExplorerChain> chain;  // unset: the receiver keeps its own
    QString note;                                // what did not come along, and why; empty when all did
};

}  // namespace logitlab::ui

Q_DECLARE_METATYPE(logitlab::ui::HandOff)
