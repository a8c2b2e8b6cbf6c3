#pragma once
// A value or an error message, for the trust boundaries (room files, configs, replays, orders):
// they return errors, never throw.
#include <optional>
#include <string>
#include <utility>

namespace hschool::sim::hns {

template <class T>
struct Expected {
    std::optional<T> value;
    std::string error;

    static Expected ok(T v) { return Expected{std::move(v), {}}; }
    static Expected fail(std::string message) { return Expected{std::nullopt, std::move(message)}; }
    explicit operator bool() const { return value.has_value(); }
    T& operator*() { return *value; }
    const T& operator*() const { return *value; }
    T* operator->() { return &*value; }
    const T* operator->() const { return &*value; }
};

}  // namespace hschool::sim::hns
