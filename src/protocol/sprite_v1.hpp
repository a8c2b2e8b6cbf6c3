#pragma once
// Sprite v1 (hide-and-seek's wire, spec/hide-and-seek.md §1): several messages per WebSocket
// message, little-endian. Bytes only: 0x01 carries its pixels already Snappy-compressed, and
// sprite_pixels.hpp does the (de)compression. Layouts and error rules: docs/protocol.md.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "protocol/bytes.hpp"
#include "protocol/errors.hpp"

namespace hschool::protocol::sprite_v1 {

namespace id {
inline constexpr std::uint8_t kDefineSprite = 0x01;
inline constexpr std::uint8_t kDefineObject = 0x02;
inline constexpr std::uint8_t kDeleteObject = 0x03;
inline constexpr std::uint8_t kClearObjects = 0x04;
inline constexpr std::uint8_t kSetViewport = 0x05;
inline constexpr std::uint8_t kDefineLayer = 0x06;
inline constexpr std::uint8_t kInputText = 0x81;
inline constexpr std::uint8_t kMousePosition = 0x82;
inline constexpr std::uint8_t kMouseButton = 0x83;
inline constexpr std::uint8_t kPlayerInput = 0x84;
inline constexpr std::uint8_t kPlayerReady = 0x85;
inline constexpr std::uint8_t kDebugSprites = 0x86;
inline constexpr std::uint8_t kSpritesOff = 0x87;
}  // namespace id

// Decoded pixels are allocated from a peer's numbers: 4096×4096 RGBA is far above any sprite we
// draw (the widest is 1440×96) and bounds what one message can make us allocate.
inline constexpr std::size_t kMaxSpriteRgbaBytes = std::size_t{4096} * 4096 * 4;
inline constexpr std::size_t kMaxLabelBytes = 0xFFFF;  // the u16 length
inline constexpr std::size_t kMaxInputTextBytes = 0xFFFF;
// A seat's debug overlay is capped at 32 KiB per tick (§1.2); one message cannot exceed it.
inline constexpr std::size_t kMaxDebugSpritesBytes = 32 * 1024;
inline constexpr std::uint8_t kMaxLayerType = 9;  // 9 = full screen (§7.16: we accept it)
inline constexpr std::size_t kDefineObjectBytes = 12;
inline constexpr std::size_t kDefineSpriteFixedBytes = 13;  // 13 + N + L
// Outbound packets split on message boundaries into WebSocket messages of at most this (§1.4).
inline constexpr std::size_t kChunkBytes = 900'000;

namespace layer_type {
inline constexpr std::uint8_t kMap = 0;
inline constexpr std::uint8_t kFullScreen = 9;
}  // namespace layer_type
namespace layer_flag {
inline constexpr std::uint8_t kZoomable = 0x01;
inline constexpr std::uint8_t kUi = 0x02;
}  // namespace layer_flag

// Why a WebSocket message was refused; the receiver closes the connection on any of them.
enum class Error : std::uint8_t {
    UnknownType,    // a message id that is not defined in this direction
    Truncated,      // a field or payload runs past the end of the WebSocket message
    TooLarge,       // w·h·4 or a payload above its named maximum
    BadSnappy,      // a pixel block that is not valid Snappy
    SizeMismatch,   // a pixel block whose length is not w·h·4
    ZeroDimension,  // a sprite or viewport with width or height 0
    BadBoolean,     // a boolean byte other than 0 or 1
    BadLayerType,   // a layer type above kMaxLayerType
    BadMouseLayer,  // (encoding only) a mouse layer byte that reads as a client message id
    // Our compact watch stream only (hns_compact.hpp):
    BadScale,  // a block scale outside 1..8, or a size that is not a multiple of it
    BadZlib,   // a block that is not a valid zlib stream (header here; tags with the full check)
    BadFlags,  // frame flags with a bit that has no meaning
};
const char* describe(Error error);
const char* error_name(Error error);  // "UnknownType", … as in tests/vectors/sprite_v1.json

template <class T>
using Result = Decoded<T, Error>;

// ---- server → client ----
struct DefineSprite {
    std::uint16_t sprite_id = 0;
    std::uint16_t width = 0;
    std::uint16_t height = 0;
    Bytes pixels;  // a raw Snappy block of width·height·4 RGBA bytes; empty = "pixels stripped"
    std::string label;  // bytes as sent (UTF-8 by convention; not drawn)
    bool operator==(const DefineSprite&) const = default;
};
struct DefineObject {
    std::uint16_t object_id = 0;
    std::int16_t x = 0, y = 0, z = 0;
    std::uint8_t layer = 0;
    std::uint16_t sprite_id = 0;
    bool operator==(const DefineObject&) const = default;
};
struct DeleteObject {
    std::uint16_t object_id = 0;
    bool operator==(const DeleteObject&) const = default;
};
struct ClearObjects {
    bool operator==(const ClearObjects&) const = default;
};
struct SetViewport {
    std::uint8_t layer = 0;
    std::uint16_t width = 0, height = 0;
    bool operator==(const SetViewport&) const = default;
};
struct DefineLayer {
    std::uint8_t layer = 0;
    std::uint8_t type = 0;
    std::uint8_t flags = 0;
    bool operator==(const DefineLayer&) const = default;
};

// ---- client → server ----
struct InputText {
    std::string text;  // raw bytes; printable_text() keeps what the reference keeps
    bool operator==(const InputText&) const = default;
};
struct MousePosition {
    std::int16_t x = 0, y = 0;
    std::optional<std::uint8_t> layer;  // never a client message id (0x81–0x87)
    bool operator==(const MousePosition&) const = default;
};
struct MouseButton {
    std::uint8_t code = 0;  // 1 left, 2 right, 3 middle
    bool down = false;
    bool operator==(const MouseButton&) const = default;
};
struct PlayerInput {
    std::uint8_t mask = 0;
    bool operator==(const PlayerInput&) const = default;
};
struct PlayerReady {
    bool operator==(const PlayerReady&) const = default;
};
struct DebugSprites {
    Bytes payload;  // server-style Sprite messages, not parsed here
    bool operator==(const DebugSprites&) const = default;
};
struct SpritesOff {
    bool operator==(const SpritesOff&) const = default;
};

using ServerMessage = std::variant<DefineSprite, DefineObject, DeleteObject, ClearObjects, SetViewport, DefineLayer>;
using ClientMessage =
    std::variant<InputText, MousePosition, MouseButton, PlayerInput, PlayerReady, DebugSprites, SpritesOff>;

// A whole WebSocket message, decoded to exhaustion. An empty message is valid and holds nothing.
// 0x01's pixel block is checked only as far as its length preamble (= w·h·4) here; add
// sprite_pixels.hpp's check_pixels() for a full Snappy check.
Result<std::vector<ServerMessage>> decode_server(ByteView ws_message);
Result<std::vector<ClientMessage>> decode_client(ByteView ws_message);

// The server's tolerant client parser (§1.2): the messages before the first bad one, and why it stopped.
struct ClientPrefix {
    std::vector<ClientMessage> messages;
    std::optional<Error> stopped;
};
ClientPrefix decode_client_prefix(ByteView ws_message);

// Appends one message; fails (leaving `out` as it was) only on a message the decoder would refuse.
std::optional<Error> append(Bytes& out, const ServerMessage& message);
std::optional<Error> append(Bytes& out, const ClientMessage& message);
// One message's bytes; a message the decoder would refuse is our own bug and aborts.
Bytes encode(const ServerMessage& message);
Bytes encode(const ClientMessage& message);

// 0x85 and 0x87 count only as a whole 1-byte WebSocket message (§1.2).
inline bool is_standalone_ready(ByteView ws_message) {
    return ws_message.size() == 1 && ws_message[0] == id::kPlayerReady;
}
inline bool is_standalone_sprites_off(ByteView ws_message) {
    return ws_message.size() == 1 && ws_message[0] == id::kSpritesOff;
}
// The reference keeps only 0x20–0x7E, 0x0A and 0x1B of an Input Text and drops the rest.
std::string printable_text(const std::string& text);
// True for the ids a 0x82's optional layer byte must not look like.
inline constexpr bool is_client_id(std::uint8_t b) { return b >= id::kInputText && b <= id::kSpritesOff; }

// Splits an encoded packet at message boundaries into chunks of at most kChunkBytes (§1.4);
// `message_ends` are the offsets just past each message. A message larger than the cap goes alone.
std::vector<std::pair<std::size_t, std::size_t>> chunk_ranges(const std::vector<std::size_t>& message_ends,
                                                              std::size_t cap = kChunkBytes);

}  // namespace hschool::protocol::sprite_v1
