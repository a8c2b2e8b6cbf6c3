#pragma once
// Decode results: errors are values, never exceptions, because they come from the peer.
#include <cstdint>
#include <utility>
#include <variant>

#include "protocol/close_codes.hpp"  // the CloseCode a session answers an undecodable message with

namespace hschool::protocol {

enum class DecodeError : std::uint8_t {
    Empty,           // a frame with no message id
    Truncated,       // a field runs past the end of the frame
    TrailingBytes,   // bytes left after the last field
    LengthTooLarge,  // a string length above its named maximum
    CountTooLarge,   // an element count above its maximum or the bytes left
    InvalidUtf8,     // a string that is not well-formed UTF-8
    InvalidFieldMask,  // v5: a flags or field-mask byte with bits the version does not define
};

const char* describe(DecodeError error);

// A decoded value or why it could not be decoded; E is the codec's own error enum.
template <class T, class E = DecodeError>
class Decoded {
public:
    Decoded(T value) : state_(std::move(value)) {}  // NOLINT: implicit on purpose, like expected
    Decoded(E error) : state_(error) {}              // NOLINT

    bool ok() const { return std::holds_alternative<T>(state_); }
    explicit operator bool() const { return ok(); }
    const T& value() const& { return std::get<T>(state_); }
    T& value() & { return std::get<T>(state_); }
    T&& value() && { return std::get<T>(std::move(state_)); }
    const T& operator*() const& { return value(); }
    const T* operator->() const { return &value(); }
    E error() const { return std::get<E>(state_); }

private:
    std::variant<T, E> state_;
};

}  // namespace hschool::protocol
