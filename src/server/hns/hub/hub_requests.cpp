// Which match a request means, and whether it may have it: the upgrades of /player, /global,
// /admin, /reward and /replay (admitted or refused with the reference's texts before the 101),
// the /client pages' checks, and the plain-text controls.
#include <spdlog/spdlog.h>

#include "server/hns/streams/budget.hpp"
#include "server/hns/hub/hub.hpp"
#include "server/hns/contract/limits.hpp"
#include "server/hns/streams/replay_viewer.hpp"
#include "store/hns_archive.hpp"

namespace hschool::server::hns {

namespace {

ControlDecision plain_decision(int status, std::string body) {
    ControlDecision decision;
    decision.status = status;
    decision.body = std::move(body);
    return decision;
}

// The match a socket or control means: ?match=ID, else the default match.
std::string match_of(const QueryParams& query, const std::string& default_id) {
    return query.has("match") ? query.get("match") : default_id;
}

}  // namespace

namespace {

// A /replay viewer whose file is read and re-stepped on the hub's worker, not on the network thread
// that upgraded it (a replay is up to 64 MiB); it holds its place in the viewer budget for as long
// as its socket lives. Messages sent before the viewer is ready wait for it, as many as the viewer's
// own key queue holds; more close the socket as a key flood does.
class DeferredReplaySink final : public net::WsHandler, public std::enable_shared_from_this<DeferredReplaySink> {
public:
    using Open = std::function<std::variant<Rejection, std::shared_ptr<net::WsHandler>>()>;
    using Submit = std::function<bool(std::function<void()>)>;
    DeferredReplaySink(Open open, Submit submit, net::ConnectionLimiter::Slot slot)
        : open_(std::move(open)), submit_(std::move(submit)), slot_(std::move(slot)) {}

    void on_open(std::shared_ptr<net::WsConnection> peer) override {
        {
            std::lock_guard lock(mutex_);
            peer_ = peer;
        }
        if (!submit_([self = weak_from_this()] {
                if (auto alive = self.lock()) alive->load();
            }))
            peer->close(net::close_code::kTryAgainLater, "the server is busy; try again shortly");
    }
    void on_message(protocol::ByteView message, bool text) override {
        std::shared_ptr<net::WsHandler> inner;
        {
            std::lock_guard lock(mutex_);
            inner = inner_;
            if (!inner) {
                if (early_.size() >= kMaxQueuedReplayKeys) {
                    if (peer_) peer_->close(net::close_code::kPolicyViolation, "too many replay keys");
                    return;
                }
                early_.push_back({protocol::Bytes(message.begin(), message.end()), text});
                return;
            }
        }
        inner->on_message(message, text);
    }
    void on_closed() override {
        std::shared_ptr<net::WsHandler> inner;
        {
            std::lock_guard lock(mutex_);
            closed_ = true;
            inner = std::move(inner_);
        }
        if (inner) inner->on_closed();
        slot_.release();
    }

private:
    void load() {
        auto opened = open_();  // the file and the stepper, on the worker
        std::lock_guard lock(mutex_);
        if (closed_ || !peer_) return;
        if (auto* refused = std::get_if<Rejection>(&opened)) {
            std::string reason = refused->body;
            if (!reason.empty() && reason.back() == '\n') reason.pop_back();
            peer_->close(net::close_code::kInternalError, reason.c_str());
            return;
        }
        inner_ = std::get<std::shared_ptr<net::WsHandler>>(std::move(opened));
        inner_->on_open(peer_);  // under the lock: a close that comes now reaches the viewer after it opened
        for (const auto& [bytes, text] : early_) inner_->on_message(protocol::ByteView(bytes.data(), bytes.size()), text);
        early_.clear();
    }

    const Open open_;
    const Submit submit_;
    net::ConnectionLimiter::Slot slot_;  // the network thread only
    std::mutex mutex_;
    std::shared_ptr<net::WsConnection> peer_;
    std::shared_ptr<net::WsHandler> inner_;
    std::vector<std::pair<protocol::Bytes, bool>> early_;  // messages before the viewer was ready
    bool closed_ = false;
};

}  // namespace

std::variant<Rejection, std::shared_ptr<net::WsHandler>> HnsHub::admit(std::string_view path, std::string_view query_text,
                                                                 const std::string& address) {
    auto query = parse_query(query_text);
    if (!query) return Rejection{400, "bad query: " + query.error + "\n"};
    std::string default_id;
    {
        std::lock_guard lock(mutex_);
        default_id = default_id_;
    }
    const std::string id = match_of(*query, default_id);
    if (path == "/replay" && replay_mode()) return admit_loaded_replay(*query, address);
    if (path == "/replay") {
        if (auto refused = admit_viewer(*query); auto* r = std::get_if<Rejection>(&refused)) return *r;
        const auto stream = viewer_stream(*query);
        if (auto* r = std::get_if<Rejection>(&stream)) return *r;
        const bool compact = std::get<ViewerStream>(stream) == ViewerStream::Compact;
        if (!query->has("match")) return Rejection{400, "missing match\n"};
        if (!archive_) return Rejection{404, "replay is not available\n"};
        auto file = archive_->replay_file(id);  // the row and the file's size: the file is read later
        if (!file) return Rejection{503, "replay could not be read\n"};
        if (!*file) return Rejection{404, "no finished match " + id + "\n"};
        net::ConnectionLimiter::Slot slot;
        static constexpr BudgetAnswers kReplayViewers{"replay_viewers", "too many replay viewers\n", "replay_viewers_per_address",
                                                      "too many replay viewers from this address\n", kBudgetRetryAfterSeconds};
        if (auto refused = refusal_of(replay_limiter_.try_admit(address, slot), kReplayViewers, metrics_)) return *refused;
        auto open = [this, id, compact]() -> std::variant<Rejection, std::shared_ptr<net::WsHandler>> {
            auto bytes = archive_->replay(id);
            if (!bytes) return Rejection{503, "replay could not be read\n"};
            if (!*bytes) return Rejection{404, "no finished match " + id + "\n"};
            return open_replay_viewer(std::move(**bytes), metrics_, replay_viewers_, replay_pool_, compact);
        };
        return std::shared_ptr<net::WsHandler>(std::make_shared<DeferredReplaySink>(
            std::move(open), [this](std::function<void()> job) { return submit(std::move(job)); }, std::move(slot)));
    }
    auto match = find(id);
    if (!match || match->ended()) return Rejection{404, id.empty() ? "no match is running\n" : "no running match " + id + "\n"};
    if (path == "/player") return match->admit(Endpoint::Player, *query);
    if (path == "/reward") return match->admit(Endpoint::Reward, *query, true, address);
    // /global and /admin: speed keys count only from a socket that may change the match.
    const std::string owner_token = query->get(kOwnerTokenParam);
    const Permission may = permission(owner_token, match->owner_hash());
    if (!owner_token.empty() && may != Permission::Granted) return Rejection{403, kOwnerTokenRefusedText};
    return match->admit(Endpoint::Global, *query, may == Permission::Granted, address);
}

std::variant<Rejection, std::shared_ptr<net::WsHandler>> HnsHub::admit_loaded_replay(const QueryParams& query, const std::string& address) {
    if (auto refused = admit_viewer(query); auto* r = std::get_if<Rejection>(&refused)) return *r;
    const auto stream = viewer_stream(query);
    if (auto* r = std::get_if<Rejection>(&stream)) return *r;
    const bool compact = std::get<ViewerStream>(stream) == ViewerStream::Compact;
    // Spec §2.1: ?uri= selects the replay; here only the one loaded at start can be selected.
    if (query.has("uri")) {
        const std::string uri = query.get("uri");
        if (uri.empty()) return Rejection{400, kMissingReplayUriText};
        if (uri != options_.replay_uri) return Rejection{404, kUnreadableReplayUriText};
    }
    net::ConnectionLimiter::Slot slot;
    static constexpr BudgetAnswers kReplayViewers{"replay_viewers", "too many replay viewers\n", "replay_viewers_per_address",
                                                  "too many replay viewers from this address\n", kBudgetRetryAfterSeconds};
    if (auto refused = refusal_of(replay_limiter_.try_admit(address, slot), kReplayViewers, metrics_)) return *refused;
    // The copy (up to 64 MiB) and the parse happen on the worker; viewers of it share one parse.
    auto open = [this, bytes = options_.replay_bytes, compact]() -> std::variant<Rejection, std::shared_ptr<net::WsHandler>> {
        return open_replay_viewer(*bytes, metrics_, replay_viewers_, replay_pool_, compact);
    };
    return std::shared_ptr<net::WsHandler>(std::make_shared<DeferredReplaySink>(
        std::move(open), [this](std::function<void()> job) { return submit(std::move(job)); }, std::move(slot)));
}

std::optional<Rejection> HnsHub::check_player_page(std::string_view query_text) {
    auto query = parse_query(query_text);
    if (!query) return Rejection{400, "bad query: " + query.error + "\n"};
    const std::string id = page_match(query_text);
    auto match = find(id);
    if (!match || match->ended()) return Rejection{404, id.empty() ? "no match is running\n" : "no running match " + id + "\n"};
    return match->check_player(*query);
}

std::string HnsHub::page_match(std::string_view query_text) {
    auto query = parse_query(query_text);
    std::lock_guard lock(mutex_);
    return query ? match_of(*query, default_id_) : default_id_;
}

ControlDecision HnsHub::control(ControlRoute route, std::string_view method, std::string_view query_text,
                                std::string_view credential) {
    auto query = parse_query(query_text);
    if (!query) return plain_decision(400, "bad query: " + query.error + "\n");
    std::string default_id;
    {
        std::lock_guard lock(mutex_);
        default_id = default_id_;
    }
    auto match = find(match_of(*query, default_id));
    const bool live = match && !match->ended();
    ControlState state;
    state.replay_mode = replay_mode();  // 409 for every control of a replay server
    ControlDecision decision = decide_control(route, method, *query, state);
    if (!decision.queue_restart && decision.kick_identity.empty()) return decision;  // OPTIONS, a missing identity, other methods
    // Owners mode: a stranger learns nothing, not even whether the match runs.
    if (const Permission missing = permission(credential, ""); missing == Permission::Missing) {
        ControlDecision refused;
        refused.status = 401;
        refused.refused = missing;
        return refused;
    }
    if (!live) return plain_decision(404, "no running match\n");
    if (const Permission may = permission(credential, match->owner_hash()); may != Permission::Granted) {
        ControlDecision refused;
        refused.status = may == Permission::Missing ? 401 : 403;
        refused.refused = may;
        return refused;
    }
    return match->control(route, method, *query);
}

}  // namespace hschool::server::hns
