#pragma once
// A value or an error, because C++20 has no std::expected and errors at our boundaries are values.
// Header-only, shared by the content and store layers.
#include <cstdlib>
#include <utility>
#include <variant>

namespace hschool {

template <class E>
struct Unexpected {
    E error;
};

template <class E>
Unexpected<E> unexpected(E error) {
    return Unexpected<E>{std::move(error)};
}

template <class T, class E>
class Expected {
public:
    Expected(T value) : state_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit like std::expected
    Expected(Unexpected<E> failure) : state_(std::in_place_index<1>, std::move(failure.error)) {}  // NOLINT

    bool has_value() const { return state_.index() == 0; }
    explicit operator bool() const { return has_value(); }

    // Reading the value of a failure is our own bug, so it aborts rather than throwing.
    const T& value() const& { return *checked(std::get_if<0>(&state_)); }
    T& value() & { return *checked(std::get_if<0>(&state_)); }
    T&& value() && { return std::move(*checked(std::get_if<0>(&state_))); }
    const T& operator*() const& { return value(); }
    T& operator*() & { return value(); }
    const T* operator->() const { return &value(); }
    T* operator->() { return &value(); }

    const E& error() const& { return *checked(std::get_if<1>(&state_)); }
    E&& error() && { return std::move(*checked(std::get_if<1>(&state_))); }

private:
    template <class P>
    static P* checked(P* pointer) {
        if (pointer == nullptr) std::abort();
        return pointer;
    }

    std::variant<T, E> state_;
};

// Success without a value, or an error.
template <class E>
class Expected<void, E> {
public:
    Expected() = default;
    Expected(Unexpected<E> failure) : error_(std::move(failure.error)), failed_(true) {}  // NOLINT

    bool has_value() const { return !failed_; }
    explicit operator bool() const { return has_value(); }

    const E& error() const& {
        if (!failed_) std::abort();
        return error_;
    }

private:
    E error_{};
    bool failed_ = false;
};

}  // namespace hschool
