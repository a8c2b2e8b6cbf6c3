#include "protocol/v5.hpp"

#include "protocol/stream.hpp"

namespace hschool::protocol::v5 {
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
    return s.u32(m.seq) && s.u8(m.mask);
}
template <class S, Is<Ping> M>
bool serialize(S& s, M& m) {
    return s.i64(m.client_time_ms);
}
template <class S, Is<Welcome> M>
bool serialize(S& s, M& m) {
    return s.u8(m.version) && s.u32(m.player_id) && s.u16(m.self_slot) && s.u8(m.tick_rate) && s.f32(m.width) &&
           s.f32(m.height) && s.f32(m.player_speed) && s.f32(m.player_radius) && s.i8(m.quantum_exp) &&
           s.u16(m.cell_size) && s.u8(m.grid_cols) && s.u8(m.grid_rows) && s.u8(m.window_cells) && s.u8(m.far_every);
}
template <class S, Is<Pong> M>
bool serialize(S& s, M& m) {
    return s.i64(m.client_time_ms) && s.u32(m.server_tick);
}
template <class S, Is<Obstacle> M>
bool serialize(S& s, M& m) {
    return s.f32(m.x) && s.f32(m.y) && s.f32(m.radius);
}
// The count comes before the colour, so this is not a plain sequence().
template <class S, Is<StaticWorld> M>
bool serialize(S& s, M& m) {
    std::uint16_t count = 0;
    if constexpr (S::kReading) {
        if (!(s.u32(m.first_id) && s.u16(count) && s.u32(m.colour))) return false;
        if (count > kMaxObstacles || count * kObstacleBytes > s.remaining()) return s.invalid(DecodeError::CountTooLarge);
        m.obstacles.resize(count);
    } else {
        if (m.obstacles.size() > kMaxObstacles) return s.invalid(DecodeError::CountTooLarge);
        count = static_cast<std::uint16_t>(m.obstacles.size());
        if (!(s.u32(m.first_id) && s.u16(count) && s.u32(m.colour))) return false;
    }
    for (auto& obstacle : m.obstacles)
        if (!serialize(s, obstacle)) return false;
    return true;
}
template <class S, Is<Enter> M>
bool serialize(S& s, M& m) {
    return s.u16(m.slot) && s.u32(m.id) && s.u16(m.qx) && s.u16(m.qy) && s.u24(m.colour);
}
template <class S, Is<Update> M>
bool serialize(S& s, M& m) {
    if constexpr (S::kReading) {
        std::uint16_t head = 0;
        if (!s.u16(head)) return false;
        m.slot = static_cast<std::uint16_t>(head & (kSlotLimit - 1));
        m.form = static_cast<std::uint8_t>(head >> 14);
    } else {
        if (m.slot >= kSlotLimit || m.form > form::kFields) return s.invalid(DecodeError::InvalidFieldMask);
        const auto head = static_cast<std::uint16_t>(m.slot | (m.form << 14));
        s.u16(head);
    }
    switch (m.form) {
        case form::kDxDy: return s.i8(m.dx) && s.i8(m.dy);
        case form::kDx: return s.i8(m.dx);
        case form::kDy: return s.i8(m.dy);
        default: break;
    }
    if (!s.u8(m.fields)) return false;
    // An empty mask would be a record that changes nothing: one meaning, one encoding.
    if (m.fields == 0 || (m.fields & ~fields::kKnown) != 0) return s.invalid(DecodeError::InvalidFieldMask);
    return ((m.fields & fields::kQx) == 0 || s.u16(m.qx)) && ((m.fields & fields::kQy) == 0 || s.u16(m.qy)) &&
           ((m.fields & fields::kColour) == 0 || s.u24(m.colour));
}
// A Frame; when writing, `encoded` (if given) is the updates section, already encoded.
template <class S, class M>
bool serialize_frame(S& s, M& m, const EncodedUpdates* encoded) {
    if (!(s.u32(m.tick) && s.u32(m.base_tick) && s.u8(m.flags))) return false;
    if ((m.flags & ~frame_flags::kKnown) != 0) return s.invalid(DecodeError::InvalidFieldMask);
    if (!(s.u32(m.ack_seq) && s.u8(m.input_queue) && s.u8(m.mask) && s.f32(m.self_x) && s.f32(m.self_y))) return false;
    if (!s.sequence(m.leaves, 2, kMaxSectionCount, kLeaveBytes, [&](auto& slot) { return s.u16(slot); })) return false;
    if (!s.sequence(m.enters, 2, kMaxSectionCount, kEnterBytes, [&](auto& e) { return serialize(s, e); })) return false;
    if constexpr (!S::kReading) {
        if (encoded) {
            if (!m.updates.empty() || encoded->count > kMaxSectionCount) return s.invalid(DecodeError::CountTooLarge);
            if (!(s.u16(encoded->count) && s.bytes(encoded->records))) return false;
        }
    }
    if (!encoded && !s.sequence(m.updates, 2, kMaxSectionCount, kMinUpdateBytes, [&](auto& u) { return serialize(s, u); }))
        return false;
    if ((m.flags & frame_flags::kFarGrid) == 0) {
        if constexpr (!S::kReading)
            if (m.far_cols != 0 || m.far_rows != 0 || !m.far.empty()) return s.invalid(DecodeError::CountTooLarge);
        return true;
    }
    if (!(s.u8(m.far_cols) && s.u8(m.far_rows))) return false;
    const std::size_t cells = std::size_t{m.far_cols} * m.far_rows;
    if constexpr (S::kReading) {
        if (cells > s.remaining()) return s.invalid(DecodeError::Truncated);
        m.far.resize(cells);
    } else {
        if (m.far.size() != cells) return s.invalid(DecodeError::CountTooLarge);
    }
    for (auto& count : m.far)
        if (!s.u8(count)) return false;
    return true;
}
template <class S, Is<Frame> M>
bool serialize(S& s, M& m) {
    return serialize_frame(s, m, nullptr);
}

// Hands a stream and a message to this version's serialize() overloads, in either direction.
constexpr auto kSerialize = [](auto& stream, auto& message) { return serialize(stream, message); };

}  // namespace

std::size_t update_bytes(const Update& update) {
    switch (update.form) {
        case form::kDxDy: return 4;
        case form::kDx:
        case form::kDy: return 3;
        default: break;
    }
    return 3 + ((update.fields & fields::kQx) ? 2 : 0) + ((update.fields & fields::kQy) ? 2 : 0) +
           ((update.fields & fields::kColour) ? 3 : 0);
}

std::size_t frame_bytes(const Frame& frame) {
    std::size_t bytes = kFrameHeaderBytes + 2 + kLeaveBytes * frame.leaves.size() + 2 + kEnterBytes * frame.enters.size() + 2;
    for (const auto& update : frame.updates) bytes += update_bytes(update);
    if (frame.flags & frame_flags::kFarGrid) bytes += 2 + frame.far.size();
    return bytes;
}

Decoded<ClientMessage> decode_client(ByteView frame) {
    return decode_message<ClientMessage, Unknown>(frame, kSerialize, MessageKind<id::kHello, Hello>{},
                 MessageKind<id::kInput, Input>{}, MessageKind<id::kPing, Ping>{});
}

Decoded<ServerMessage> decode_server(ByteView frame) {
    return decode_message<ServerMessage, Unknown>(frame, kSerialize, MessageKind<id::kWelcome, Welcome>{},
                 MessageKind<id::kPong, Pong>{}, MessageKind<id::kStaticWorld, StaticWorld>{}, MessageKind<id::kFrame, Frame>{});
}

Bytes encode(const Hello& m) { return write_message(id::kHello, m, 3 + m.name.size(), kSerialize, "v5 Hello"); }
Bytes encode(const Input& m) { return write_message(id::kInput, m, 6, kSerialize, "v5 Input"); }
Bytes encode(const Ping& m) { return write_message(id::kPing, m, 9, kSerialize, "v5 Ping"); }
Bytes encode(const Welcome& m) { return write_message(id::kWelcome, m, 32, kSerialize, "v5 Welcome"); }
Bytes encode(const Pong& m) { return write_message(id::kPong, m, 13, kSerialize, "v5 Pong"); }
Bytes encode(const StaticWorld& m) {
    return write_message(id::kStaticWorld, m, 11 + kObstacleBytes * m.obstacles.size(), kSerialize, "v5 StaticWorld");
}
Bytes encode(const Frame& m) { return write_message(id::kFrame, m, frame_bytes(m), kSerialize, "v5 Frame"); }
void encode_into(const Frame& m, Bytes& out) { append_message(out, id::kFrame, m, frame_bytes(m), kSerialize, "v5 Frame"); }
void encode_into(const Frame& m, const EncodedUpdates& updates, Bytes& out) {
    append_message(out, id::kFrame, m, frame_bytes(m) + updates.records.size(),
                   [&](auto& stream, auto& frame) { return serialize_frame(stream, frame, &updates); }, "v5 Frame");
}
void append_update(const Update& u, Bytes& out) {
    WriteStream stream(out, update_bytes(u));
    if (!serialize(stream, u)) encode_failed("v5 Update", stream.error().value_or(DecodeError::Truncated));
    stream.finish();
}

}  // namespace hschool::protocol::v5
