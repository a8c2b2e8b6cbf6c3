#include "server/hns/live/socket_handler.hpp"

#include <optional>
#include <variant>

#include "protocol/sprite_v1.hpp"
#include "server/hns/contract/limits.hpp"

namespace hschool::server::hns {

namespace sv = protocol::sprite_v1;

void SocketHandler::hold(std::shared_ptr<net::ConnectionLimiter> limiter, net::ConnectionLimiter::Slot slot) {
    limiter_ = std::move(limiter);
    slot_ = std::move(slot);
}

void SocketHandler::on_open(std::shared_ptr<net::WsConnection> connection) {
    connection_ = connection;
    connection->on_writer_caught_up([match = match_] {
        if (auto m = match.lock()) m->writer_caught_up();
    });
    MatchEvent e = make_event(MatchEvent::Kind::Attach);
    e.endpoint = endpoint_;
    e.controls = controls_;
    e.compact = compact_;
    e.peer = std::move(connection);
    post(std::move(e));
}

void SocketHandler::on_message(protocol::ByteView message, bool text) {
    if (closed_) return;
    if (text) return refuse(net::close_code::kInvalidPayload, "Sprite v1 is binary: text frames are not accepted");
    // 0x85 and 0x87 count only as a whole 1-byte message (§1.2, §2.7); bundled, they are ignored.
    if (sv::is_standalone_ready(message)) {
        if (endpoint_ == Endpoint::Player) post(make_event(MatchEvent::Kind::Ready));
        return;
    }
    if (sv::is_standalone_sprites_off(message)) return post(make_event(MatchEvent::Kind::SpritesOff));
    auto decoded = sv::decode_client(message);
    if (!decoded) return refuse(net::close_code::kInvalidPayload, sv::describe(decoded.error()));
    std::optional<std::uint8_t> last_mask;  // a message of thousands of masks counts as its last one
    for (auto& m : *decoded) {
        if (auto* t = std::get_if<sv::InputText>(&m)) {
            if (t->text.size() > kMaxInputTextBytes) return refuse(net::close_code::kMessageTooBig, "text input over 4096 bytes");
            MatchEvent e = make_event(MatchEvent::Kind::Text);
            e.text = sv::printable_text(t->text);
            e.at = SteadyClock::now();
            post(std::move(e));
        } else if (auto* in = std::get_if<sv::PlayerInput>(&m)) {
            last_mask = in->mask;
        } else if (auto* debug = std::get_if<sv::DebugSprites>(&m)) {
            if (!within_debug_allowance(debug->payload.size()))
                return refuse(net::close_code::kPolicyViolation, "debug sprites over 32 KiB per tick");
        }
        // Mouse messages are stored by the reference and never used: dropped here.
    }
    if (last_mask) {
        MatchEvent e = make_event(MatchEvent::Kind::Mask);
        e.mask = *last_mask;
        post(std::move(e));
    }
}

void SocketHandler::on_closed() {
    if (closed_.exchange(true)) return;
    slot_.release();
    post(make_event(MatchEvent::Kind::Closed));
}

bool SocketHandler::within_debug_allowance(std::size_t bytes) {
    auto match = match_.lock();
    const std::uint64_t frame = match ? match->frames_sent() : 0;
    if (frame != debug_frame_) {
        debug_frame_ = frame;
        debug_bytes_ = 0;
    }
    debug_bytes_ += bytes;
    return debug_bytes_ <= sv::kMaxDebugSpritesBytes;
}

void SocketHandler::refuse(std::uint16_t code, const std::string& reason) {
    if (auto connection = connection_.lock()) connection->close(code, reason.c_str());
}

void SocketHandler::post(MatchEvent e) {
    e.socket = socket_;
    if (auto match = match_.lock()) match->post(std::move(e));
}

}  // namespace hschool::server::hns
