#pragma once
// RFC 6455 framing after the handshake: server frames out (unmasked, never fragmented, so one
// encoding serves every client) and an incremental reader for client frames. The load generator
// uses the other side of both: masked client frames out, and the reader for server frames.
// Standard library only, so it can be unit-tested and fuzzed without a socket.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "protocol/bytes.hpp"

namespace hschool::net::ws {

enum class Opcode : std::uint8_t { Continuation = 0x0, Text = 0x1, Binary = 0x2, Close = 0x8, Ping = 0x9, Pong = 0xA };

inline constexpr std::size_t kMaxHeaderBytes = 14;       // 2 + 8-byte length + 4-byte mask
inline constexpr std::size_t kMaxControlPayload = 125;   // RFC 6455 §5.5
inline constexpr std::uint16_t kNoStatusCode = 1005;     // reported when a Close carries no code

inline constexpr std::size_t kServerHeaderRoom = 10;     // a server frame's header: 2 + 8-byte length, no mask

// A whole server frame (FIN set, no mask): header followed by the payload.
protocol::Bytes encode_frame(Opcode opcode, protocol::ByteView payload);
// Frames a payload in place: buffer[payload_at..] is the payload and buffer[0..payload_at) at
// least kServerHeaderRoom bytes of room; writes the header just before the payload and returns
// where the frame begins. Saves encoding a message and then copying it behind its header.
std::size_t write_header_before(Opcode opcode, protocol::Bytes& buffer, std::size_t payload_at);
// A whole client frame (FIN set, masked with mask): what a browser sends.
protocol::Bytes encode_client_frame(Opcode opcode, protocol::ByteView payload, std::array<std::uint8_t, 4> mask);
// A Close frame's payload: the code, then the reason cut (at a character) to fit a control frame.
protocol::Bytes close_payload(std::uint16_t code, std::string_view reason);
// A whole Close frame.
protocol::Bytes encode_close(std::uint16_t code, std::string_view reason);
// Codes a peer may put in a Close frame (RFC 6455 §7.4).
bool is_valid_close_code(std::uint16_t code);

struct Event {
    enum class Kind : std::uint8_t {
        Message,        // a complete data message (fragments joined)
        Ping,           // answer with a Pong carrying the same payload
        Pong,           // unsolicited or not, ignored by the server
        Close,          // the peer's Close: close_code and reason
        TooBig,         // the message being received exceeds the limit; its bytes are skipped
        ProtocolError,  // the stream is broken (reason says how); nothing more is read from it
    };
    Kind kind = Kind::Message;
    bool text = false;                // Message: it began with a Text frame
    protocol::ByteView payload;       // Message, Ping, Pong: valid until the next call to the reader
    std::uint16_t close_code = 0;     // Close
    std::string_view reason;          // Close: the peer's reason; ProtocolError: what was wrong
};

// Whose frames a reader reads: a client's must be masked, a server's must not be (RFC 6455 §5.1).
enum class Sender : std::uint8_t { Client, Server };

// Reads client frames (or, for the load generator, server frames) from whatever pieces the socket
// hands over. Memory stays bounded: data
// payload goes straight into the message being assembled (at most the limit), and only an
// incomplete header or control frame (≤ 14 + 125 bytes) is kept between reads.
class FrameReader {
public:
    explicit FrameReader(std::size_t max_message_bytes, Sender from = Sender::Client)
        : max_message_bytes_(max_message_bytes), from_(from) {}

    void set_max_message_bytes(std::size_t limit) { max_message_bytes_ = limit; }
    // Hands over received bytes; they must stay valid until next() returns nullopt.
    void feed(protocol::ByteView data) { input_ = data; }
    // The next event, or nullopt once the fed bytes are used up (or the stream is broken).
    std::optional<Event> next();

    bool failed() const { return failed_; }
    // Payload bytes thrown away because their message was too big.
    std::uint64_t skipped_bytes() const { return skipped_bytes_; }
    // Bytes held for the message being assembled (for tests of the memory bound).
    std::size_t buffered_bytes() const { return message_.size() + pending_.size(); }

private:
    bool peek(std::size_t bytes, protocol::ByteView& out);
    void consume(std::size_t bytes);
    std::optional<Event> fail(std::string_view reason);
    std::optional<Event> read_header();
    std::optional<Event> read_payload();
    void unmask_into(protocol::ByteView masked, std::uint8_t* out);

    std::size_t max_message_bytes_;
    Sender from_;
    protocol::ByteView input_;
    protocol::Bytes pending_;  // an incomplete header or control frame carried across reads
    protocol::Bytes message_;  // the data message being assembled, unmasked
    bool deliver_pending_ = false;  // message_ was handed out: clear it on the next call
    std::array<std::uint8_t, kMaxControlPayload> control_{};
    bool failed_ = false;
    std::uint64_t skipped_bytes_ = 0;

    // The frame whose payload is being read (data frames only; control frames are read whole).
    bool in_payload_ = false;
    bool frame_fin_ = false;
    std::uint64_t payload_left_ = 0;
    std::array<std::uint8_t, 4> mask_{};
    std::size_t mask_offset_ = 0;
    // The message the data frames belong to.
    bool in_message_ = false;
    bool message_text_ = false;
    bool skipping_message_ = false;
};

}  // namespace hschool::net::ws
