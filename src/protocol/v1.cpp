#include "protocol/v1.hpp"

#include <concepts>
#include <type_traits>

#include "protocol/stream.hpp"

namespace hschool::protocol::v1 {
namespace {

template <class M, class T>
concept Is = std::same_as<std::remove_const_t<M>, T>;

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

}  // namespace

Decoded<ClientMessage> decode_client(ByteView frame) {
    if (frame.empty()) return DecodeError::Empty;
    const ByteView body = frame.subspan(1);
    switch (frame[0]) {
        case id::kHello: return read<Hello, ClientMessage>(body);
        case id::kInput: return read<Input, ClientMessage>(body);
        case id::kPing: return read<Ping, ClientMessage>(body);
        default: return ClientMessage{Unknown{frame[0]}};
    }
}

Decoded<ServerMessage> decode_server(ByteView frame) {
    if (frame.empty()) return DecodeError::Empty;
    const ByteView body = frame.subspan(1);
    switch (frame[0]) {
        case id::kWelcome: return read<Welcome, ServerMessage>(body);
        case id::kSnapshot: return read<Snapshot, ServerMessage>(body);
        case id::kPong: return read<Pong, ServerMessage>(body);
        default: return ServerMessage{Unknown{frame[0]}};
    }
}

Bytes encode(const Hello& m) { return write(id::kHello, m, 3 + m.name.size(), "v1 Hello"); }
Bytes encode(const Input& m) { return write(id::kInput, m, 6, "v1 Input"); }
Bytes encode(const Ping& m) { return write(id::kPing, m, 9, "v1 Ping"); }
Bytes encode(const Welcome& m) { return write(id::kWelcome, m, 15, "v1 Welcome"); }
Bytes encode(const Snapshot& m) {
    return write(id::kSnapshot, m, snapshot_bytes(m.entities.size()), "v1 Snapshot");
}
Bytes encode(const Pong& m) { return write(id::kPong, m, 13, "v1 Pong"); }

}  // namespace hschool::protocol::v1
