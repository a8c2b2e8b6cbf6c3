#include "protocol/hns_compact.hpp"

#include "protocol/sprite_serialize.hpp"

namespace hschool::protocol::sprite_v1::detail {

// The compact stream's own messages; found from the shared algorithms by ADL, like Sprite v1's.
using hns_compact::DefineBlock;
using hns_compact::ForgetBlock;
using hns_compact::FrameMark;
using hns_compact::Relabel;
using hns_compact::UseBlock;

template <class S, Is<FrameMark> M>
bool serialize(S& s, M& m) {
    return s.u32(m.tick) && s.u8(m.flags) && s.check((m.flags & ~hns_compact::frame_flag::kAll) == 0, Error::BadFlags);
}
template <class S, Is<DefineBlock> M>
bool serialize(S& s, M& m) {
    if (!(s.u16(m.block_id) && s.u16(m.width) && s.u16(m.height) && s.u8(m.scale))) return false;
    if (!s.check(m.width != 0 && m.height != 0, Error::ZeroDimension)) return false;
    if (!s.check(m.scale >= 1 && m.scale <= hns_compact::kMaxBlockScale && m.width % m.scale == 0 && m.height % m.scale == 0,
                 Error::BadScale))
        return false;
    if (!s.check(rgba_bytes(m.width, m.height) <= kMaxSpriteRgbaBytes, Error::TooLarge)) return false;
    if (!s.blob(m.zlib, 4, hns_compact::max_block_bytes(m.width, m.height, m.scale))) return false;
    // RFC 1950: deflate (CM 8) with a window of at most 32 KiB, no preset dictionary, header check.
    const bool header = m.zlib.size() >= 2 && (m.zlib[0] & 0x0F) == 8 && (m.zlib[0] >> 4) <= 7 && (m.zlib[1] & 0x20) == 0 &&
                        ((m.zlib[0] << 8) | m.zlib[1]) % 31 == 0;
    return s.check(header, Error::BadZlib);
}
template <class S, Is<UseBlock> M>
bool serialize(S& s, M& m) {
    return s.u16(m.sprite_id) && s.u16(m.block_id) && s.blob(m.label, 2, kMaxLabelBytes);
}
template <class S, Is<Relabel> M>
bool serialize(S& s, M& m) {
    return s.u16(m.sprite_id) && s.blob(m.label, 2, kMaxLabelBytes);
}
template <class S, Is<ForgetBlock> M>
bool serialize(S& s, M& m) {
    return s.u16(m.block_id);
}

}  // namespace hschool::protocol::sprite_v1::detail

namespace hschool::protocol::hns_compact {
namespace {

using namespace sprite_v1::detail;

struct MessageId {
    template <class M>
    static constexpr std::uint8_t of() {
        namespace sv = sprite_v1;
        if constexpr (std::is_same_v<M, sv::DefineSprite>) return sv::id::kDefineSprite;
        else if constexpr (std::is_same_v<M, sv::DefineObject>) return sv::id::kDefineObject;
        else if constexpr (std::is_same_v<M, sv::DeleteObject>) return sv::id::kDeleteObject;
        else if constexpr (std::is_same_v<M, sv::ClearObjects>) return sv::id::kClearObjects;
        else if constexpr (std::is_same_v<M, sv::SetViewport>) return sv::id::kSetViewport;
        else if constexpr (std::is_same_v<M, sv::DefineLayer>) return sv::id::kDefineLayer;
        else if constexpr (std::is_same_v<M, FrameMark>) return id::kFrame;
        else if constexpr (std::is_same_v<M, DefineBlock>) return id::kDefineBlock;
        else if constexpr (std::is_same_v<M, UseBlock>) return id::kUseBlock;
        else if constexpr (std::is_same_v<M, Relabel>) return id::kRelabel;
        else return id::kForgetBlock;
    }
};

bool read_message(sprite_v1::detail::ReadStream& s, std::uint8_t type, std::vector<ServerMessage>& out) {
    if (const auto read = read_shared_server_message(s, type, out)) return *read;
    switch (type) {
        case id::kFrame: return read_one<FrameMark>(s, out);
        case id::kDefineBlock: return read_one<DefineBlock>(s, out);
        case id::kUseBlock: return read_one<UseBlock>(s, out);
        case id::kRelabel: return read_one<Relabel>(s, out);
        case id::kForgetBlock: return read_one<ForgetBlock>(s, out);
        default: return s.fail(Error::UnknownType);
    }
}

}  // namespace

std::size_t max_block_bytes(std::uint16_t width, std::uint16_t height, std::uint8_t scale) {
    if (scale == 0) return 0;
    const std::size_t small = static_cast<std::size_t>(width / scale) * static_cast<std::size_t>(height / scale) * 4;
    // Stored deflate blocks add 5 bytes per 64 KiB; the zlib wrapper 6; some slack for the encoder.
    return small + (small / 65535 + 1) * 5 + 6 + 64;
}

Result<std::vector<ServerMessage>> decode(ByteView ws_message) {
    std::vector<ServerMessage> out;
    if (const auto error = read_all(ws_message, out, read_message)) return *error;
    return out;
}

std::optional<Error> append(Bytes& out, const ServerMessage& message) { return append_any(out, message, MessageId{}); }
Bytes encode(const ServerMessage& message) { return encode_any(message, MessageId{}, "compact stream"); }

}  // namespace hschool::protocol::hns_compact
