#include "protocol/v4.hpp"

#include "protocol/stream.hpp"

namespace hschool::protocol::v4 {
namespace {

template <class M, class T>
concept Is = MessageOf<M, T>;

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

// Hands a stream and a message to this version's serialize() overloads, in either direction.
constexpr auto kSerialize = [](auto& stream, auto& message) { return serialize(stream, message); };

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
    return decode_message<ClientMessage, Unknown>(frame, kSerialize, MessageKind<id::kHello, Hello>{},
                 MessageKind<id::kPing, Ping>{}, MessageKind<id::kOpenSchool, OpenSchool>{},
                 MessageKind<id::kCloseSchool, CloseSchool>{}, MessageKind<id::kSetRunning, SetRunning>{},
                 MessageKind<id::kSetSpeed, SetSpeed>{});
}

Decoded<ServerMessage> decode_server(ByteView frame) {
    return decode_message<ServerMessage, Unknown>(frame, kSerialize, MessageKind<id::kWelcome, Welcome>{},
                 MessageKind<id::kPong, Pong>{}, MessageKind<id::kClock, Clock>{}, MessageKind<id::kSchoolGone, SchoolGone>{},
                 MessageKind<id::kMapSnapshot, MapSnapshot>{});
}

Bytes encode(const Hello& m) { return write_message(id::kHello, m, 3, kSerialize, "v4 Hello"); }
Bytes encode(const Ping& m) { return write_message(id::kPing, m, 9, kSerialize, "v4 Ping"); }
Bytes encode(const OpenSchool& m) { return write_message(id::kOpenSchool, m, 5, kSerialize, "v4 OpenSchool"); }
Bytes encode(const CloseSchool& m) { return write_message(id::kCloseSchool, m, 1, kSerialize, "v4 CloseSchool"); }
Bytes encode(const SetRunning& m) { return write_message(id::kSetRunning, m, 2, kSerialize, "v4 SetRunning"); }
Bytes encode(const SetSpeed& m) { return write_message(id::kSetSpeed, m, 2, kSerialize, "v4 SetSpeed"); }
Bytes encode(const Welcome& m) { return write_message(id::kWelcome, m, 4, kSerialize, "v4 Welcome"); }
Bytes encode(const Pong& m) { return write_message(id::kPong, m, 13, kSerialize, "v4 Pong"); }
Bytes encode(const Clock& m) { return write_message(id::kClock, m, 15, kSerialize, "v4 Clock"); }
Bytes encode(const SchoolGone& m) { return write_message(id::kSchoolGone, m, 5, kSerialize, "v4 SchoolGone"); }
Bytes encode(const MapSnapshot& m) { return write_message(id::kMapSnapshot, m, map_snapshot_size(m), kSerialize, "v4 MapSnapshot"); }

}  // namespace hschool::protocol::v4
