#include "protocol/v1.hpp"

#include "protocol/stream.hpp"

namespace hschool::protocol::v1 {
namespace {

template <class M, class T>
concept Is = MessageOf<M, T>;

// One function per message serves both directions (WriteStream or ReadStream).
template <class S, Is<Hello> M>
bool serialize(S& s, M& m) {
    return s.u8(m.version) && s.string_u8(m.name, kMaxNameBytes);
}
template <class S, Is<Input> M>
bool serialize(S& s, M& m) {
    return s.u32(m.sequence) && s.u8(m.buttons);
}
template <class S, Is<Ping> M>
bool serialize(S& s, M& m) {
    return s.i64(m.client_time_ms);
}
template <class S, Is<Welcome> M>
bool serialize(S& s, M& m) {
    return s.u8(m.version) && s.u32(m.player_id) && s.u8(m.tick_rate) && s.f32(m.world_width) &&
           s.f32(m.world_height);
}
template <class S, Is<EntityState> M>
bool serialize(S& s, M& m) {
    return s.u32(m.id) && s.u8(m.kind) && s.f32(m.x) && s.f32(m.y) && s.f32(m.radius) && s.u32(m.colour);
}
template <class S, Is<Snapshot> M>
bool serialize(S& s, M& m) {
    return s.u32(m.tick) &&
           s.sequence(m.entities, 2, kMaxEntities, kEntityBytes, [&](auto& e) { return serialize(s, e); });
}
template <class S, Is<Pong> M>
bool serialize(S& s, M& m) {
    return s.i64(m.client_time_ms) && s.u32(m.server_tick);
}

// Hands a stream and a message to this version's serialize() overloads, in either direction.
constexpr auto kSerialize = [](auto& stream, auto& message) { return serialize(stream, message); };

}  // namespace

Decoded<ClientMessage> decode_client(ByteView frame) {
    return decode_message<ClientMessage, Unknown>(frame, kSerialize, MessageKind<id::kHello, Hello>{},
                 MessageKind<id::kInput, Input>{}, MessageKind<id::kPing, Ping>{});
}

Decoded<ServerMessage> decode_server(ByteView frame) {
    return decode_message<ServerMessage, Unknown>(frame, kSerialize, MessageKind<id::kWelcome, Welcome>{},
                 MessageKind<id::kSnapshot, Snapshot>{}, MessageKind<id::kPong, Pong>{});
}

Bytes encode(const Hello& m) { return write_message(id::kHello, m, 3 + m.name.size(), kSerialize, "v1 Hello"); }
Bytes encode(const Input& m) { return write_message(id::kInput, m, 6, kSerialize, "v1 Input"); }
Bytes encode(const Ping& m) { return write_message(id::kPing, m, 9, kSerialize, "v1 Ping"); }
Bytes encode(const Welcome& m) { return write_message(id::kWelcome, m, 15, kSerialize, "v1 Welcome"); }
Bytes encode(const Snapshot& m) {
    return write_message(id::kSnapshot, m, snapshot_bytes(m.entities.size()), kSerialize, "v1 Snapshot");
}
Bytes encode(const Pong& m) { return write_message(id::kPong, m, 13, kSerialize, "v1 Pong"); }

}  // namespace hschool::protocol::v1
