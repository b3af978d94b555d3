// A copyable owner of an Rng: copying clones the engine, and reset() rewinds it to the state it
// was given in, so stages that draw (XTC) can be cloned and reset like any other stage.
#pragma once

#include "engine/rng/rng.h"

#include <memory>

namespace logitlab::engine {

class RngHandle {
public:
    RngHandle() = default;
    explicit RngHandle(const Rng& prototype) : m_initial(prototype.clone()), m_current(prototype.clone()) {}
    RngHandle(const RngHandle& other) { *this = other; }
    RngHandle& operator=(const RngHandle& other)
    {
        if (this != &other) {
            m_initial = other.m_initial ? other.m_initial->clone() : nullptr;
            m_current = other.m_current ? other.m_current->clone() : nullptr;
        }
        return *this;
    }
    RngHandle(RngHandle&&) noexcept = default;
    RngHandle& operator=(RngHandle&&) noexcept = default;
    ~RngHandle() = default;

    bool valid() const { return m_current != nullptr; }
    Rng& get() { return *m_current; }
    void reset()
    {
        if (m_initial)
            m_current = m_initial->clone();
    }

private:
    std::unique_ptr<Rng> m_initial;
    std::unique_ptr<Rng> m_current;
};

}  // namespace logitlab::engine
