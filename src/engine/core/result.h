// A value or an error message: how the engine reports bad input without exceptions or Qt.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace logitlab::engine {

struct Error {
    std::string message;
};

template <class T>
class Result {
public:
    Result(T value) : m_data(std::move(value)) {}      // NOLINT: implicit on purpose, like std::expected
    Result(Error error) : m_data(std::move(error)) {}  // NOLINT

    bool ok() const { return std::holds_alternative<T>(m_data); }
    explicit operator bool() const { return ok(); }

    const T& value() const& { return std::get<T>(m_data); }
    T& value() & { return std::get<T>(m_data); }
    T&& value() && { return std::get<T>(std::move(m_data)); }
    const T& operator*() const& { return value(); }
    T& operator*() & { return value(); }
    const T* operator->() const { return &value(); }
    // Non-const too, so std::move(result->member) moves (a 262,144-logit distribution) instead
    // of copying through a const pointer.
    T* operator->() { return &value(); }

    const std::string& error() const { return std::get<Error>(m_data).message; }

private:
    std::variant<T, Error> m_data;
};

}  // namespace logitlab::engine
