#pragma once
// What Sprite v1 and our compact watch stream (hns_compact) share: the little-endian streams that
// serve both directions of one serialize() per message, and the six server messages they have in
// common. Internal to the two codecs' .cpp files.
#include <concepts>
#include <cstdio>
#include <cstdlib>
#include <variant>
#include <vector>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "protocol/sprite_v1.hpp"

namespace hschool::protocol::sprite_v1::detail {

// A valid Snappy block spends at most 6 bytes per output byte (a 5-byte literal tag for 1 byte).
inline constexpr std::uint64_t kMaxSnappyBytesPerRgbaByte = 6;
inline constexpr std::uint64_t kMaxSnappyOverheadBytes = 16;
inline constexpr int kMaxVarintBytes = 5;  // a u32 in base-128

inline std::uint64_t rgba_bytes(std::uint16_t w, std::uint16_t h) { return std::uint64_t{w} * h * 4; }

// The Snappy preamble is the uncompressed length as a little-endian base-128 varint.
inline std::optional<std::uint32_t> snappy_preamble(const Bytes& block) {
    std::uint64_t value = 0;
    for (int i = 0; i < kMaxVarintBytes && i < static_cast<int>(block.size()); ++i) {
        value |= std::uint64_t{block[static_cast<std::size_t>(i)] & 0x7Fu} << (7 * i);
        if ((block[static_cast<std::size_t>(i)] & 0x80u) == 0)
            return value > 0xFFFFFFFFu ? std::nullopt : std::optional<std::uint32_t>(static_cast<std::uint32_t>(value));
    }
    return std::nullopt;
}

class WriteStream {
public:
    explicit WriteStream(Bytes& out) : out_(out) {}

    bool u8(const std::uint8_t& v) { return out_.push_back(v), true; }
    bool u16(const std::uint16_t& v) { return put(v, 2); }
    bool i16(const std::int16_t& v) { return put(static_cast<std::uint16_t>(v), 2); }
    bool u32(const std::uint32_t& v) { return put(v, 4); }
    bool boolean(const bool& v) { return u8(v ? 1 : 0); }
    template <class Blob>
    bool blob(const Blob& b, int length_width, std::size_t max_bytes) {
        if (b.size() > max_bytes) return fail(Error::TooLarge);
        put(b.size(), length_width);
        out_.insert(out_.end(), b.begin(), b.end());
        return true;
    }
    bool optional_mouse_layer(const std::optional<std::uint8_t>& layer) {
        if (!layer) return true;
        if (is_client_id(*layer)) return fail(Error::BadMouseLayer);
        return u8(*layer);
    }
    bool check(bool ok, Error e) { return ok || fail(e); }
    std::optional<Error> error() const { return error_; }

private:
    bool put(std::uint64_t v, int width) {
        for (int i = 0; i < width; ++i) out_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
        return true;
    }
    bool fail(Error e) {
        if (!error_) error_ = e;
        return false;
    }
    Bytes& out_;
    std::optional<Error> error_;
};

class ReadStream {
public:
    explicit ReadStream(ByteView in) : in_(in) {}

    bool u8(std::uint8_t& v) { return get(v, 1); }
    bool u16(std::uint16_t& v) { return get(v, 2); }
    bool i16(std::int16_t& v) {
        std::uint16_t u = 0;
        if (!get(u, 2)) return false;
        v = static_cast<std::int16_t>(u);
        return true;
    }
    bool u32(std::uint32_t& v) { return get(v, 4); }
    bool boolean(bool& v) {
        std::uint8_t b = 0;
        if (!u8(b)) return false;
        if (b > 1) return fail(Error::BadBoolean);
        v = b == 1;
        return true;
    }
    // The length is checked against its maximum and the bytes left before anything is allocated.
    template <class Blob>
    bool blob(Blob& b, int length_width, std::size_t max_bytes) {
        std::uint32_t length = 0;
        if (length_width == 2) {
            std::uint16_t l = 0;
            if (!u16(l)) return false;
            length = l;
        } else if (!u32(length)) {
            return false;
        }
        if (length > max_bytes) return fail(Error::TooLarge);
        if (remaining() < length) return fail(Error::Truncated);
        b.assign(in_.begin() + static_cast<std::ptrdiff_t>(pos_),
                 in_.begin() + static_cast<std::ptrdiff_t>(pos_ + length));
        pos_ += length;
        return true;
    }
    // The layer byte is there only if a byte follows that is not a client message id (§1.2).
    bool optional_mouse_layer(std::optional<std::uint8_t>& layer) {
        if (remaining() == 0 || is_client_id(in_[pos_])) return true;
        layer = in_[pos_++];
        return true;
    }
    bool check(bool ok, Error e) { return ok || fail(e); }
    bool fail(Error e) {
        if (!error_) error_ = e;
        return false;
    }
    std::size_t remaining() const { return in_.size() - pos_; }
    std::optional<Error> error() const { return error_; }

private:
    template <class T>
    bool get(T& v, int width) {
        if (remaining() < static_cast<std::size_t>(width)) return fail(Error::Truncated);
        std::uint64_t out = 0;
        for (int i = 0; i < width; ++i) out |= std::uint64_t{in_[pos_ + static_cast<std::size_t>(i)]} << (8 * i);
        pos_ += static_cast<std::size_t>(width);
        v = static_cast<T>(out);
        return true;
    }
    ByteView in_;
    std::size_t pos_ = 0;
    std::optional<Error> error_;
};

template <class M, class T>
concept Is = std::same_as<std::remove_const_t<M>, T>;

// One function per message serves both directions; errors are checked in field order.
template <class S, Is<DefineSprite> M>
bool serialize(S& s, M& m) {
    if (!(s.u16(m.sprite_id) && s.u16(m.width) && s.u16(m.height))) return false;
    if (!s.check(m.width != 0 && m.height != 0, Error::ZeroDimension)) return false;
    const std::uint64_t rgba = rgba_bytes(m.width, m.height);
    if (!s.check(rgba <= kMaxSpriteRgbaBytes, Error::TooLarge)) return false;
    const std::uint64_t max_block = rgba * kMaxSnappyBytesPerRgbaByte + kMaxSnappyOverheadBytes;
    if (!s.blob(m.pixels, 4, static_cast<std::size_t>(max_block))) return false;
    if (!m.pixels.empty()) {  // empty = pixels stripped (Sprites Off)
        const auto preamble = snappy_preamble(m.pixels);
        if (!s.check(preamble.has_value(), Error::BadSnappy)) return false;
        if (!s.check(*preamble == rgba, Error::SizeMismatch)) return false;
    }
    return s.blob(m.label, 2, kMaxLabelBytes);
}
template <class S, Is<DefineObject> M>
bool serialize(S& s, M& m) {
    return s.u16(m.object_id) && s.i16(m.x) && s.i16(m.y) && s.i16(m.z) && s.u8(m.layer) && s.u16(m.sprite_id);
}
template <class S, Is<DeleteObject> M>
bool serialize(S& s, M& m) {
    return s.u16(m.object_id);
}
template <class S, Is<SetViewport> M>
bool serialize(S& s, M& m) {
    return s.u8(m.layer) && s.u16(m.width) && s.u16(m.height) &&
           s.check(m.width != 0 && m.height != 0, Error::ZeroDimension);
}
template <class S, Is<DefineLayer> M>
bool serialize(S& s, M& m) {
    return s.u8(m.layer) && s.u8(m.type) && s.check(m.type <= kMaxLayerType, Error::BadLayerType) && s.u8(m.flags);
}
template <class S, Is<ClearObjects> M>
bool serialize(S&, M&) {
    return true;
}

// One message behind its id; `out` is left as it was when the message would not decode.
template <class Variant, class MessageId>
std::optional<Error> append_any(Bytes& out, const Variant& message, MessageId) {
    const std::size_t before = out.size();
    WriteStream stream(out);
    const bool ok = std::visit(
        [&](const auto& m) {
            stream.u8(MessageId::template of<std::decay_t<decltype(m)>>());
            return serialize(stream, m);
        },
        message);
    if (ok) return std::nullopt;
    out.resize(before);
    return stream.error().value_or(Error::Truncated);
}

template <class Variant, class MessageId>
Bytes encode_any(const Variant& message, MessageId id, const char* codec) {
    Bytes out;
    if (const auto error = append_any(out, message, id)) {
        std::fprintf(stderr, "hschool: bug: cannot encode a %s message: %s\n", codec, describe(*error));
        std::abort();
    }
    return out;
}

template <class Msg, class Variant>
bool read_one(ReadStream& s, std::vector<Variant>& out) {
    Msg m{};
    if (!serialize(s, m)) return false;
    out.emplace_back(std::move(m));
    return true;
}

// The six server messages both codecs share; nullopt for any other type.
template <class Variant>
std::optional<bool> read_shared_server_message(ReadStream& s, std::uint8_t type, std::vector<Variant>& out) {
    switch (type) {
        case id::kDefineSprite: return read_one<DefineSprite>(s, out);
        case id::kDefineObject: return read_one<DefineObject>(s, out);
        case id::kDeleteObject: return read_one<DeleteObject>(s, out);
        case id::kClearObjects: return read_one<ClearObjects>(s, out);
        case id::kSetViewport: return read_one<SetViewport>(s, out);
        case id::kDefineLayer: return read_one<DefineLayer>(s, out);
        default: return std::nullopt;
    }
}

// Reads messages until the bytes run out or one fails; returns why it stopped, if it failed.
template <class Message, class ReadMessage>
std::optional<Error> read_all(ByteView ws_message, std::vector<Message>& out, ReadMessage read_message) {
    ReadStream s(ws_message);
    while (s.remaining() > 0) {
        std::uint8_t type = 0;
        s.u8(type);
        if (!read_message(s, type, out)) return s.error().value_or(Error::Truncated);
    }
    return std::nullopt;
}

}  // namespace hschool::protocol::sprite_v1::detail
