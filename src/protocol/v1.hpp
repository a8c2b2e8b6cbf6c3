#pragma once
// Protocol v1, the arena: avatars moved by button masks, full snapshots every tick.
// Layouts: docs/protocol.md. Keep in sync with client/src/net/protocol.ts.
#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "protocol/bytes.hpp"
#include "protocol/errors.hpp"

namespace hschool::protocol::v1 {

inline constexpr std::uint8_t kVersion = 1;
inline constexpr std::size_t kMaxInboundFrameBytes = 64 * 1024;
inline constexpr std::size_t kMaxNameBytes = 32;
inline constexpr std::size_t kSnapshotHeaderBytes = 7;
inline constexpr std::size_t kEntityBytes = 21;
inline constexpr std::size_t kMaxEntities = 0xFFFF;  // the u16 count
// Most entities a snapshot may carry and still fit the 64 KiB frame clients accept.
inline constexpr std::size_t kMaxEntitiesPerFrame = (kMaxInboundFrameBytes - kSnapshotHeaderBytes) / kEntityBytes;

namespace id {
inline constexpr std::uint8_t kHello = 0x01;
inline constexpr std::uint8_t kInput = 0x02;
inline constexpr std::uint8_t kPing = 0x03;
inline constexpr std::uint8_t kWelcome = 0x81;
inline constexpr std::uint8_t kSnapshot = 0x82;
inline constexpr std::uint8_t kPong = 0x83;
}  // namespace id

namespace buttons {
inline constexpr std::uint8_t kUp = 1;
inline constexpr std::uint8_t kDown = 2;
inline constexpr std::uint8_t kLeft = 4;
inline constexpr std::uint8_t kRight = 8;
inline constexpr std::uint8_t kKnown = kUp | kDown | kLeft | kRight;
}  // namespace buttons

namespace kind {
inline constexpr std::uint8_t kUnknown = 0;
inline constexpr std::uint8_t kPlayer = 1;
inline constexpr std::uint8_t kObstacle = 2;
}  // namespace kind

struct Hello {
    std::uint8_t version = kVersion;
    std::string name;  // UTF-8, at most kMaxNameBytes bytes
    bool operator==(const Hello&) const = default;
};
struct Input {
    std::uint32_t sequence = 0;
    std::uint8_t buttons = 0;
    bool operator==(const Input&) const = default;
};
struct Ping {
    std::int64_t client_time_ms = 0;
    bool operator==(const Ping&) const = default;
};
struct Welcome {
    std::uint8_t version = kVersion;
    std::uint32_t player_id = 0;
    std::uint8_t tick_rate = 0;
    float world_width = 0;
    float world_height = 0;
    bool operator==(const Welcome&) const = default;
};
struct EntityState {
    std::uint32_t id = 0;
    std::uint8_t kind = kind::kUnknown;
    float x = 0, y = 0, radius = 0;
    std::uint32_t colour = 0;  // 0x00RRGGBB
    bool operator==(const EntityState&) const = default;
};
struct Snapshot {
    std::uint32_t tick = 0;
    std::vector<EntityState> entities;
    bool operator==(const Snapshot&) const = default;
};
struct Pong {
    std::int64_t client_time_ms = 0;
    std::uint32_t server_tick = 0;
    bool operator==(const Pong&) const = default;
};
// A message id this version does not know: ignored, so newer clients keep working.
struct Unknown {
    std::uint8_t id = 0;
    bool operator==(const Unknown&) const = default;
};

using ClientMessage = std::variant<Hello, Input, Ping, Unknown>;
using ServerMessage = std::variant<Welcome, Snapshot, Pong, Unknown>;

Decoded<ClientMessage> decode_client(ByteView frame);
Decoded<ServerMessage> decode_server(ByteView frame);

Bytes encode(const Hello& m);
Bytes encode(const Input& m);
Bytes encode(const Ping& m);
Bytes encode(const Welcome& m);
Bytes encode(const Snapshot& m);
Bytes encode(const Pong& m);

inline constexpr std::size_t snapshot_bytes(std::size_t entities) {
    return kSnapshotHeaderBytes + kEntityBytes * entities;
}

}  // namespace hschool::protocol::v1
