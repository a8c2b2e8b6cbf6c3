#pragma once
// Streams for yojimbo-style symmetric codecs: one serialize() per message both writes and reads.
// Writing takes const fields; reading fills them and fails with a DecodeError instead of throwing.
#include <cstddef>
#include <concepts>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>
#include <string>
#include <vector>

#include "protocol/bytes.hpp"
#include "protocol/errors.hpp"
#include "protocol/utf8.hpp"

namespace hschool::protocol {

class WriteStream {
public:
    static constexpr bool kReading = false;
    // Appends to out, making room for `expected` bytes at once (the message's size, or a guess).
    WriteStream(Bytes& out, std::size_t expected) : writer_(out, expected) {}
    // Trims out to what was written.
    void finish() { writer_.finish(); }

    bool u8(const std::uint8_t& v) { return writer_.u8(v), true; }
    bool u16(const std::uint16_t& v) { return writer_.u16(v), true; }
    // A 3-byte field: a value above 0xFFFFFF is the writer's bug, refused like an over-long string.
    bool u24(const std::uint32_t& v) { return v > 0xFFFFFF ? fail(DecodeError::CountTooLarge) : (writer_.u24(v), true); }
    bool i8(const std::int8_t& v) { return writer_.i8(v), true; }
    bool u32(const std::uint32_t& v) { return writer_.u32(v), true; }
    bool i32(const std::int32_t& v) { return writer_.i32(v), true; }
    bool i64(const std::int64_t& v) { return writer_.i64(v), true; }
    bool f32(const float& v) { return writer_.f32(v), true; }
    // Bytes already encoded by this codec (writing only).
    bool bytes(ByteView v) { return writer_.raw(v), true; }

    // A string behind a u8 or u16 byte length; the writer refuses what the reader would refuse.
    bool string_u8(const std::string& s, std::size_t max_bytes) { return string(s, max_bytes, 1); }
    bool string_u16(const std::string& s, std::size_t max_bytes) { return string(s, max_bytes, 2); }

    // A u8/u16 element count followed by each element.
    template <class Vec, class Each>
    bool sequence(const Vec& items, int count_width, std::size_t max_count, std::size_t, Each&& each) {
        if (items.size() > max_count) return fail(DecodeError::CountTooLarge);
        if (count_width == 1) writer_.u8(static_cast<std::uint8_t>(items.size()));
        else writer_.u16(static_cast<std::uint16_t>(items.size()));
        for (const auto& item : items)
            if (!each(item)) return false;
        return true;
    }

    std::optional<DecodeError> error() const { return error_; }
    // A codec's own check failed (a value the reader would refuse): stops with that error.
    bool invalid(DecodeError e) { return fail(e); }

private:
    bool string(const std::string& s, std::size_t max_bytes, int width) {
        if (s.size() > max_bytes) return fail(DecodeError::LengthTooLarge);
        if (!is_valid_utf8(s)) return fail(DecodeError::InvalidUtf8);
        if (width == 1) writer_.u8(static_cast<std::uint8_t>(s.size()));
        else writer_.u16(static_cast<std::uint16_t>(s.size()));
        writer_.raw(s);
        return true;
    }
    bool fail(DecodeError e) {
        error_ = e;
        return false;
    }
    RoomWriter writer_;
    std::optional<DecodeError> error_;
};

class ReadStream {
public:
    static constexpr bool kReading = true;
    explicit ReadStream(ByteView in) : reader_(in) {}

    bool u8(std::uint8_t& v) { return reader_.u8(v) || truncated(); }
    bool u16(std::uint16_t& v) { return reader_.u16(v) || truncated(); }
    bool u24(std::uint32_t& v) { return reader_.u24(v) || truncated(); }
    bool i8(std::int8_t& v) { return reader_.i8(v) || truncated(); }
    bool u32(std::uint32_t& v) { return reader_.u32(v) || truncated(); }
    bool i32(std::int32_t& v) { return reader_.i32(v) || truncated(); }
    bool i64(std::int64_t& v) { return reader_.i64(v) || truncated(); }
    bool f32(float& v) { return reader_.f32(v) || truncated(); }

    bool string_u8(std::string& s, std::size_t max_bytes) { return string(s, max_bytes, 1); }
    bool string_u16(std::string& s, std::size_t max_bytes) { return string(s, max_bytes, 2); }

    // The count is checked against its maximum and against the bytes left (each element takes at
    // least min_element_bytes) before anything is allocated.
    template <class Vec, class Each>
    bool sequence(Vec& items, int count_width, std::size_t max_count, std::size_t min_element_bytes,
                  Each&& each) {
        std::size_t count = 0;
        if (count_width == 1) {
            std::uint8_t c = 0;
            if (!u8(c)) return false;
            count = c;
        } else {
            std::uint16_t c = 0;
            if (!u16(c)) return false;
            count = c;
        }
        if (count > max_count) return fail(DecodeError::CountTooLarge);
        if (count * min_element_bytes > reader_.remaining()) return fail(DecodeError::CountTooLarge);
        items.resize(count);
        for (auto& item : items)
            if (!each(item)) return false;
        return true;
    }

    bool finished() const { return reader_.at_end(); }
    std::size_t remaining() const { return reader_.remaining(); }
    std::optional<DecodeError> error() const { return error_; }
    bool invalid(DecodeError e) { return fail(e); }

private:
    bool string(std::string& s, std::size_t max_bytes, int width) {
        std::size_t length = 0;
        if (width == 1) {
            std::uint8_t l = 0;
            if (!u8(l)) return false;
            length = l;
        } else {
            std::uint16_t l = 0;
            if (!u16(l)) return false;
            length = l;
        }
        if (length > max_bytes) return fail(DecodeError::LengthTooLarge);
        if (!reader_.raw(s, length)) return truncated();
        if (!is_valid_utf8(s)) return fail(DecodeError::InvalidUtf8);
        return true;
    }
    bool truncated() { return fail(DecodeError::Truncated); }
    bool fail(DecodeError e) {
        if (!error_) error_ = e;
        return false;
    }
    ByteReader reader_;
    std::optional<DecodeError> error_;
};

// Runs a message's serialize() over a frame and insists the frame is consumed exactly.
template <class Msg, class Serialize>
Decoded<Msg> read_exactly(ReadStream& stream, Serialize&& serialize) {
    Msg msg{};
    if (!serialize(stream, msg)) return stream.error().value_or(DecodeError::Truncated);
    if (!stream.finished()) return DecodeError::TrailingBytes;
    return msg;
}

// Decodes one message body straight into the variant a decoder returns.
template <class Msg, class Variant, class Serialize>
Decoded<Variant> read_into(ByteView body, Serialize&& serialize) {
    ReadStream stream(body);
    auto decoded = read_exactly<Msg>(stream, serialize);
    if (!decoded) return decoded.error();
    return Variant{std::move(decoded).value()};
}

// One kind of message of a codec: the id byte that starts it and the type it decodes into.
template <std::uint8_t Id, class Msg>
struct MessageKind {};

template <class Variant, class Unknown, class Serialize, std::uint8_t Id, class Msg, class... Rest>
Decoded<Variant> decode_kind(std::uint8_t id, ByteView body, Serialize& serialize, MessageKind<Id, Msg>, Rest... rest) {
    if (id == Id) return read_into<Msg, Variant>(body, serialize);
    if constexpr (sizeof...(Rest) > 0) return decode_kind<Variant, Unknown>(id, body, serialize, rest...);
    else return Variant{Unknown{id}};
}

// A frame decoded by its first byte into the kind that id names, or into Unknown{id} for an id the
// codec does not know; an empty frame is an error. Each codec lists its kinds once, in one call.
template <class Variant, class Unknown, class Serialize, class... Kinds>
Decoded<Variant> decode_message(ByteView frame, Serialize&& serialize, Kinds... kinds) {
    if (frame.empty()) return DecodeError::Empty;
    return decode_kind<Variant, Unknown>(frame[0], frame.subspan(1), serialize, kinds...);
}

// True for a message type whether the codec holds it const (writing) or not (reading).
template <class M, class T>
concept MessageOf = std::same_as<std::remove_const_t<M>, T>;

// Encoding our own message can only fail through our own bug; it aborts with the reason.
[[noreturn]] void encode_failed(const char* message, DecodeError error);

// Appends the message to out (which may already hold, say, room for a WebSocket header).
template <class Msg, class Serialize>
void append_message(Bytes& out, std::uint8_t id, const Msg& msg, std::size_t size_hint, Serialize&& serialize,
                    const char* name) {
    WriteStream stream(out, size_hint);
    stream.u8(id);
    if (!serialize(stream, msg)) encode_failed(name, stream.error().value_or(DecodeError::Truncated));
    stream.finish();
}

template <class Msg, class Serialize>
Bytes write_message(std::uint8_t id, const Msg& msg, std::size_t size_hint, Serialize&& serialize,
                    const char* name) {
    Bytes out;
    append_message(out, id, msg, size_hint, std::forward<Serialize>(serialize), name);
    return out;
}

}  // namespace hschool::protocol
