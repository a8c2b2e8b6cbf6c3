#include "net/ws_frame.hpp"

#include <algorithm>

#include "protocol/utf8.hpp"

namespace hschool::net::ws {

namespace {

bool is_control(std::uint8_t opcode) { return (opcode & 0x8) != 0; }

bool is_known(std::uint8_t opcode) {
    switch (static_cast<Opcode>(opcode)) {
        case Opcode::Continuation:
        case Opcode::Text:
        case Opcode::Binary:
        case Opcode::Close:
        case Opcode::Ping:
        case Opcode::Pong:
            return true;
    }
    return false;
}

// WebSocket lengths and close codes are big-endian, unlike our own messages.
void put_big_endian(protocol::Bytes& out, std::uint64_t value, int width) {
    for (int i = width - 1; i >= 0; --i) out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}

// A server frame's header (FIN set, no mask; lengths big-endian) into at; returns its length.
std::size_t put_server_header(std::uint8_t* at, Opcode opcode, std::uint64_t size) {
    at[0] = static_cast<std::uint8_t>(0x80 | static_cast<std::uint8_t>(opcode));
    if (size < 126) {
        at[1] = static_cast<std::uint8_t>(size);
        return 2;
    }
    const int width = size <= 0xFFFF ? 2 : 8;
    at[1] = width == 2 ? 126 : 127;
    for (int i = 0; i < width; ++i) at[2 + i] = static_cast<std::uint8_t>(size >> (8 * (width - 1 - i)));
    return 2 + static_cast<std::size_t>(width);
}

std::uint64_t get_big_endian(const std::uint8_t* in, int width) {
    std::uint64_t value = 0;
    for (int i = 0; i < width; ++i) value = (value << 8) | in[i];
    return value;
}

}  // namespace

protocol::Bytes encode_frame(Opcode opcode, protocol::ByteView payload) {
    std::uint8_t header[kServerHeaderRoom];
    const std::size_t length = put_server_header(header, opcode, payload.size());
    protocol::Bytes out;
    out.reserve(length + payload.size());
    out.insert(out.end(), header, header + length);
    out.insert(out.end(), payload.begin(), payload.end());
    return out;
}

protocol::Bytes encode_client_frame(Opcode opcode, protocol::ByteView payload, std::array<std::uint8_t, 4> mask) {
    std::uint8_t header[kServerHeaderRoom];
    const std::size_t length = put_server_header(header, opcode, payload.size());
    header[1] |= 0x80;  // the same header with the mask bit, then the key
    protocol::Bytes out;
    out.reserve(length + mask.size() + payload.size());
    out.insert(out.end(), header, header + length);
    out.insert(out.end(), mask.begin(), mask.end());
    for (std::size_t i = 0; i < payload.size(); ++i) out.push_back(static_cast<std::uint8_t>(payload[i] ^ mask[i & 3]));
    return out;
}

std::size_t write_header_before(Opcode opcode, protocol::Bytes& buffer, std::size_t payload_at) {
    std::uint8_t header[kServerHeaderRoom];
    const std::size_t length = put_server_header(header, opcode, buffer.size() - payload_at);
    const std::size_t begin = payload_at - length;
    std::copy(header, header + length, buffer.begin() + static_cast<std::ptrdiff_t>(begin));
    return begin;
}

protocol::Bytes close_payload(std::uint16_t code, std::string_view reason) {
    std::size_t cut = std::min(reason.size(), kMaxControlPayload - 2);
    while (cut > 0 && cut < reason.size() && (static_cast<unsigned char>(reason[cut]) & 0xC0) == 0x80) --cut;  // whole characters only
    protocol::Bytes payload;
    put_big_endian(payload, code, 2);
    payload.insert(payload.end(), reason.begin(), reason.begin() + static_cast<std::ptrdiff_t>(cut));
    return payload;
}

protocol::Bytes encode_close(std::uint16_t code, std::string_view reason) {
    return encode_frame(Opcode::Close, close_payload(code, reason));
}

bool is_valid_close_code(std::uint16_t code) {
    return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999);
}

bool FrameReader::peek(std::size_t bytes, protocol::ByteView& out) {
    if (pending_.empty() && input_.size() >= bytes) {
        out = input_;
        return true;
    }
    if (pending_.size() < bytes) {
        const std::size_t take = std::min(bytes - pending_.size(), input_.size());
        pending_.insert(pending_.end(), input_.begin(), input_.begin() + static_cast<std::ptrdiff_t>(take));
        input_ = input_.subspan(take);
    }
    if (pending_.size() < bytes) return false;
    out = pending_;
    return true;
}

void FrameReader::consume(std::size_t bytes) {
    if (!pending_.empty()) {
        pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(std::min(bytes, pending_.size())));
    } else {
        input_ = input_.subspan(bytes);
    }
}

std::optional<Event> FrameReader::fail(std::string_view reason) {
    failed_ = true;
    input_ = {};
    pending_.clear();
    message_.clear();
    in_payload_ = false;
    return Event{Event::Kind::ProtocolError, false, {}, 0, reason};
}

void FrameReader::unmask_into(protocol::ByteView masked, std::uint8_t* out) {
    if (mask_ == std::array<std::uint8_t, 4>{}) {  // a server's frame: nothing to undo
        std::copy(masked.begin(), masked.end(), out);
        return;
    }
    for (std::size_t i = 0; i < masked.size(); ++i) out[i] = masked[i] ^ mask_[(mask_offset_ + i) & 3];
    mask_offset_ = (mask_offset_ + masked.size()) & 3;
}

std::optional<Event> FrameReader::next() {
    if (deliver_pending_) {
        message_.clear();
        deliver_pending_ = false;
    }
    while (!failed_) {
        if (in_payload_) {
            if (payload_left_ > 0 && input_.empty()) return std::nullopt;
            if (auto event = read_payload()) return event;
            continue;
        }
        if (input_.empty()) return std::nullopt;  // an incomplete header waits in pending_
        if (auto event = read_header()) return event;
    }
    return std::nullopt;
}

std::optional<Event> FrameReader::read_header() {
    protocol::ByteView head;
    if (!peek(2, head)) return std::nullopt;
    const std::uint8_t opcode = head[0] & 0x0F;
    const bool fin = (head[0] & 0x80) != 0;
    const std::uint8_t length7 = head[1] & 0x7F;
    if ((head[0] & 0x70) != 0) return fail("reserved bits set without an extension");
    if (!is_known(opcode)) return fail("unknown opcode");
    const bool masked = (head[1] & 0x80) != 0;
    if (from_ == Sender::Client && !masked) return fail("client frames must be masked");
    if (from_ == Sender::Server && masked) return fail("server frames must not be masked");
    if (is_control(opcode) && !fin) return fail("fragmented control frame");
    if (is_control(opcode) && length7 > kMaxControlPayload) return fail("control frame longer than 125 bytes");
    const std::size_t length_bytes = length7 == 126 ? 2 : length7 == 127 ? 8 : 0;
    const std::size_t header_bytes = 2 + length_bytes + (masked ? 4 : 0);
    if (!peek(header_bytes, head)) return std::nullopt;
    const std::uint64_t length = length_bytes == 0 ? length7 : get_big_endian(head.data() + 2, static_cast<int>(length_bytes));
    if ((length_bytes == 2 && length < 126) || (length_bytes == 8 && length <= 0xFFFF)) return fail("frame length not minimally encoded");
    if (length_bytes == 8 && (length >> 63) != 0) return fail("frame length has its top bit set");
    if (masked) {
        std::copy_n(head.data() + 2 + length_bytes, 4, mask_.begin());
    } else {
        mask_ = {};  // unmasking with zeros copies
    }
    mask_offset_ = 0;

    if (is_control(opcode)) {
        protocol::ByteView whole;
        if (!peek(header_bytes + length, whole)) return std::nullopt;
        unmask_into(whole.subspan(header_bytes, length), control_.data());
        consume(header_bytes + length);
        const protocol::ByteView payload(control_.data(), length);
        switch (static_cast<Opcode>(opcode)) {
            case Opcode::Ping: return Event{Event::Kind::Ping, false, payload, 0, {}};
            case Opcode::Pong: return Event{Event::Kind::Pong, false, payload, 0, {}};
            default: break;
        }
        if (length == 0) return Event{Event::Kind::Close, false, {}, kNoStatusCode, {}};
        if (length == 1) return fail("close payload of one byte");
        const auto code = static_cast<std::uint16_t>(get_big_endian(control_.data(), 2));
        if (!is_valid_close_code(code)) return fail("invalid close code");
        const std::string_view reason(reinterpret_cast<const char*>(control_.data()) + 2, length - 2);
        if (!protocol::is_valid_utf8(reason)) return fail("close reason is not UTF-8");
        return Event{Event::Kind::Close, false, {}, code, reason};
    }

    const bool continuation = static_cast<Opcode>(opcode) == Opcode::Continuation;
    if (continuation && !in_message_) return fail("continuation frame without a message");
    if (!continuation && in_message_) return fail("new message before the previous one ended");
    consume(header_bytes);
    in_payload_ = true;
    frame_fin_ = fin;
    payload_left_ = length;
    if (!continuation) {
        in_message_ = true;
        message_text_ = static_cast<Opcode>(opcode) == Opcode::Text;
        skipping_message_ = false;
        message_.clear();
    }
    if (!skipping_message_ && length > max_message_bytes_ - std::min(message_.size(), max_message_bytes_)) {
        skipping_message_ = true;
        message_.clear();
        return Event{Event::Kind::TooBig, message_text_, {}, 0, {}};
    }
    return std::nullopt;
}

std::optional<Event> FrameReader::read_payload() {
    const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(payload_left_, input_.size()));
    if (skipping_message_) {
        skipped_bytes_ += take;
    } else {
        const std::size_t at = message_.size();
        message_.resize(at + take);
        unmask_into(input_.first(take), message_.data() + at);
    }
    input_ = input_.subspan(take);
    payload_left_ -= take;
    if (payload_left_ > 0) return std::nullopt;
    in_payload_ = false;
    if (!frame_fin_) return std::nullopt;
    in_message_ = false;
    if (skipping_message_) {
        skipping_message_ = false;
        return std::nullopt;
    }
    deliver_pending_ = true;
    return Event{Event::Kind::Message, message_text_, message_, 0, {}};
}

}  // namespace hschool::net::ws
