#pragma once
// Protocol v5, the arena with prediction, per-client deltas and interest management.
// Layouts: docs/protocol.md. Keep in sync with client/src/net/protocolV5.ts.
#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "protocol/bytes.hpp"
#include "protocol/errors.hpp"

namespace hschool::protocol::v5 {

inline constexpr std::uint8_t kVersion = 5;
inline constexpr std::size_t kMaxInboundFrameBytes = 1024;        // what the server reads after Hello
inline constexpr std::size_t kMaxServerFrameBytes = 256 * 1024;   // what a client accepts
inline constexpr std::size_t kMaxNameBytes = 32;
inline constexpr std::size_t kMaxObstacles = 4096;                // StaticWorld's M
inline constexpr std::size_t kMaxSectionCount = 16383;            // leaves, enters, updates
inline constexpr std::uint16_t kSlotLimit = 1 << 14;              // slots fit the update head's 14 bits
inline constexpr std::uint32_t kMaxColour = 0xFFFFFF;             // u24
inline constexpr std::size_t kLeaveBytes = 2;
inline constexpr std::size_t kEnterBytes = 13;
inline constexpr std::size_t kMinUpdateBytes = 3;
inline constexpr std::size_t kObstacleBytes = 12;
inline constexpr std::size_t kFrameHeaderBytes = 24;  // id up to self position, before the sections

namespace id {
inline constexpr std::uint8_t kHello = 0x01;
inline constexpr std::uint8_t kInput = 0x02;
inline constexpr std::uint8_t kPing = 0x03;
inline constexpr std::uint8_t kWelcome = 0x81;
inline constexpr std::uint8_t kPong = 0x83;
inline constexpr std::uint8_t kStaticWorld = 0x84;
inline constexpr std::uint8_t kFrame = 0x85;
}  // namespace id

namespace frame_flags {
inline constexpr std::uint8_t kKeyframe = 1;  // forget every slot before applying
inline constexpr std::uint8_t kFarGrid = 2;   // the far-density grid follows the updates
inline constexpr std::uint8_t kKnown = kKeyframe | kFarGrid;
}  // namespace frame_flags

// Update forms: the top two bits of an update record's u16 head.
namespace form {
inline constexpr std::uint8_t kDxDy = 0;
inline constexpr std::uint8_t kDx = 1;
inline constexpr std::uint8_t kDy = 2;
inline constexpr std::uint8_t kFields = 3;
}  // namespace form

// Which absolute values a form-3 update carries.
namespace fields {
inline constexpr std::uint8_t kQx = 1;
inline constexpr std::uint8_t kQy = 2;
inline constexpr std::uint8_t kColour = 4;
inline constexpr std::uint8_t kKnown = kQx | kQy | kColour;
}  // namespace fields

struct Hello {
    std::uint8_t version = kVersion;
    std::string name;  // UTF-8, at most kMaxNameBytes bytes
    bool operator==(const Hello&) const = default;
};
// One command: the mask the server steps for one tick.
struct Input {
    std::uint32_t seq = 0;
    std::uint8_t mask = 0;
    bool operator==(const Input&) const = default;
};
struct Ping {
    std::int64_t client_time_ms = 0;
    bool operator==(const Ping&) const = default;
};
struct Welcome {
    std::uint8_t version = kVersion;
    std::uint32_t player_id = 0;
    std::uint16_t self_slot = 0;
    std::uint8_t tick_rate = 0;
    float width = 0;
    float height = 0;
    float player_speed = 0;
    float player_radius = 0;
    std::int8_t quantum_exp = 0;  // a quantum is 2^quantum_exp world units
    std::uint16_t cell_size = 0;
    std::uint8_t grid_cols = 0;
    std::uint8_t grid_rows = 0;
    std::uint8_t window_cells = 0;
    std::uint8_t far_every = 0;  // ticks between far grids
    bool operator==(const Welcome&) const = default;
};
struct Pong {
    std::int64_t client_time_ms = 0;
    std::uint32_t server_tick = 0;
    bool operator==(const Pong&) const = default;
};
struct Obstacle {
    float x = 0, y = 0, radius = 0;
    bool operator==(const Obstacle&) const = default;
};
struct StaticWorld {
    std::uint32_t first_id = 0;
    std::uint32_t colour = 0;  // 0x00RRGGBB, every obstacle
    std::vector<Obstacle> obstacles;  // in id order: the order collisions are resolved in
    bool operator==(const StaticWorld&) const = default;
};
struct Enter {
    std::uint16_t slot = 0;
    std::uint32_t id = 0;
    std::uint16_t qx = 0, qy = 0;
    std::uint32_t colour = 0;  // u24
    bool operator==(const Enter&) const = default;
};
// Forms 0-2 move by dx/dy quanta from the client's value; form 3 sets what `fields` names.
// Fields a form does not carry stay 0, so each record has one representation.
struct Update {
    std::uint16_t slot = 0;
    std::uint8_t form = form::kDxDy;
    std::int8_t dx = 0, dy = 0;
    std::uint8_t fields = 0;
    std::uint16_t qx = 0, qy = 0;
    std::uint32_t colour = 0;
    bool operator==(const Update&) const = default;
};
struct Frame {
    std::uint32_t tick = 0;
    std::uint32_t base_tick = 0;  // the tick of the previous Frame on this connection; 0 in the first
    std::uint8_t flags = 0;       // frame_flags
    std::uint32_t ack_seq = 0;    // the last Input applied at or before this tick
    std::uint8_t input_queue = 0;  // commands still queued on the server
    std::uint8_t mask = 0;         // the mask stepped this tick
    float self_x = 0, self_y = 0;  // exact
    std::vector<std::uint16_t> leaves;
    std::vector<Enter> enters;
    std::vector<Update> updates;
    // Present when flags has kFarGrid: players per cell, row-major, saturating at 255.
    std::uint8_t far_cols = 0, far_rows = 0;
    std::vector<std::uint8_t> far;
    bool operator==(const Frame&) const = default;
};
// A message id this version does not know: ignored, so newer clients keep working.
struct Unknown {
    std::uint8_t id = 0;
    bool operator==(const Unknown&) const = default;
};

using ClientMessage = std::variant<Hello, Input, Ping, Unknown>;
using ServerMessage = std::variant<Welcome, Pong, StaticWorld, Frame, Unknown>;

Decoded<ClientMessage> decode_client(ByteView frame);
Decoded<ServerMessage> decode_server(ByteView frame);

Bytes encode(const Hello& m);
Bytes encode(const Input& m);
Bytes encode(const Ping& m);
Bytes encode(const Welcome& m);
Bytes encode(const Pong& m);
Bytes encode(const StaticWorld& m);
Bytes encode(const Frame& m);
// The same bytes appended to out: the server encodes a Frame straight behind room for its WebSocket header.
void encode_into(const Frame& m, Bytes& out);
// One update record as it appears in a Frame's updates section, appended to out.
void append_update(const Update& u, Bytes& out);
// Update records encoded in advance (by append_update), which the server copies from a tick's
// shared artefacts into many Frames.
struct EncodedUpdates {
    std::uint16_t count = 0;
    ByteView records;
};
// A Frame whose updates section is `updates` (m.updates must be empty): the same bytes as encoding
// m with those records decoded into m.updates.
void encode_into(const Frame& m, const EncodedUpdates& updates, Bytes& out);

std::size_t update_bytes(const Update& update);
std::size_t frame_bytes(const Frame& frame);

}  // namespace hschool::protocol::v5
