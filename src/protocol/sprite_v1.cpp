#include "protocol/sprite_v1.hpp"

#include "protocol/sprite_serialize.hpp"

#include <concepts>
#include <cstdio>
#include <cstdlib>
#include <type_traits>

namespace hschool::protocol::sprite_v1 {

// The client messages' halves; found from the shared algorithms (sprite_serialize.hpp) by ADL.
namespace detail {

template <class S, Is<InputText> M>
bool serialize(S& s, M& m) {
    return s.blob(m.text, 2, kMaxInputTextBytes);
}
template <class S, Is<MousePosition> M>
bool serialize(S& s, M& m) {
    return s.i16(m.x) && s.i16(m.y) && s.optional_mouse_layer(m.layer);
}
template <class S, Is<MouseButton> M>
bool serialize(S& s, M& m) {
    return s.u8(m.code) && s.boolean(m.down);
}
template <class S, Is<PlayerInput> M>
bool serialize(S& s, M& m) {
    return s.u8(m.mask);
}
template <class S, Is<DebugSprites> M>
bool serialize(S& s, M& m) {
    return s.blob(m.payload, 4, kMaxDebugSpritesBytes);
}
template <class S, class M>
    requires Is<M, PlayerReady> || Is<M, SpritesOff>
bool serialize(S&, M&) {
    return true;
}

}  // namespace detail

namespace {

using namespace detail;

struct MessageId {
    template <class M>
    static constexpr std::uint8_t of() {
        if constexpr (std::is_same_v<M, DefineSprite>) return id::kDefineSprite;
        else if constexpr (std::is_same_v<M, DefineObject>) return id::kDefineObject;
        else if constexpr (std::is_same_v<M, DeleteObject>) return id::kDeleteObject;
        else if constexpr (std::is_same_v<M, ClearObjects>) return id::kClearObjects;
        else if constexpr (std::is_same_v<M, SetViewport>) return id::kSetViewport;
        else if constexpr (std::is_same_v<M, DefineLayer>) return id::kDefineLayer;
        else if constexpr (std::is_same_v<M, InputText>) return id::kInputText;
        else if constexpr (std::is_same_v<M, MousePosition>) return id::kMousePosition;
        else if constexpr (std::is_same_v<M, MouseButton>) return id::kMouseButton;
        else if constexpr (std::is_same_v<M, PlayerInput>) return id::kPlayerInput;
        else if constexpr (std::is_same_v<M, PlayerReady>) return id::kPlayerReady;
        else if constexpr (std::is_same_v<M, DebugSprites>) return id::kDebugSprites;
        else return id::kSpritesOff;
    }
};

bool read_server_message(ReadStream& s, std::uint8_t type, std::vector<ServerMessage>& out) {
    if (const auto read = read_shared_server_message(s, type, out)) return *read;
    return s.fail(Error::UnknownType);
}

bool read_client_message(ReadStream& s, std::uint8_t type, std::vector<ClientMessage>& out) {
    switch (type) {
        case id::kInputText: return read_one<InputText>(s, out);
        case id::kMousePosition: return read_one<MousePosition>(s, out);
        case id::kMouseButton: return read_one<MouseButton>(s, out);
        case id::kPlayerInput: return read_one<PlayerInput>(s, out);
        case id::kPlayerReady: return read_one<PlayerReady>(s, out);
        case id::kDebugSprites: return read_one<DebugSprites>(s, out);
        case id::kSpritesOff: return read_one<SpritesOff>(s, out);
        default: return s.fail(Error::UnknownType);
    }
}

}  // namespace

const char* describe(Error error) {
    switch (error) {
        case Error::UnknownType: return "unknown message type";
        case Error::Truncated: return "truncated message";
        case Error::TooLarge: return "size above the allowed maximum";
        case Error::BadSnappy: return "invalid Snappy pixel block";
        case Error::SizeMismatch: return "pixel block length is not width*height*4";
        case Error::ZeroDimension: return "zero width or height";
        case Error::BadBoolean: return "boolean other than 0 or 1";
        case Error::BadLayerType: return "unknown layer type";
        case Error::BadMouseLayer: return "mouse layer byte reads as a message id";
        case Error::BadScale: return "block scale outside 1..8 or not dividing its size";
        case Error::BadZlib: return "invalid zlib pixel block";
        case Error::BadFlags: return "unknown frame flag";
    }
    return "unknown Sprite v1 error";
}

const char* error_name(Error error) {
    switch (error) {
        case Error::UnknownType: return "UnknownType";
        case Error::Truncated: return "Truncated";
        case Error::TooLarge: return "TooLarge";
        case Error::BadSnappy: return "BadSnappy";
        case Error::SizeMismatch: return "SizeMismatch";
        case Error::ZeroDimension: return "ZeroDimension";
        case Error::BadBoolean: return "BadBoolean";
        case Error::BadLayerType: return "BadLayerType";
        case Error::BadMouseLayer: return "BadMouseLayer";
        case Error::BadScale: return "BadScale";
        case Error::BadZlib: return "BadZlib";
        case Error::BadFlags: return "BadFlags";
    }
    return "?";
}

Result<std::vector<ServerMessage>> decode_server(ByteView ws_message) {
    std::vector<ServerMessage> out;
    if (const auto error = read_all(ws_message, out, read_server_message)) return *error;
    return out;
}

Result<std::vector<ClientMessage>> decode_client(ByteView ws_message) {
    ClientPrefix prefix = decode_client_prefix(ws_message);
    if (prefix.stopped) return *prefix.stopped;
    return std::move(prefix.messages);
}

ClientPrefix decode_client_prefix(ByteView ws_message) {
    ClientPrefix prefix;
    prefix.stopped = read_all(ws_message, prefix.messages, read_client_message);
    return prefix;
}

std::optional<Error> append(Bytes& out, const ServerMessage& message) { return append_any(out, message, MessageId{}); }
std::optional<Error> append(Bytes& out, const ClientMessage& message) { return append_any(out, message, MessageId{}); }
Bytes encode(const ServerMessage& message) { return encode_any(message, MessageId{}, "Sprite v1"); }
Bytes encode(const ClientMessage& message) { return encode_any(message, MessageId{}, "Sprite v1"); }

std::string printable_text(const std::string& text) {
    std::string out;
    for (char c : text) {
        const auto b = static_cast<unsigned char>(c);
        if ((b >= 0x20 && b <= 0x7E) || b == 0x0A || b == 0x1B) out += c;
    }
    return out;
}

std::vector<std::pair<std::size_t, std::size_t>> chunk_ranges(const std::vector<std::size_t>& message_ends,
                                                              std::size_t cap) {
    std::vector<std::pair<std::size_t, std::size_t>> chunks;
    std::size_t chunk_begin = 0, chunk_end = 0;
    for (const std::size_t end : message_ends) {
        if (end - chunk_begin > cap && chunk_end > chunk_begin) {
            chunks.emplace_back(chunk_begin, chunk_end);
            chunk_begin = chunk_end;
        }
        chunk_end = end;
    }
    if (chunk_end > chunk_begin) chunks.emplace_back(chunk_begin, chunk_end);
    return chunks;
}

}  // namespace hschool::protocol::sprite_v1
