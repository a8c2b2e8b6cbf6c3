#include "server/game_socket.hpp"

#include <memory>
#include <string>

#include "protocol/v1.hpp"
#include "server/access.hpp"
#include "server/arena/limits.hpp"
#include "server/game_loop.hpp"
#include "server/limits.hpp"
#include "util/overloaded.hpp"

namespace hschool::server {
namespace {

// What a connection speaks once its Hello is accepted.
net::WsProtocol protocol_of(const dispatch::Promote& promote) {
    net::WsProtocol protocol;
    protocol.tag = tag_of(promote.version);
    protocol.max_message_bytes = promote.max_inbound_bytes;
    // Arena players send an Input a tick or more: read in batches, not woken (and re-armed) per message.
    if (promote.version == WireVersion::Arena || promote.version == WireVersion::ArenaV5) protocol.polled_reads = true;
    if (promote.version == WireVersion::ArenaV5) {
        protocol.not_sent_lowat_bytes = kV5NotSentLowatBytes;  // deltas skip rather than queue in the kernel
    }
    return protocol;
}

// One /ws/game connection: before Hello it speaks nothing; the Hello picks the game.
class GameSocket final : public net::WsHandler {
public:
    GameSocket(GameLoop& loop, Metrics& metrics, SchoolRights rights) : loop_(loop), metrics_(metrics), rights_(std::move(rights)) {}

    void on_open(std::shared_ptr<net::WsConnection> connection) override {
        connection_ = std::move(connection);
        ref_ = connection_->ref();
    }

    void on_message(protocol::ByteView message, bool text) override {
        act(dispatch::on_message({version_, ref_, loop_.tick(), &rights_}, message, text));
    }

    void on_closed() override {
        if (version_ != WireVersion::None) loop_.post(cmd::Disconnect{ref_.id});
    }

private:
    void act(dispatch::Action action) {
        std::visit(Overloaded{
                       [](dispatch::Ignore&) {},
                       [&](dispatch::Reply& reply) { connection_->reply(reply.message); },
                       [&](dispatch::Post& post) {
                           if (!loop_.try_post(std::move(post.command))) busy();
                       },
                       [&](dispatch::Promote& promote) {
                           connection_->speak(protocol_of(promote));
                           version_ = promote.version;
                           if (!loop_.try_post(std::move(promote.join))) busy();
                       },
                       [&](dispatch::Reject& reject) {
                           if (reject.malformed) metrics_.decode_rejected(version_);
                           connection_->close(static_cast<std::uint16_t>(reject.code), reject.reason);
                       },
                   },
                   action);
    }

    void busy() { connection_->close(static_cast<std::uint16_t>(protocol::CloseCode::TryAgainLater), "server is busy"); }

    GameLoop& loop_;
    Metrics& metrics_;
    const SchoolRights rights_;  // v4: the schools this session may pause or speed up
    std::shared_ptr<net::WsConnection> connection_;
    net::ConnectionRef ref_;
    WireVersion version_ = WireVersion::None;  // None until Hello
};

std::optional<SchoolRights> upgrade_rights(const AccessPolicy& access, const net::WsUpgrade& upgrade) {
    return school_rights(access, net::query_param(upgrade.query, net::kOwnerTokenParam));
}

}  // namespace

net::WsEndpoint game_socket_endpoint(GameLoop& loop, Metrics& metrics, const AccessPolicy& access) {
    net::WsEndpoint endpoint;
    endpoint.check = [&access](const net::WsUpgrade& upgrade) -> std::optional<net::HttpResponse> {
        if (upgrade_rights(access, upgrade)) return std::nullopt;
        return net::problem(400, "bad-request", "Bad request",
                            "ownerToken lists at most " + std::to_string(kMaxUpgradeTokens) + " tokens of at most " +
                                std::to_string(kMaxUpgradeTokenChars) + " characters");
    };
    endpoint.accept = [&loop, &metrics, &access](const net::WsUpgrade& upgrade) -> net::WsAccept {
        return std::make_shared<GameSocket>(loop, metrics, upgrade_rights(access, upgrade).value_or(SchoolRights{}));
    };
    // Until Hello: the larger of the versions' limits, the configured budget.
    endpoint.protocol.max_message_bytes = protocol::v1::kMaxInboundFrameBytes;
    endpoint.greeting_within = std::chrono::duration_cast<std::chrono::milliseconds>(kHelloDeadline);
    endpoint.greeting_deadline_reason = "no Hello within 5 s";
    return endpoint;
}

}  // namespace hschool::server
