// WebSocket frames from clients (src/server/ws_frame.*): whatever bytes arrive, however the socket
// splits them, the reader must not crash, must hold no more than the message limit plus one header
// and one control frame, must report the same events for every split, and must say nothing after a
// ProtocolError. A masked frame built from the input must read back as exactly its payload. The
// same holds for the load generator's side: server frames read with Sender::Server, and
// encode_client_frame gives what a hand-built masked frame is.
//
// Input: byte 0 picks the piece sizes, byte 1 the message limit, the rest is the client's stream
// (and, for the round trip, the payload, masks and split points).
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "protocol/bytes.hpp"
#include "protocol/utf8.hpp"
#include "net/ws_frame.hpp"

namespace {

using hschool::protocol::Bytes;
using hschool::protocol::ByteView;
namespace ws = hschool::net::ws;
using Kind = ws::Event::Kind;

constexpr std::size_t kBound = ws::kMaxHeaderBytes + ws::kMaxControlPayload;

struct Seen {
    Kind kind;
    bool text;
    Bytes payload;
    std::uint16_t code;
    std::string reason;
    bool operator==(const Seen&) const = default;
};

void check(bool ok) {
    if (!ok) __builtin_trap();
}

// Reads one feed to its end, checking every event and the memory bound as it goes.
class Checked {
public:
    explicit Checked(std::size_t limit, ws::Sender from = ws::Sender::Client) : reader_(limit, from), limit_(limit) {}

    void feed(ByteView piece) {
        reader_.feed(piece);
        check_bound();
        while (auto event = reader_.next()) {
            check(!broken_);  // nothing after a ProtocolError
            check_event(*event);
            events_.push_back(Seen{event->kind, event->text, Bytes(event->payload.begin(), event->payload.end()),
                                   event->close_code, std::string(event->reason)});
            check_bound();
        }
        check_bound();
        check(reader_.failed() == broken_);
        if (broken_) check(reader_.buffered_bytes() == 0);
    }

    const std::vector<Seen>& events() const { return events_; }
    const ws::FrameReader& reader() const { return reader_; }

private:
    void check_bound() {
        check(reader_.buffered_bytes() <= limit_ + kBound);
        check(reader_.skipped_bytes() >= skipped_);  // never goes back
        skipped_ = reader_.skipped_bytes();
    }

    void check_event(const ws::Event& event) {
        switch (event.kind) {
            case Kind::Message:
                check(event.payload.size() <= limit_);
                break;
            case Kind::Ping:
            case Kind::Pong:
                check(event.payload.size() <= ws::kMaxControlPayload);
                break;
            case Kind::Close:
                check(event.payload.empty());
                if (event.close_code == ws::kNoStatusCode) {
                    check(event.reason.empty());
                } else {
                    check(ws::is_valid_close_code(event.close_code));
                    check(event.reason.size() <= ws::kMaxControlPayload - 2);
                    check(hschool::protocol::is_valid_utf8(event.reason));
                }
                break;
            case Kind::TooBig:
                check(event.payload.empty());
                break;
            case Kind::ProtocolError:
                check(reader_.failed());
                check(!event.reason.empty());
                broken_ = true;
                break;
            default:
                __builtin_trap();
        }
    }

    ws::FrameReader reader_;
    std::size_t limit_;
    std::uint64_t skipped_ = 0;
    bool broken_ = false;
    std::vector<Seen> events_;
};

// Feeds `stream` in pieces alternating between two sizes; each piece lives in its own buffer that
// is freed once the reader has drained it, so a view kept into an old piece trips ASan.
void feed_in_pieces(Checked& checked, ByteView stream, std::size_t a, std::size_t b) {
    std::size_t at = 0;
    for (std::size_t k = 0; at < stream.size(); ++k) {
        const std::size_t take = std::min(stream.size() - at, k % 2 == 0 ? a : b);
        const Bytes piece(stream.begin() + static_cast<std::ptrdiff_t>(at), stream.begin() + static_cast<std::ptrdiff_t>(at + take));
        checked.feed(piece);
        at += take;
    }
}

// A client frame: masked, shortest length form.
void append_client_frame(Bytes& out, std::uint8_t opcode, bool fin, ByteView payload, std::array<std::uint8_t, 4> mask) {
    out.push_back(static_cast<std::uint8_t>((fin ? 0x80 : 0x00) | opcode));
    const std::uint64_t n = payload.size();
    if (n < 126) {
        out.push_back(static_cast<std::uint8_t>(0x80 | n));
    } else if (n <= 0xFFFF) {
        out.push_back(0x80 | 126);
        out.push_back(static_cast<std::uint8_t>(n >> 8));
        out.push_back(static_cast<std::uint8_t>(n));
    } else {
        out.push_back(0x80 | 127);
        for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(n >> shift));
    }
    out.insert(out.end(), mask.begin(), mask.end());
    for (std::size_t i = 0; i < payload.size(); ++i) out.push_back(static_cast<std::uint8_t>(payload[i] ^ mask[i % 4]));
}

std::array<std::uint8_t, 4> mask_at(ByteView bytes, std::size_t at) {
    std::array<std::uint8_t, 4> mask{0x5A, 0xC3, 0x0F, 0x96};
    for (std::size_t i = 0; i < 4 && at + i < bytes.size(); ++i) mask[i] ^= bytes[at + i];
    return mask;
}

// Any stream: the same checked events for one feed and for pieces.
void read_stream(ByteView stream, std::size_t limit, std::size_t a, std::size_t b, ws::Sender from) {
    Checked whole(limit, from);
    whole.feed(stream);
    Checked pieces(limit, from);
    feed_in_pieces(pieces, stream, a, b);
    check(whole.events() == pieces.events());
    check(whole.reader().failed() == pieces.reader().failed());
    check(whole.reader().skipped_bytes() == pieces.reader().skipped_bytes());
}

// The payload, cut into fragments with a Ping between each two, reads back as exactly itself.
void round_trip(ByteView payload, std::uint8_t shape, std::size_t a, std::size_t b) {
    const bool text = (shape & 0x80) != 0;
    const std::size_t fragments = 1 + (shape & 0x03);
    Bytes stream;
    std::vector<Seen> expected;
    std::size_t at = 0;
    for (std::size_t f = 0; f < fragments; ++f) {
        const bool last = f + 1 == fragments;
        std::size_t take = payload.size() - at;
        if (!last && take > 0) take = payload[at] % (take + 1);
        const std::uint8_t opcode = f == 0 ? (text ? 0x1 : 0x2) : 0x0;
        append_client_frame(stream, opcode, last, payload.subspan(at, take), mask_at(payload, at));
        at += take;
        if (!last) {
            const ByteView ping = payload.subspan(0, std::min<std::size_t>(payload.size(), (shape >> 2) % 32));
            append_client_frame(stream, 0x9, true, ping, mask_at(payload, f));
            expected.push_back(Seen{Kind::Ping, false, Bytes(ping.begin(), ping.end()), 0, {}});
        }
    }
    expected.push_back(Seen{Kind::Message, text, Bytes(payload.begin(), payload.end()), 0, {}});

    Checked whole(payload.size());  // exactly the limit is accepted
    whole.feed(stream);
    check(whole.events() == expected);
    check(whole.reader().buffered_bytes() == 0);
    Checked pieces(payload.size());
    feed_in_pieces(pieces, stream, a, b);
    check(pieces.events() == expected);

    if (!payload.empty()) {  // one byte less is TooBig, and the pings still come through
        Checked small(payload.size() - 1);
        small.feed(stream);
        check(!small.events().empty() && small.events().back().kind != Kind::Message);
        check(std::count_if(small.events().begin(), small.events().end(), [](const Seen& s) { return s.kind == Kind::TooBig; }) == 1);
        check(small.reader().buffered_bytes() == 0);
        check(!small.reader().failed());
    }
}

// Server frames: the header announces the payload's size in the shortest form, big-endian.
void server_frames(ByteView payload) {
    const Bytes frame = ws::encode_frame(ws::Opcode::Binary, payload);
    check(frame.size() >= 2 && frame[0] == 0x82 && (frame[1] & 0x80) == 0);
    std::uint64_t n = frame[1];
    std::size_t header = 2;
    if (n == 126) {
        n = (std::uint64_t{frame[2]} << 8) | frame[3];
        header = 4;
        check(n >= 126);
    } else if (n == 127) {
        n = 0;
        for (int i = 0; i < 8; ++i) n = (n << 8) | frame[2 + static_cast<std::size_t>(i)];
        header = 10;
        check(n > 0xFFFF);
    }
    check(n == payload.size() && frame.size() == header + payload.size());
    check(std::equal(payload.begin(), payload.end(), frame.begin() + static_cast<std::ptrdiff_t>(header)));

    // A Close: the code, then the reason cut at a character boundary to fit 125 bytes.
    if (payload.size() < 2) return;
    const auto code = static_cast<std::uint16_t>((payload[0] << 8) | payload[1]);
    const std::string reason(payload.begin() + 2, payload.end());
    const Bytes close = ws::encode_close(code, reason);
    check(close == ws::encode_frame(ws::Opcode::Close, ws::close_payload(code, reason)));
    check(close[0] == 0x88 && close[1] >= 2 && close[1] <= ws::kMaxControlPayload && close.size() == 2u + close[1]);
    check(close[2] == payload[0] && close[3] == payload[1]);
    const std::string kept(close.begin() + 4, close.end());
    check(reason.compare(0, kept.size(), kept) == 0);
    // The server's reasons are UTF-8; for those the cut drops at most a partial character.
    if (!hschool::protocol::is_valid_utf8(reason)) return;
    check(kept.size() == reason.size() || kept.size() + 4 > ws::kMaxControlPayload - 2);
    check(hschool::protocol::is_valid_utf8(kept));

    // Read back as a client would send it.
    Bytes stream;
    append_client_frame(stream, 0x8, true, ByteView(close).subspan(2), mask_at(payload, 0));
    Checked checked(0);
    checked.feed(stream);
    check(checked.events().size() == 1);
    const Seen& seen = checked.events()[0];
    if (ws::is_valid_close_code(code)) {
        check(seen.kind == Kind::Close && seen.code == code && seen.reason == kept);
    } else {
        check(seen.kind == Kind::ProtocolError);
    }
}

// The load generator's side: a server frame reads back as its payload with Sender::Server (and is
// refused by a client-frame reader), and encode_client_frame is the masked frame built by hand.
void client_side(ByteView payload, std::size_t a, std::size_t b) {
    const Bytes server = ws::encode_frame(ws::Opcode::Binary, payload);
    const std::vector<Seen> expected{Seen{Kind::Message, false, Bytes(payload.begin(), payload.end()), 0, {}}};
    Checked whole(payload.size(), ws::Sender::Server);
    whole.feed(server);
    check(whole.events() == expected);
    Checked pieces(payload.size(), ws::Sender::Server);
    feed_in_pieces(pieces, server, a, b);
    check(pieces.events() == expected);
    Checked refused(payload.size(), ws::Sender::Client);
    refused.feed(server);
    check(refused.reader().failed());

    const auto mask = mask_at(payload, 1);
    Bytes by_hand;
    append_client_frame(by_hand, 0x2, true, payload, mask);
    check(ws::encode_client_frame(ws::Opcode::Binary, payload, mask) == by_hand);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    const std::size_t a = (data[0] & 0x0F) + 1;          // 1..16
    const std::size_t b = (data[0] >> 4) * 17 + 1;       // 1..256
    const std::size_t limit = std::size_t{data[1]} * 8;  // 0..2040
    const ByteView stream(data + 2, size - 2);
    read_stream(stream, limit, a, b, ws::Sender::Client);
    read_stream(stream, limit, a, b, ws::Sender::Server);
    client_side(stream, a, b);
    round_trip(stream, data[1], a, b);
    server_frames(stream);
    return 0;
}
