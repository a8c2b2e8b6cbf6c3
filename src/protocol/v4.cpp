#include "protocol/v4.hpp"

#include <concepts>
#include <type_traits>

#include "protocol/stream.hpp"

namespace hschool::protocol::v4 {
namespace {

template <class M, class T>
concept Is = std::same_as<std::remove_const_t<M>, T>;

// One function per message serves both directions (WriteStream or ReadStream).
template <class S, Is<Hello> M>
bool serialize(S& s, M& m) {
    return s.u8(m.version) && s.u8(m.locale);
}
template <class S, Is<Ping> M>
bool serialize(S& s, M& m) {
    return s.i64(m.client_time_ms);
}
template <class S, Is<OpenSchool> M>
bool serialize(S& s, M& m) {
    return s.i32(m.school_id);
}
template <class S, Is<CloseSchool> M>
bool serialize(S&, M&) {
    return true;
}
template <class S, Is<SetRunning> M>
bool serialize(S& s, M& m) {
    return s.u8(m.running);
}
template <class S, Is<SetSpeed> M>
bool serialize(S& s, M& m) {
    return s.u8(m.speed_index);
}
template <class S, Is<Welcome> M>
bool serialize(S& s, M& m) {
    return s.u8(m.version) && s.u8(m.tick_rate) && s.u8(m.max_schools);
}
template <class S, Is<Pong> M>
bool serialize(S& s, M& m) {
    return s.i64(m.client_time_ms) && s.u32(m.server_tick);
}
template <class S, Is<Clock> M>
bool serialize(S& s, M& m) {
    return s.i32(m.school_id) && s.i64(m.game_time_ms) && s.u8(m.running) && s.u8(m.speed_index);
}
template <class S, Is<SchoolGone> M>
bool serialize(S& s, M& m) {
    return s.i32(m.school_id);
}
template <class S, class Strings>
bool serialize_strings(S& s, Strings& strings) {
    return s.sequence(strings, 1, kMaxNodeEntries, 2, [&](auto& text) { return s.string_u16(text, kMaxStringBytes); });
}
template <class S, Is<MapNode> M>
bool serialize(S& s, M& m) {
    return s.u8(m.kind) && s.string_u16(m.id, kMaxStringBytes) && s.string_u16(m.parent, kMaxStringBytes) &&
           s.string_u16(m.name, kMaxStringBytes) && serialize_strings(s, m.items) &&
           serialize_strings(s, m.positions);
}
template <class S, Is<MapSnapshot> M>
bool serialize(S& s, M& m) {
    return s.i32(m.school_id) &&
           s.sequence(m.nodes, 2, kMaxNodes, kMinNodeBytes, [&](auto& node) { return serialize(s, node); });
}

template <class Msg, class Variant>
Decoded<Variant> read(ByteView body) {
    ReadStream stream(body);
    auto decoded = read_exactly<Msg>(stream, [](ReadStream& s, Msg& m) { return serialize(s, m); });
    if (!decoded) return decoded.error();
    return Variant{std::move(decoded).value()};
}

template <class Msg>
Bytes write(std::uint8_t message_id, const Msg& m, std::size_t size_hint, const char* name) {
    return write_message(message_id, m, size_hint, [](WriteStream& s, const Msg& msg) { return serialize(s, msg); },
                         name);
}

std::size_t map_snapshot_size(const MapSnapshot& m) {
    std::size_t size = 7;
    for (const auto& n : m.nodes) {
        size += kMinNodeBytes + n.id.size() + n.parent.size() + n.name.size();
        for (const auto& s : n.items) size += 2 + s.size();
        for (const auto& s : n.positions) size += 2 + s.size();
    }
    return size;
}

}  // namespace

Decoded<ClientMessage> decode_client(ByteView frame) {
    if (frame.empty()) return DecodeError::Empty;
    const ByteView body = frame.subspan(1);
    switch (frame[0]) {
        case id::kHello: return read<Hello, ClientMessage>(body);
        case id::kPing: return read<Ping, ClientMessage>(body);
        case id::kOpenSchool: return read<OpenSchool, ClientMessage>(body);
        case id::kCloseSchool: return read<CloseSchool, ClientMessage>(body);
        case id::kSetRunning: return read<SetRunning, ClientMessage>(body);
        case id::kSetSpeed: return read<SetSpeed, ClientMessage>(body);
        default: return ClientMessage{Unknown{frame[0]}};
    }
}

Decoded<ServerMessage> decode_server(ByteView frame) {
    if (frame.empty()) return DecodeError::Empty;
    const ByteView body = frame.subspan(1);
    switch (frame[0]) {
        case id::kWelcome: return read<Welcome, ServerMessage>(body);
        case id::kPong: return read<Pong, ServerMessage>(body);
        case id::kClock: return read<Clock, ServerMessage>(body);
        case id::kSchoolGone: return read<SchoolGone, ServerMessage>(body);
        case id::kMapSnapshot: return read<MapSnapshot, ServerMessage>(body);
        default: return ServerMessage{Unknown{frame[0]}};
    }
}

Bytes encode(const Hello& m) { return write(id::kHello, m, 3, "v4 Hello"); }
Bytes encode(const Ping& m) { return write(id::kPing, m, 9, "v4 Ping"); }
Bytes encode(const OpenSchool& m) { return write(id::kOpenSchool, m, 5, "v4 OpenSchool"); }
Bytes encode(const CloseSchool& m) { return write(id::kCloseSchool, m, 1, "v4 CloseSchool"); }
Bytes encode(const SetRunning& m) { return write(id::kSetRunning, m, 2, "v4 SetRunning"); }
Bytes encode(const SetSpeed& m) { return write(id::kSetSpeed, m, 2, "v4 SetSpeed"); }
Bytes encode(const Welcome& m) { return write(id::kWelcome, m, 4, "v4 Welcome"); }
Bytes encode(const Pong& m) { return write(id::kPong, m, 13, "v4 Pong"); }
Bytes encode(const Clock& m) { return write(id::kClock, m, 15, "v4 Clock"); }
Bytes encode(const SchoolGone& m) { return write(id::kSchoolGone, m, 5, "v4 SchoolGone"); }
Bytes encode(const MapSnapshot& m) { return write(id::kMapSnapshot, m, map_snapshot_size(m), "v4 MapSnapshot"); }

}  // namespace hschool::protocol::v4
