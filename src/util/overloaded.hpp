#pragma once
// std::visit over a variant with one lambda per alternative.

namespace hschool {

template <class... F>
struct Overloaded : F... {
    using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;  // clang 14 has no aggregate deduction yet (the sanitizer build)

}  // namespace hschool
