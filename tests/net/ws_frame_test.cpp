// RFC 6455 framing after the handshake: server frames out, and the incremental reader of client
// frames, which must survive any split of the byte stream and any hostile frame without crashing
// or holding more than the message limit plus one header and one control frame.
#include "net/ws_frame.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <ostream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/utf8.hpp"

namespace hschool::net::ws {
namespace {

using protocol::Bytes;
using protocol::ByteView;
using Kind = Event::Kind;

constexpr std::size_t kBound = kMaxHeaderBytes + kMaxControlPayload;  // what may be held beyond the limit

// ---- test-local builder of client frames ---------------------------------------------------------

enum class Length { Shortest, Force16, Force64 };

struct FrameSpec {
    std::uint8_t opcode = 0x2;
    bool fin = true;
    std::array<std::uint8_t, 4> mask{0x37, 0xFA, 0x21, 0x3D};
    bool masked = true;
    std::uint8_t rsv = 0;  // bits 0x70 of the first byte
    Length length = Length::Shortest;
    std::optional<std::uint64_t> announced;  // a length to announce instead of the payload's
};

Bytes client_frame(const FrameSpec& spec, ByteView payload) {
    Bytes out;
    out.push_back(static_cast<std::uint8_t>((spec.fin ? 0x80 : 0x00) | (spec.rsv & 0x70) | (spec.opcode & 0x0F)));
    const std::uint64_t n = spec.announced.value_or(payload.size());
    const std::uint8_t mask_bit = spec.masked ? 0x80 : 0x00;
    Length form = spec.length;
    if (form == Length::Shortest) form = n < 126 ? Length::Shortest : n <= 0xFFFF ? Length::Force16 : Length::Force64;
    if (form == Length::Shortest) {
        out.push_back(static_cast<std::uint8_t>(mask_bit | n));
    } else if (form == Length::Force16) {
        out.push_back(mask_bit | 126);
        out.push_back(static_cast<std::uint8_t>(n >> 8));
        out.push_back(static_cast<std::uint8_t>(n));
    } else {
        out.push_back(mask_bit | 127);
        for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(n >> shift));
    }
    if (spec.masked) out.insert(out.end(), spec.mask.begin(), spec.mask.end());
    for (std::size_t i = 0; i < payload.size(); ++i)
        out.push_back(spec.masked ? static_cast<std::uint8_t>(payload[i] ^ spec.mask[i % 4]) : payload[i]);
    return out;
}

Bytes bytes_of(std::string_view text) { return Bytes(text.begin(), text.end()); }

Bytes frame(std::uint8_t opcode, std::string_view payload, bool fin = true) {
    FrameSpec spec;
    spec.opcode = opcode;
    spec.fin = fin;
    return client_frame(spec, bytes_of(payload));
}

Bytes frame(std::uint8_t opcode, const Bytes& payload, bool fin = true) {
    FrameSpec spec;
    spec.opcode = opcode;
    spec.fin = fin;
    return client_frame(spec, payload);
}

Bytes close_body(std::uint16_t code, std::string_view reason = {}) {
    Bytes out{static_cast<std::uint8_t>(code >> 8), static_cast<std::uint8_t>(code)};
    out.insert(out.end(), reason.begin(), reason.end());
    return out;
}

Bytes concat(std::initializer_list<Bytes> parts) {
    Bytes out;
    for (const auto& part : parts) out.insert(out.end(), part.begin(), part.end());
    return out;
}

Bytes pattern(std::size_t size, std::uint32_t seed = 1) {
    Bytes out(size);
    std::uint32_t x = seed;
    for (auto& b : out) {
        x = x * 1664525u + 1013904223u;
        b = static_cast<std::uint8_t>(x >> 24);
    }
    return out;
}

// ---- events, copied out of the reader's views ----------------------------------------------------

struct Seen {
    Kind kind;
    bool text = false;
    Bytes payload;
    std::uint16_t code = 0;
    std::string reason;
    bool operator==(const Seen&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Seen& seen) {
    static constexpr const char* kNames[] = {"Message", "Ping", "Pong", "Close", "TooBig", "ProtocolError"};
    os << kNames[static_cast<int>(seen.kind)] << "{text=" << seen.text << " payload=" << seen.payload.size()
       << "B code=" << seen.code << " reason=\"" << seen.reason << "\"}";
    return os;
}

Seen copy(const Event& event) {
    return Seen{event.kind, event.text, Bytes(event.payload.begin(), event.payload.end()), event.close_code,
                std::string(event.reason)};
}

Seen message(std::string_view payload, bool text = false) { return Seen{Kind::Message, text, bytes_of(payload), 0, {}}; }
Seen message(const Bytes& payload, bool text = false) { return Seen{Kind::Message, text, payload, 0, {}}; }
Seen ping(std::string_view payload) { return Seen{Kind::Ping, false, bytes_of(payload), 0, {}}; }
Seen pong(std::string_view payload) { return Seen{Kind::Pong, false, bytes_of(payload), 0, {}}; }
Seen closed(std::uint16_t code, std::string_view reason = {}) { return Seen{Kind::Close, false, {}, code, std::string(reason)}; }
Seen too_big(bool text = false) { return Seen{Kind::TooBig, text, {}, 0, {}}; }

std::vector<Seen> drain(FrameReader& reader) {
    std::vector<Seen> out;
    while (auto event = reader.next()) out.push_back(copy(*event));
    return out;
}

std::vector<Seen> feed_all(FrameReader& reader, ByteView input) {
    reader.feed(input);
    return drain(reader);
}

std::vector<Seen> read_whole(ByteView input, std::size_t limit = 1 << 20) {
    FrameReader reader(limit);
    return feed_all(reader, input);
}

// Feeds `input` in pieces of `chunk` bytes, each copied into its own buffer that is freed once the
// reader has returned nullopt, so a reader that kept a view into an old piece trips ASan.
std::vector<Seen> read_in_pieces(ByteView input, std::size_t chunk, std::size_t limit = 1 << 20) {
    FrameReader reader(limit);
    std::vector<Seen> out;
    for (std::size_t at = 0; at < input.size(); at += chunk) {
        const Bytes piece(input.begin() + static_cast<std::ptrdiff_t>(at),
                          input.begin() + static_cast<std::ptrdiff_t>(std::min(input.size(), at + chunk)));
        reader.feed(piece);
        for (auto& seen : drain(reader)) out.push_back(std::move(seen));
    }
    return out;
}

// The stream is broken: exactly one ProtocolError is the last event, and the reader stays silent.
void expect_protocol_error(ByteView input, std::string_view what) {
    SCOPED_TRACE(std::string(what));
    FrameReader reader(1 << 20);
    reader.feed(input);
    const auto event = reader.next();
    ASSERT_TRUE(event.has_value());
    EXPECT_EQ(event->kind, Kind::ProtocolError);
    EXPECT_FALSE(event->reason.empty());
    EXPECT_TRUE(reader.failed());
    EXPECT_FALSE(reader.next().has_value());
    const Bytes good = frame(0x2, "ok");
    reader.feed(good);
    EXPECT_FALSE(reader.next().has_value());
    EXPECT_TRUE(reader.failed());
    EXPECT_EQ(reader.buffered_bytes(), 0u);
}

// ---- encode_frame / encode_close / is_valid_close_code -------------------------------------------

struct HeaderCase {
    std::size_t size;
    Bytes header;
};

TEST(WsEncodeFrame, LengthUsesTheShortestBigEndianForm) {
    const std::vector<HeaderCase> cases = {
        {0, {0x82, 0x00}},
        {1, {0x82, 0x01}},
        {125, {0x82, 0x7D}},
        {126, {0x82, 0x7E, 0x00, 0x7E}},
        {300, {0x82, 0x7E, 0x01, 0x2C}},
        {65535, {0x82, 0x7E, 0xFF, 0xFF}},
        {65536, {0x82, 0x7F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00}},
        {70000, {0x82, 0x7F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x11, 0x70}},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.size);
        const Bytes payload = pattern(c.size, static_cast<std::uint32_t>(c.size));
        const Bytes out = encode_frame(Opcode::Binary, payload);
        ASSERT_EQ(out.size(), c.header.size() + c.size);
        EXPECT_EQ(Bytes(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(c.header.size())), c.header);
        EXPECT_EQ((out[1] & 0x80), 0) << "server frames are never masked";
        EXPECT_TRUE(std::equal(payload.begin(), payload.end(), out.begin() + static_cast<std::ptrdiff_t>(c.header.size())));
    }
}

TEST(WsEncodeFrame, AHeaderWrittenInPlaceGivesTheSameFrame) {
    for (std::size_t size : {0u, 1u, 125u, 126u, 65535u, 65536u, 70000u}) {
        SCOPED_TRACE(size);
        const Bytes payload = pattern(size, static_cast<std::uint32_t>(size) + 7);
        Bytes buffer(kServerHeaderRoom, 0xEE);  // room filled with junk: nothing of it may show
        buffer.insert(buffer.end(), payload.begin(), payload.end());
        const std::size_t begin = write_header_before(Opcode::Binary, buffer, kServerHeaderRoom);
        EXPECT_EQ(Bytes(buffer.begin() + static_cast<std::ptrdiff_t>(begin), buffer.end()), encode_frame(Opcode::Binary, payload));
    }
}

TEST(WsEncodeFrame, FirstByteIsFinPlusOpcode) {
    EXPECT_EQ(encode_frame(Opcode::Text, bytes_of("a"))[0], 0x81);
    EXPECT_EQ(encode_frame(Opcode::Binary, bytes_of("a"))[0], 0x82);
    EXPECT_EQ(encode_frame(Opcode::Close, {})[0], 0x88);
    EXPECT_EQ(encode_frame(Opcode::Ping, {})[0], 0x89);
    EXPECT_EQ(encode_frame(Opcode::Pong, bytes_of("xy")), (Bytes{0x8A, 0x02, 'x', 'y'}));
}

TEST(WsEncodeClose, CodeIsBigEndianFollowedByTheReason) {
    EXPECT_EQ(encode_close(1001, "bye"), (Bytes{0x88, 0x05, 0x03, 0xE9, 'b', 'y', 'e'}));
    EXPECT_EQ(encode_close(4000, ""), (Bytes{0x88, 0x02, 0x0F, 0xA0}));
    EXPECT_EQ(encode_close(1000, "x"), (Bytes{0x88, 0x03, 0x03, 0xE8, 'x'}));
}

// The reason that encode_close put in the frame (the frame is short, so its header is 2 bytes).
std::string reason_in(const Bytes& close_frame) {
    EXPECT_EQ(close_frame[0], 0x88);
    EXPECT_EQ(close_frame[1], close_frame.size() - 2);
    return std::string(close_frame.begin() + 4, close_frame.end());
}

TEST(WsEncodeClose, ALongReasonIsCutTo123Bytes) {
    const std::string reason(200, 'r');
    const Bytes out = encode_close(1008, reason);
    EXPECT_EQ(out.size(), 2u + 125u);
    EXPECT_EQ(out[1], 125);
    EXPECT_EQ(reason_in(out), std::string(123, 'r'));
    EXPECT_EQ(reason_in(encode_close(1008, std::string(123, 'q'))), std::string(123, 'q'));
    EXPECT_EQ(reason_in(encode_close(1008, std::string(124, 'q'))), std::string(123, 'q'));
}

TEST(WsEncodeClose, TheCutFallsOnACharacterBoundary) {
    struct Case {
        std::string reason;
        std::size_t kept;
    };
    std::string two;    // "é" is 2 bytes: 123 is odd, so 122 bytes are kept
    std::string three;  // "€" is 3 bytes: 41 of them are exactly 123 bytes
    std::string shifted = "a";  // 1 + 3k: the 123rd byte is inside a "€", so 121 bytes are kept
    std::string four;   // "😀" is 4 bytes: 30 of them are 120 bytes
    for (int i = 0; i < 100; ++i) two += "\xC3\xA9";
    for (int i = 0; i < 50; ++i) three += "\xE2\x82\xAC";
    for (int i = 0; i < 50; ++i) shifted += "\xE2\x82\xAC";
    for (int i = 0; i < 40; ++i) four += "\xF0\x9F\x98\x80";
    const std::vector<Case> cases = {{two, 122}, {three, 123}, {shifted, 121}, {four, 120}};
    for (const auto& c : cases) {
        SCOPED_TRACE(c.kept);
        const std::string kept = reason_in(encode_close(1000, c.reason));
        EXPECT_EQ(kept, c.reason.substr(0, c.kept));
        EXPECT_TRUE(protocol::is_valid_utf8(kept));
    }
}

TEST(WsEncodeClose, ClosePayloadIsWhatTheCloseFrameCarries) {
    EXPECT_EQ(close_payload(1001, "bye"), (Bytes{0x03, 0xE9, 'b', 'y', 'e'}));
    EXPECT_EQ(close_payload(3000, ""), (Bytes{0x0B, 0xB8}));
    std::string long_reason;
    for (int i = 0; i < 100; ++i) long_reason += "\xC3\xA9";
    const Bytes payload = close_payload(1000, long_reason);
    EXPECT_EQ(payload.size(), 2u + 122u);
    const Bytes frame_bytes = encode_close(1000, long_reason);
    EXPECT_EQ(Bytes(frame_bytes.begin() + 2, frame_bytes.end()), payload);
}

TEST(WsEncodeClose, AReaderAcceptsWhatEncodeCloseWrites) {
    // Re-mask the server's close frame as a client would send it and read it back.
    std::string reason = "au revoir ";
    for (int i = 0; i < 60; ++i) reason += "\xC3\xA9";
    const Bytes out = encode_close(1001, reason);
    const Bytes payload(out.begin() + 2, out.end());
    const auto events = read_whole(frame(0x8, payload));
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].kind, Kind::Close);
    EXPECT_EQ(events[0].code, 1001);
    EXPECT_EQ(events[0].reason, reason.substr(0, 122));
}

TEST(WsCloseCode, ValidCodes) {
    for (std::uint16_t code : {1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999})
        EXPECT_TRUE(is_valid_close_code(code)) << code;
}

TEST(WsCloseCode, InvalidCodes) {
    for (std::uint16_t code : {0, 1, 999, 1004, 1005, 1006, 1015, 1016, 2000, 2999, 5000, 65535})
        EXPECT_FALSE(is_valid_close_code(code)) << code;
}

// ---- the reader on well-formed input -------------------------------------------------------------

TEST(WsReader, TheRfcExampleOfAMaskedTextFrame) {
    // RFC 6455 §5.7: a single-frame masked text message containing "Hello".
    const Bytes rfc{0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58};
    EXPECT_EQ(frame(0x1, "Hello"), rfc) << "the test's frame builder agrees with the RFC";
    EXPECT_EQ(read_whole(rfc), std::vector<Seen>{message("Hello", true)});
}

TEST(WsReader, ASingleMaskedBinaryMessage) {
    FrameReader reader(1024);
    const Bytes input = frame(0x2, Bytes{0x00, 0x01, 0xFE, 0xFF, 0x10});
    reader.feed(input);
    auto event = reader.next();
    ASSERT_TRUE(event.has_value());
    EXPECT_EQ(event->kind, Kind::Message);
    EXPECT_FALSE(event->text);
    EXPECT_EQ(Bytes(event->payload.begin(), event->payload.end()), (Bytes{0x00, 0x01, 0xFE, 0xFF, 0x10}));
    EXPECT_FALSE(reader.next().has_value());
    EXPECT_FALSE(reader.failed());
    EXPECT_EQ(reader.buffered_bytes(), 0u);
    EXPECT_EQ(reader.skipped_bytes(), 0u);
}

TEST(WsReader, TextFlagFollowsTheFirstFrame) {
    EXPECT_EQ(read_whole(frame(0x1, "hi")), std::vector<Seen>{message("hi", true)});
    EXPECT_EQ(read_whole(frame(0x2, "hi")), std::vector<Seen>{message("hi", false)});
    // A fragmented text message stays text though its continuations carry opcode 0.
    EXPECT_EQ(read_whole(concat({frame(0x1, "h", false), frame(0x0, "i")})), std::vector<Seen>{message("hi", true)});
}

TEST(WsReader, EmptyAndLongMessages) {
    const Bytes p200 = pattern(200, 2);
    const Bytes p70000 = pattern(70000, 3);
    const Bytes input = concat({frame(0x2, ""), frame(0x2, p200), frame(0x2, p70000), frame(0x1, "")});
    const std::vector<Seen> expected = {message(""), message(p200), message(p70000), message("", true)};
    EXPECT_EQ(read_whole(input), expected);
    EXPECT_EQ(read_in_pieces(input, 1000), expected);
}

TEST(WsReader, LengthsAtTheEdgesOfEachFormAreAccepted) {
    for (std::size_t size : {125u, 126u, 65535u, 65536u}) {
        SCOPED_TRACE(size);
        const Bytes payload = pattern(size, static_cast<std::uint32_t>(size));
        EXPECT_EQ(read_whole(frame(0x2, payload)), std::vector<Seen>{message(payload)});
    }
}

TEST(WsReader, SeveralFramesInOneFeed) {
    const Bytes input = concat({frame(0x2, "one"), frame(0x9, "p"), frame(0x1, "two"), frame(0xA, "q"),
                                frame(0x2, "three"), frame(0x8, close_body(1000, "done"))});
    const std::vector<Seen> expected = {message("one"), ping("p"), message("two", true), pong("q"), message("three"),
                                        closed(1000, "done")};
    FrameReader reader(1024);
    EXPECT_EQ(feed_all(reader, input), expected);
    EXPECT_EQ(reader.buffered_bytes(), 0u);
}

TEST(WsReader, AFragmentedMessageIsJoinedAndAPingBetweenFragmentsComesFirst) {
    FrameSpec first;
    first.fin = false;
    first.mask = {0x01, 0x02, 0x03, 0x04};
    FrameSpec middle;
    middle.opcode = 0x0;
    middle.fin = false;
    middle.mask = {0xA0, 0xB0, 0xC0, 0xD0};
    FrameSpec last;
    last.opcode = 0x0;
    last.mask = {0xFF, 0x00, 0xFF, 0x00};
    const Bytes input = concat({client_frame(first, bytes_of("abc")), client_frame(middle, bytes_of("defgh")),
                                frame(0x9, "mid"), client_frame(last, bytes_of("ij"))});
    const std::vector<Seen> expected = {ping("mid"), message("abcdefghij")};
    EXPECT_EQ(read_whole(input), expected);
    EXPECT_EQ(read_in_pieces(input, 1), expected);
    EXPECT_EQ(read_in_pieces(input, 3), expected);
}

TEST(WsReader, ControlFramesAreUnmasked) {
    std::string full(125, '\0');
    for (std::size_t i = 0; i < full.size(); ++i) full[i] = static_cast<char>('A' + i % 26);
    EXPECT_EQ(read_whole(frame(0x9, "ping payload")), std::vector<Seen>{ping("ping payload")});
    EXPECT_EQ(read_whole(frame(0xA, "pong payload")), std::vector<Seen>{pong("pong payload")});
    EXPECT_EQ(read_whole(frame(0x9, "")), std::vector<Seen>{ping("")});
    EXPECT_EQ(read_whole(frame(0x9, full)), std::vector<Seen>{ping(full)}) << "125 bytes is the largest control frame";
}

TEST(WsReader, CloseWithoutAPayloadReports1005) {
    const auto events = read_whole(frame(0x8, ""));
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0], closed(1005));
    EXPECT_EQ(events[0].code, kNoStatusCode);
}

TEST(WsReader, CloseWithCodeAndReason) {
    EXPECT_EQ(read_whole(frame(0x8, close_body(1000, "done"))), std::vector<Seen>{closed(1000, "done")});
    EXPECT_EQ(read_whole(frame(0x8, close_body(4321))), std::vector<Seen>{closed(4321)});
    EXPECT_EQ(read_whole(frame(0x8, close_body(1001, "пока"))), std::vector<Seen>{closed(1001, "пока")});
}

TEST(WsReader, PayloadViewsStayValidUntilTheNextCallEvenIfTheInputIsOverwritten) {
    FrameReader reader(1024);
    Bytes input = concat({frame(0x2, "message"), frame(0x9, "ping"), frame(0x8, close_body(1000, "why"))});
    reader.feed(input);

    auto event = reader.next();
    ASSERT_TRUE(event.has_value());
    std::fill(input.begin(), input.end(), 0xEE);  // the bytes handed over are masked: the view is the reader's own
    EXPECT_EQ(std::string(event->payload.begin(), event->payload.end()), "message");
    EXPECT_EQ(reader.buffered_bytes(), 7u) << "the delivered message is held until the next call";
    const Bytes good = concat({frame(0x2, "message"), frame(0x9, "ping"), frame(0x8, close_body(1000, "why"))});
    std::copy(good.begin(), good.end(), input.begin());

    event = reader.next();
    ASSERT_TRUE(event.has_value());
    EXPECT_EQ(reader.buffered_bytes(), 0u) << "the previous message is released by the next call";
    std::fill(input.begin(), input.end(), 0xEE);
    EXPECT_EQ(event->kind, Kind::Ping);
    EXPECT_EQ(std::string(event->payload.begin(), event->payload.end()), "ping");
    std::copy(good.begin(), good.end(), input.begin());

    event = reader.next();
    ASSERT_TRUE(event.has_value());
    std::fill(input.begin(), input.end(), 0xEE);
    EXPECT_EQ(event->kind, Kind::Close);
    EXPECT_EQ(event->reason, "why");
}

// ---- any split of the stream gives the same events -----------------------------------------------

Bytes mixed_stream() {
    return concat({frame(0x1, "first", false), frame(0x9, "between"), frame(0x0, " and second"),
                   frame(0x2, pattern(300, 9)), frame(0xA, ""), frame(0x2, ""),
                   frame(0x8, close_body(1001, "going away"))});
}

TEST(WsReader, OneByteAtATimeGivesTheSameEvents) {
    const Bytes input = mixed_stream();
    const std::vector<Seen> expected = {ping("between"), message("first and second", true), message(pattern(300, 9)),
                                        pong(""), message(""), closed(1001, "going away")};
    ASSERT_EQ(read_whole(input), expected);
    for (std::size_t chunk : {1u, 2u, 3u, 5u, 7u, 13u, 64u, 127u, 128u}) {
        SCOPED_TRACE(chunk);
        EXPECT_EQ(read_in_pieces(input, chunk), expected);
    }
}

TEST(WsReader, EverySplitPointOfTwoFramesGivesTheSameEvents) {
    const Bytes input = concat({frame(0x2, pattern(130, 4)), frame(0x9, "hello")});
    const std::vector<Seen> expected = {message(pattern(130, 4)), ping("hello")};
    ASSERT_EQ(read_whole(input), expected);
    for (std::size_t split = 0; split <= input.size(); ++split) {
        SCOPED_TRACE(split);
        FrameReader reader(1024);
        const Bytes a(input.begin(), input.begin() + static_cast<std::ptrdiff_t>(split));
        const Bytes b(input.begin() + static_cast<std::ptrdiff_t>(split), input.end());
        auto events = feed_all(reader, a);
        for (auto& seen : feed_all(reader, b)) events.push_back(std::move(seen));
        EXPECT_EQ(events, expected);
        EXPECT_EQ(reader.buffered_bytes(), 0u);
    }
}

TEST(WsReader, EveryPairOfSplitPointsOfAMixedStreamGivesTheSameEvents) {
    const Bytes input = concat({frame(0x1, "ab", false), frame(0x9, "p"), frame(0x0, "cd"),
                                frame(0x8, close_body(1000, "x"))});
    const std::vector<Seen> expected = {ping("p"), message("abcd", true), closed(1000, "x")};
    for (std::size_t i = 0; i <= input.size(); ++i) {
        for (std::size_t j = i; j <= input.size(); ++j) {
            FrameReader reader(1024);
            std::vector<Seen> events;
            for (auto [from, to] : {std::pair{std::size_t{0}, i}, std::pair{i, j}, std::pair{j, input.size()}}) {
                const Bytes piece(input.begin() + static_cast<std::ptrdiff_t>(from), input.begin() + static_cast<std::ptrdiff_t>(to));
                for (auto& seen : feed_all(reader, piece)) events.push_back(std::move(seen));
            }
            ASSERT_EQ(events, expected) << "split at " << i << " and " << j;
        }
    }
}

// ---- hostile input -------------------------------------------------------------------------------

TEST(WsReaderHostile, AnUnmaskedFrame) {
    FrameSpec spec;
    spec.masked = false;
    expect_protocol_error(client_frame(spec, bytes_of("data")), "unmasked data");
    spec.opcode = 0x9;
    expect_protocol_error(client_frame(spec, bytes_of("")), "unmasked ping");
}

TEST(WsReaderHostile, ReservedBits) {
    for (std::uint8_t rsv : {0x10, 0x20, 0x40, 0x70}) {
        FrameSpec spec;
        spec.rsv = rsv;
        expect_protocol_error(client_frame(spec, bytes_of("data")), "rsv " + std::to_string(rsv));
    }
}

TEST(WsReaderHostile, UnknownOpcodes) {
    for (std::uint8_t opcode : {0x3, 0x4, 0x5, 0x6, 0x7, 0xB, 0xC, 0xD, 0xE, 0xF}) {
        FrameSpec spec;
        spec.opcode = opcode;
        expect_protocol_error(client_frame(spec, bytes_of("x")), "opcode " + std::to_string(opcode));
    }
}

TEST(WsReaderHostile, AFragmentedControlFrame) {
    for (std::uint8_t opcode : {0x8, 0x9, 0xA}) {
        FrameSpec spec;
        spec.opcode = opcode;
        spec.fin = false;
        expect_protocol_error(client_frame(spec, bytes_of("")), "control opcode " + std::to_string(opcode));
    }
}

TEST(WsReaderHostile, AControlFrameLongerThan125Bytes) {
    for (std::uint8_t opcode : {0x8, 0x9, 0xA}) {
        FrameSpec spec;
        spec.opcode = opcode;
        expect_protocol_error(client_frame(spec, pattern(126)), "126-byte control " + std::to_string(opcode));
        spec.length = Length::Force16;
        expect_protocol_error(client_frame(spec, pattern(10)), "control with a 16-bit length " + std::to_string(opcode));
        spec.length = Length::Force64;
        expect_protocol_error(client_frame(spec, pattern(10)), "control with a 64-bit length " + std::to_string(opcode));
    }
}

TEST(WsReaderHostile, AContinuationWithoutAMessage) {
    expect_protocol_error(frame(0x0, "orphan"), "first frame");
    // After a complete message, too.
    FrameReader reader(1024);
    const Bytes input = concat({frame(0x2, "whole"), frame(0x0, "orphan"), frame(0x2, "never")});
    const auto events = feed_all(reader, input);
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[0], message("whole"));
    EXPECT_EQ(events[1].kind, Kind::ProtocolError);
    EXPECT_TRUE(reader.failed());
}

TEST(WsReaderHostile, ANewDataFrameInTheMiddleOfAFragmentedMessage) {
    for (std::uint8_t opcode : {0x1, 0x2}) {
        FrameReader reader(1024);
        const Bytes input = concat({frame(0x2, "part", false), frame(0x9, "ok"), frame(opcode, "intruder")});
        const auto events = feed_all(reader, input);
        ASSERT_EQ(events.size(), 2u) << int(opcode);
        EXPECT_EQ(events[0], ping("ok"));
        EXPECT_EQ(events[1].kind, Kind::ProtocolError);
        EXPECT_EQ(reader.buffered_bytes(), 0u);
    }
}

TEST(WsReaderHostile, NonMinimalLengths) {
    FrameSpec spec;
    spec.length = Length::Force16;
    expect_protocol_error(client_frame(spec, pattern(0)), "0 in 16 bits");
    expect_protocol_error(client_frame(spec, pattern(125)), "125 in 16 bits");
    EXPECT_EQ(read_whole(client_frame(spec, pattern(126))), std::vector<Seen>{message(pattern(126))}) << "126 in 16 bits";
    spec.length = Length::Force64;
    expect_protocol_error(client_frame(spec, pattern(0)), "0 in 64 bits");
    expect_protocol_error(client_frame(spec, pattern(125)), "125 in 64 bits");
    expect_protocol_error(client_frame(spec, pattern(126)), "126 in 64 bits");
    expect_protocol_error(client_frame(spec, pattern(65535)), "65535 in 64 bits");
    EXPECT_EQ(read_whole(client_frame(spec, pattern(65536))), std::vector<Seen>{message(pattern(65536))}) << "65536 in 64 bits";
}

TEST(WsReaderHostile, A64BitLengthWithTheTopBitSet) {
    for (std::uint64_t announced : {std::uint64_t{1} << 63, ~std::uint64_t{0}, (std::uint64_t{1} << 63) | 5}) {
        FrameSpec spec;
        spec.announced = announced;
        FrameReader reader(1024);
        const Bytes input = client_frame(spec, {});
        reader.feed(input);
        const auto event = reader.next();
        ASSERT_TRUE(event.has_value());
        EXPECT_EQ(event->kind, Kind::ProtocolError) << announced << " is not a TooBig: it is not a valid frame";
        EXPECT_TRUE(reader.failed());
    }
}

TEST(WsReaderHostile, AClosePayloadOfOneByte) {
    expect_protocol_error(frame(0x8, Bytes{0x03}), "one-byte close");
}

TEST(WsReaderHostile, InvalidCloseCodesAreProtocolErrors) {
    for (std::uint16_t code : {0, 999, 1004, 1005, 1006, 1015, 2999, 5000, 65535})
        expect_protocol_error(frame(0x8, close_body(code, "r")), "close code " + std::to_string(code));
}

TEST(WsReaderHostile, ValidCloseCodesAreDelivered) {
    for (std::uint16_t code : {1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 4000, 4999}) {
        EXPECT_EQ(read_whole(frame(0x8, close_body(code, "r"))), std::vector<Seen>{closed(code, "r")}) << code;
    }
}

TEST(WsReaderHostile, ACloseReasonThatIsNotUtf8) {
    expect_protocol_error(frame(0x8, close_body(1000, "\xFF")), "0xFF");
    expect_protocol_error(frame(0x8, close_body(1000, "ab\xC0\x80")), "overlong NUL");
    expect_protocol_error(frame(0x8, close_body(1000, "\xE2\x82")), "truncated");
    expect_protocol_error(frame(0x8, close_body(1000, "\xED\xA0\x80")), "surrogate");
    expect_protocol_error(frame(0x8, close_body(1000, "\xF4\x90\x80\x80")), "past U+10FFFF");
}

TEST(WsReaderHostile, AfterAProtocolErrorTheReaderReportsNothingMore) {
    FrameReader reader(1024);
    FrameSpec unmasked;
    unmasked.masked = false;
    const Bytes input = concat({frame(0x2, "before"), client_frame(unmasked, bytes_of("bad")), frame(0x2, "after"),
                                frame(0x9, "p")});
    const auto events = feed_all(reader, input);
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[0], message("before"));
    EXPECT_EQ(events[1].kind, Kind::ProtocolError);
    EXPECT_EQ(events[1].reason, "client frames must be masked");
    EXPECT_TRUE(reader.failed());
    for (int i = 0; i < 3; ++i) {
        const Bytes later = concat({frame(0x2, "later"), frame(0x8, "")});
        EXPECT_TRUE(feed_all(reader, later).empty());
        EXPECT_TRUE(reader.failed());
        EXPECT_EQ(reader.buffered_bytes(), 0u);
    }
}

TEST(WsReaderHostile, AnErrorInAHeaderSplitAcrossFeeds) {
    // The bad header arrives one byte at a time; the error comes once the header is complete enough.
    FrameSpec spec;
    spec.length = Length::Force64;
    const Bytes input = concat({frame(0x2, "ok"), client_frame(spec, pattern(100))});
    const auto events = read_in_pieces(input, 1);
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[0], message("ok"));
    EXPECT_EQ(events[1].kind, Kind::ProtocolError);
    EXPECT_EQ(events[1].reason, "frame length not minimally encoded");
}

// ---- TooBig --------------------------------------------------------------------------------------

TEST(WsReaderTooBig, AMessageOfExactlyTheLimitIsDelivered) {
    const Bytes payload = pattern(100, 5);
    EXPECT_EQ(read_whole(frame(0x2, payload), 100), std::vector<Seen>{message(payload)});
    EXPECT_EQ(read_whole(frame(0x2, ""), 0), std::vector<Seen>{message("")}) << "a limit of 0 still allows empty messages";
    EXPECT_EQ(read_whole(frame(0x2, "x"), 0), std::vector<Seen>{too_big()});
}

TEST(WsReaderTooBig, OneByteMoreIsTooBigAtItsHeaderAndItsPayloadIsSkipped) {
    FrameReader reader(100);
    const Bytes big = frame(0x1, pattern(101, 6));
    const std::size_t header = 2 + 4;
    const Bytes head(big.begin(), big.begin() + header);
    auto events = feed_all(reader, head);
    ASSERT_EQ(events, std::vector<Seen>{too_big(true)}) << "reported before any payload arrives";
    EXPECT_EQ(reader.skipped_bytes(), 0u);

    for (std::size_t at = header; at < big.size(); at += 10) {
        const Bytes piece(big.begin() + static_cast<std::ptrdiff_t>(at),
                          big.begin() + static_cast<std::ptrdiff_t>(std::min(big.size(), at + 10)));
        EXPECT_TRUE(feed_all(reader, piece).empty());
        EXPECT_EQ(reader.skipped_bytes(), std::min<std::size_t>(101, at + 10 - header));
        EXPECT_EQ(reader.buffered_bytes(), 0u);
    }
    EXPECT_EQ(reader.skipped_bytes(), 101u);

    const Bytes after = pattern(100, 7);
    EXPECT_EQ(feed_all(reader, frame(0x2, after)), std::vector<Seen>{message(after)}) << "the next message is whole";
    EXPECT_FALSE(reader.failed());
}

TEST(WsReaderTooBig, InOneFeedTheNextMessageIsDelivered) {
    const Bytes input = concat({frame(0x2, pattern(101)), frame(0x9, "p"), frame(0x2, pattern(100))});
    FrameReader reader(100);
    EXPECT_EQ(feed_all(reader, input), (std::vector<Seen>{too_big(), ping("p"), message(pattern(100))}));
    EXPECT_EQ(reader.skipped_bytes(), 101u);
    EXPECT_EQ(read_in_pieces(input, 1, 100), (std::vector<Seen>{too_big(), ping("p"), message(pattern(100))}));
}

TEST(WsReaderTooBig, AFragmentedMessageOverTheLimitIsTooBigOnceAndTheRestIsSkipped) {
    FrameReader reader(100);
    const Bytes input = concat({frame(0x2, pattern(60, 1), false), frame(0x9, "before"),
                                frame(0x0, pattern(40, 2), false), frame(0x0, pattern(1, 3), false),
                                frame(0x9, "while skipping"), frame(0x0, pattern(50, 4), false),
                                frame(0x0, pattern(30, 5)), frame(0x1, "next")});
    const std::vector<Seen> expected = {ping("before"), too_big(), ping("while skipping"), message("next", true)};
    EXPECT_EQ(feed_all(reader, input), expected);
    // 60 + 40 fit exactly; the 1-byte fragment overflows, and it and everything after it is skipped.
    EXPECT_EQ(reader.skipped_bytes(), 1u + 50u + 30u);
    EXPECT_EQ(reader.buffered_bytes(), 0u);
    EXPECT_FALSE(reader.failed());
    EXPECT_EQ(read_in_pieces(input, 1, 100), expected);
}

TEST(WsReaderTooBig, FragmentsThatFitExactlyAreDelivered) {
    const Bytes input = concat({frame(0x2, pattern(60, 1), false), frame(0x0, pattern(40, 2), false), frame(0x0, "")});
    Bytes joined = pattern(60, 1);
    const Bytes tail = pattern(40, 2);
    joined.insert(joined.end(), tail.begin(), tail.end());
    EXPECT_EQ(read_whole(input, 100), std::vector<Seen>{message(joined)});
}

TEST(WsReaderTooBig, SetMaxMessageBytesChangesTheLimit) {
    FrameReader reader(10);
    const Bytes twenty = pattern(20, 8);
    EXPECT_EQ(feed_all(reader, frame(0x2, twenty)), std::vector<Seen>{too_big()});
    reader.set_max_message_bytes(50);
    EXPECT_EQ(feed_all(reader, frame(0x2, twenty)), std::vector<Seen>{message(twenty)});
    EXPECT_EQ(feed_all(reader, frame(0x2, pattern(50))), std::vector<Seen>{message(pattern(50))});
    reader.set_max_message_bytes(5);
    EXPECT_EQ(feed_all(reader, frame(0x2, pattern(6))), std::vector<Seen>{too_big()});
    EXPECT_EQ(feed_all(reader, frame(0x2, pattern(5))), std::vector<Seen>{message(pattern(5))});
    EXPECT_EQ(reader.skipped_bytes(), 20u + 6u);
}

TEST(WsReaderTooBig, AHugeAnnouncedLengthIsTooBigWithoutAllocating) {
    FrameReader reader(1 << 20);
    FrameSpec spec;
    spec.announced = std::uint64_t{1} << 62;
    const Bytes head = client_frame(spec, {});
    ASSERT_EQ(head.size(), 14u);
    EXPECT_EQ(feed_all(reader, head), std::vector<Seen>{too_big()});
    EXPECT_LE(reader.buffered_bytes(), kMaxHeaderBytes);
    // Whatever follows is the huge frame's payload: skipped, never buffered, nothing reported.
    const Bytes junk = pattern(1 << 16, 11);
    for (int i = 0; i < 16; ++i) {
        EXPECT_TRUE(feed_all(reader, junk).empty());
        EXPECT_EQ(reader.buffered_bytes(), 0u);
    }
    EXPECT_EQ(reader.skipped_bytes(), 16u << 16);
    EXPECT_FALSE(reader.failed());
}

TEST(WsReaderTooBig, AHugeContinuationIsTooBigWithoutAllocating) {
    FrameReader reader(1000);
    FrameSpec spec;
    spec.opcode = 0x0;
    spec.announced = (std::uint64_t{1} << 63) - 1;  // the largest legal length
    const Bytes input = concat({frame(0x2, pattern(999), false), client_frame(spec, {})});
    EXPECT_EQ(feed_all(reader, input), std::vector<Seen>{too_big()});
    EXPECT_EQ(reader.buffered_bytes(), 0u);
}

// ---- memory bound --------------------------------------------------------------------------------

TEST(WsReaderMemory, BufferedBytesStayWithinTheLimitPlusOneHeaderAndOneControlFrame) {
    constexpr std::size_t kLimit = 1000;
    std::mt19937 random(20240601);
    Bytes input;
    std::vector<Seen> expected;
    for (int m = 0; m < 300; ++m) {
        // A message of 0..1500 bytes in 1..4 fragments with pings of up to 125 bytes between them.
        const std::size_t size = random() % 1501;
        const Bytes payload = pattern(size, static_cast<std::uint32_t>(m));
        const int fragments = 1 + static_cast<int>(random() % 4);
        std::size_t at = 0;
        bool too_big_seen = false;
        std::vector<Seen> pings;
        for (int f = 0; f < fragments; ++f) {
            const std::size_t take = f + 1 == fragments ? size - at : std::min(size - at, static_cast<std::size_t>(random() % (size + 1)));
            FrameSpec spec;
            spec.opcode = f == 0 ? 0x2 : 0x0;
            spec.fin = f + 1 == fragments;
            spec.mask = {static_cast<std::uint8_t>(random()), static_cast<std::uint8_t>(random()),
                         static_cast<std::uint8_t>(random()), static_cast<std::uint8_t>(random())};
            const Bytes part(payload.begin() + static_cast<std::ptrdiff_t>(at), payload.begin() + static_cast<std::ptrdiff_t>(at + take));
            at += take;
            const Bytes bytes = client_frame(spec, part);
            input.insert(input.end(), bytes.begin(), bytes.end());
            if (at > kLimit && !too_big_seen) {
                too_big_seen = true;
                expected.push_back(too_big());
            }
            if (!spec.fin) {
                const std::string ping_payload(random() % 126, static_cast<char>('a' + m % 26));
                const Bytes ping_frame = frame(0x9, ping_payload);
                input.insert(input.end(), ping_frame.begin(), ping_frame.end());
                expected.push_back(ping(ping_payload));
            }
        }
        if (!too_big_seen) expected.push_back(message(payload));
    }

    FrameReader reader(kLimit);
    std::vector<Seen> events;
    std::size_t most = 0;
    for (std::size_t at = 0; at < input.size();) {
        const std::size_t take = std::min(input.size() - at, static_cast<std::size_t>(1 + random() % 37));
        const Bytes piece(input.begin() + static_cast<std::ptrdiff_t>(at), input.begin() + static_cast<std::ptrdiff_t>(at + take));
        at += take;
        reader.feed(piece);
        most = std::max(most, reader.buffered_bytes());
        while (auto event = reader.next()) {
            events.push_back(copy(*event));
            most = std::max(most, reader.buffered_bytes());
            ASSERT_LE(reader.buffered_bytes(), kLimit + kBound);
        }
        most = std::max(most, reader.buffered_bytes());
        ASSERT_LE(reader.buffered_bytes(), kLimit + kBound);
    }
    EXPECT_EQ(events, expected);
    EXPECT_FALSE(reader.failed());
    EXPECT_GT(reader.skipped_bytes(), 0u) << "the stream must contain messages over the limit";
    EXPECT_GE(most, 900u) << "the stream must come close to the limit for the bound to mean something";
    EXPECT_LE(most, kLimit + kBound);
}

TEST(WsReaderMemory, AControlFrameHeldBetweenFragmentsOfAFullMessageStaysWithinTheBound) {
    // The worst case: the message being assembled is exactly at the limit and a 125-byte Ping
    // arrives one byte short of complete.
    constexpr std::size_t kLimit = 500;
    FrameReader reader(kLimit);
    const Bytes ping_frame = frame(0x9, std::string(125, 'p'));
    const Bytes input = concat({frame(0x2, pattern(kLimit), false), ping_frame, frame(0x0, "")});
    const std::size_t cut = input.size() - frame(0x0, "").size() - 1;
    const Bytes first(input.begin(), input.begin() + static_cast<std::ptrdiff_t>(cut));
    const Bytes rest(input.begin() + static_cast<std::ptrdiff_t>(cut), input.end());
    EXPECT_TRUE(feed_all(reader, first).empty());
    EXPECT_EQ(reader.buffered_bytes(), kLimit + ping_frame.size() - 1);
    EXPECT_LE(reader.buffered_bytes(), kLimit + kBound);
    EXPECT_EQ(feed_all(reader, rest), (std::vector<Seen>{ping(std::string(125, 'p')), message(pattern(kLimit))}));
}

// ---- the other side: masked client frames out, server frames read (the load generator) ----------

TEST(WsEncodeClientFrame, TheRfcExampleOfAMaskedTextFrame) {
    const Bytes rfc{0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58};
    EXPECT_EQ(encode_client_frame(Opcode::Text, bytes_of("Hello"), {0x37, 0xFA, 0x21, 0x3D}), rfc);
}

TEST(WsEncodeClientFrame, EveryLengthFormReadsBackAsItsPayload) {
    for (std::size_t size : {0u, 1u, 125u, 126u, 65535u, 65536u}) {
        const Bytes payload = pattern(size, static_cast<std::uint32_t>(size) + 3);
        const Bytes wire = encode_client_frame(Opcode::Binary, payload, {0x01, 0x80, 0x7F, 0xFE});
        EXPECT_EQ(read_whole(wire), std::vector<Seen>{message(payload)}) << size;
        FrameSpec spec;
        spec.mask = {0x01, 0x80, 0x7F, 0xFE};
        EXPECT_EQ(client_frame(spec, payload), wire) << "the test's builder agrees, " << size;
    }
}

std::vector<Seen> read_server_stream(ByteView input, std::size_t limit = 1 << 20) {
    FrameReader reader(limit, Sender::Server);
    return feed_all(reader, input);
}

TEST(WsServerReader, ReadsWhatTheServerWritesInEveryLengthForm) {
    for (std::size_t size : {0u, 5u, 125u, 126u, 65535u, 65536u}) {
        const Bytes payload = pattern(size, static_cast<std::uint32_t>(size) + 11);
        EXPECT_EQ(read_server_stream(encode_frame(Opcode::Binary, payload)), std::vector<Seen>{message(payload)}) << size;
    }
}

TEST(WsServerReader, ControlFramesAndSeveralFramesInOnePieceOrSplitAnywhere) {
    const Bytes stream = concat({encode_frame(Opcode::Ping, bytes_of("p")), encode_frame(Opcode::Binary, bytes_of("frame")),
                                 encode_frame(Opcode::Text, bytes_of("t")), encode_close(1001, "bye")});
    const std::vector<Seen> expected{ping("p"), message("frame"), message("t", true), closed(1001, "bye")};
    EXPECT_EQ(read_server_stream(stream), expected);
    for (std::size_t split = 1; split < stream.size(); ++split) {
        FrameReader reader(1 << 20, Sender::Server);
        auto seen = feed_all(reader, ByteView(stream).first(split));
        const Bytes rest(stream.begin() + static_cast<std::ptrdiff_t>(split), stream.end());
        for (auto& more : feed_all(reader, rest)) seen.push_back(std::move(more));
        EXPECT_EQ(seen, expected) << "split at " << split;
    }
}

TEST(WsServerReaderHostile, AMaskedFrameIsAProtocolError) {
    FrameReader reader(1 << 20, Sender::Server);
    const Bytes masked = encode_client_frame(Opcode::Binary, bytes_of("masked"), {1, 2, 3, 4});  // fed views must outlive next()
    reader.feed(masked);
    const auto event = reader.next();
    ASSERT_TRUE(event.has_value());
    EXPECT_EQ(event->kind, Kind::ProtocolError);
    EXPECT_TRUE(reader.failed());
}

TEST(WsServerReaderHostile, TheClientSideRulesStillHold) {
    // Reserved bits, an unknown opcode, a long control frame, a truncated header: as for a client.
    for (const Bytes& bad : {Bytes{0xC2, 0x00}, Bytes{0x83, 0x00}, concat({Bytes{0x89, 126, 0, 126}, pattern(126)})}) {
        FrameReader reader(1 << 20, Sender::Server);
        reader.feed(bad);
        const auto event = reader.next();
        ASSERT_TRUE(event.has_value());
        EXPECT_EQ(event->kind, Kind::ProtocolError);
    }
    FrameReader reader(4, Sender::Server);
    const Bytes first{0x82}, second{0x05, 1, 2, 3, 4, 5};  // fed views must outlive next()
    reader.feed(first);
    EXPECT_FALSE(reader.next().has_value()) << "half a header waits";
    reader.feed(second);
    const auto event = reader.next();
    ASSERT_TRUE(event.has_value());
    EXPECT_EQ(event->kind, Kind::TooBig) << "over the limit";
}

}  // namespace
}  // namespace hschool::net::ws
