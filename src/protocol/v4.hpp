#pragma once
// Protocol v4, the schools: calendar clock at the tick rate, a map snapshot once per open.
// Layouts: docs/protocol.md. Keep in sync with client/src/net/protocol.ts.
#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "protocol/bytes.hpp"
#include "protocol/errors.hpp"

namespace hschool::protocol::v4 {

inline constexpr std::uint8_t kVersion = 4;
inline constexpr std::size_t kMaxInboundFrameBytes = 8 * 1024;
inline constexpr std::size_t kMaxNodes = 0xFFFF;        // u16 node count
inline constexpr std::size_t kMaxStringBytes = 0xFFFF;  // u16 string length
inline constexpr std::size_t kMaxNodeEntries = 0xFF;    // u8 item and position counts
inline constexpr std::size_t kMinNodeBytes = 1 + 2 + 2 + 2 + 1 + 1;
inline constexpr std::uint8_t kSpeedCount = 5;           // ×½, ×1, ×2, ×3, ×4

namespace id {
inline constexpr std::uint8_t kHello = 0x01;
inline constexpr std::uint8_t kPing = 0x02;
inline constexpr std::uint8_t kOpenSchool = 0x03;
inline constexpr std::uint8_t kCloseSchool = 0x04;
inline constexpr std::uint8_t kSetRunning = 0x05;
inline constexpr std::uint8_t kSetSpeed = 0x06;
inline constexpr std::uint8_t kWelcome = 0x81;
inline constexpr std::uint8_t kPong = 0x82;
inline constexpr std::uint8_t kClock = 0x83;
inline constexpr std::uint8_t kSchoolGone = 0x84;
inline constexpr std::uint8_t kMapSnapshot = 0x85;
}  // namespace id

enum class Locale : std::uint8_t { Russian = 0, English = 1 };

namespace node_kind {
inline constexpr std::uint8_t kTerritory = 0;
inline constexpr std::uint8_t kBuilding = 1;
inline constexpr std::uint8_t kFloor = 2;
inline constexpr std::uint8_t kRoom = 3;
}  // namespace node_kind

struct Hello {
    std::uint8_t version = kVersion;
    std::uint8_t locale = 0;  // raw byte: 1 is English, anything else Russian
    bool operator==(const Hello&) const = default;
};
inline Locale locale_of(const Hello& hello) { return hello.locale == static_cast<std::uint8_t>(Locale::English) ? Locale::English : Locale::Russian; }

struct Ping {
    std::int64_t client_time_ms = 0;
    bool operator==(const Ping&) const = default;
};
struct OpenSchool {
    std::int32_t school_id = 0;
    bool operator==(const OpenSchool&) const = default;
};
struct CloseSchool {
    bool operator==(const CloseSchool&) const = default;
};
struct SetRunning {
    std::uint8_t running = 0;  // 1 running, 0 paused; other values are ignored by the server
    bool operator==(const SetRunning&) const = default;
};
struct SetSpeed {
    std::uint8_t speed_index = 0;  // 0..4; other values are ignored by the server
    bool operator==(const SetSpeed&) const = default;
};
struct Welcome {
    std::uint8_t version = kVersion;
    std::uint8_t tick_rate = 0;
    std::uint8_t max_schools = 0;
    bool operator==(const Welcome&) const = default;
};
struct Pong {
    std::int64_t client_time_ms = 0;
    std::uint32_t server_tick = 0;
    bool operator==(const Pong&) const = default;
};
struct Clock {
    std::int32_t school_id = 0;
    std::int64_t game_time_ms = 0;  // milliseconds since the Unix epoch, read as UTC
    std::uint8_t running = 0;
    std::uint8_t speed_index = 0;
    bool operator==(const Clock&) const = default;
};
struct SchoolGone {
    std::int32_t school_id = 0;
    bool operator==(const SchoolGone&) const = default;
};
struct MapNode {
    std::uint8_t kind = node_kind::kRoom;
    std::string id;
    std::string parent;  // empty for the yard
    std::string name;
    std::vector<std::string> items;
    std::vector<std::string> positions;
    bool operator==(const MapNode&) const = default;
};
struct MapSnapshot {
    std::int32_t school_id = 0;
    std::vector<MapNode> nodes;
    bool operator==(const MapSnapshot&) const = default;
};
// A message id this version does not know: ignored, so newer clients keep working.
struct Unknown {
    std::uint8_t id = 0;
    bool operator==(const Unknown&) const = default;
};

using ClientMessage = std::variant<Hello, Ping, OpenSchool, CloseSchool, SetRunning, SetSpeed, Unknown>;
using ServerMessage = std::variant<Welcome, Pong, Clock, SchoolGone, MapSnapshot, Unknown>;

Decoded<ClientMessage> decode_client(ByteView frame);
Decoded<ServerMessage> decode_server(ByteView frame);

Bytes encode(const Hello& m);
Bytes encode(const Ping& m);
Bytes encode(const OpenSchool& m);
Bytes encode(const CloseSchool& m);
Bytes encode(const SetRunning& m);
Bytes encode(const SetSpeed& m);
Bytes encode(const Welcome& m);
Bytes encode(const Pong& m);
Bytes encode(const Clock& m);
Bytes encode(const SchoolGone& m);
Bytes encode(const MapSnapshot& m);

}  // namespace hschool::protocol::v4
