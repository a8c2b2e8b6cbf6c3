#include "server/hns/hub/socket_admission.hpp"

#include "server/hns/contract/permission.hpp"
#include "server/hns/hub/deferred_replay.hpp"
#include "server/hns/streams/budget.hpp"
#include "server/hns/streams/replay_viewer.hpp"
#include "store/hns_archive.hpp"

namespace hschool::server::hns {

namespace {

Rejection bad_query(const std::string& why) { return Rejection{400, "bad query: " + why + "\n"}; }

Rejection no_running_match(const std::string& id) {
    return Rejection{404, id.empty() ? "no match is running\n" : "no running match " + id + "\n"};
}

Rejection no_finished_replay(const std::string& id) { return Rejection{404, "no finished match " + id + "\n"}; }

}  // namespace

SocketAdmission::SocketAdmission(const HubOptions& options, const MatchRegistry& registry, store::HnsArchive* archive, HubWorker& worker,
                                 HnsMetrics& metrics, net::ThreadLauncher& launcher)
    : options_(options),
      registry_(registry),
      archive_(archive),
      worker_(worker),
      metrics_(metrics),
      replay_limiter_(options.max_replay_viewers, options.max_replay_viewers_per_address),
      replay_pool_(net::TaskPool::one_per_core(), kReplayViewerNice, "hns-replay", launcher) {}

std::variant<Rejection, std::shared_ptr<net::WsHandler>> SocketAdmission::admit(std::string_view path, std::string_view query_text,
                                                                                const std::string& address) {
    auto query = parse_query(query_text);
    if (!query) return bad_query(query.error);
    const std::string id = match_of(*query, registry_.default_id());
    if (path == "/replay") return admit_replay(*query, id, address);
    auto match = registry_.find_running(id);
    if (!match) return no_running_match(id);
    if (path == "/player") return match->admit(Endpoint::Player, *query);
    if (path == "/reward") return match->admit(Endpoint::Reward, *query, true, address);
    // /global and /admin: speed keys count only from a socket that may change the match.
    const std::string owner_token = query->get(kOwnerTokenParam);
    const Permission may = permission_of(options_.access, owner_token, match->owner_hash());
    if (!owner_token.empty() && may != Permission::Granted) return Rejection{403, kOwnerTokenRefusedText};
    return match->admit(Endpoint::Global, *query, may == Permission::Granted, address);
}

std::variant<Rejection, std::shared_ptr<net::WsHandler>> SocketAdmission::admit_replay(const QueryParams& query, const std::string& id,
                                                                                       const std::string& address) {
    if (auto refused = admit_viewer(query); auto* r = std::get_if<Rejection>(&refused)) return *r;
    const auto stream = viewer_stream(query);
    if (auto* r = std::get_if<Rejection>(&stream)) return *r;
    const bool compact = std::get<ViewerStream>(stream) == ViewerStream::Compact;
    auto source = replay_mode() ? loaded_replay(query) : archived_replay(query, id);
    if (auto* r = std::get_if<Rejection>(&source)) return *r;
    net::ConnectionLimiter::Slot slot;
    static constexpr BudgetAnswers kReplayViewers{"replay_viewers", "too many replay viewers\n", "replay_viewers_per_address",
                                                  "too many replay viewers from this address\n", kBudgetRetryAfterSeconds};
    if (auto refused = refusal_of(replay_limiter_.try_admit(address, slot), kReplayViewers, metrics_)) return *refused;
    // The read (up to 64 MiB) and the parse happen on the worker; viewers of one replay share one parse.
    auto open = [this, read = std::get<ReplayRead>(std::move(source)), compact]() -> std::variant<Rejection, std::shared_ptr<net::WsHandler>> {
        auto bytes = read();
        if (auto* r = std::get_if<Rejection>(&bytes)) return *r;
        return open_replay_viewer(std::get<std::string>(std::move(bytes)), metrics_, replay_viewers_, replay_pool_, compact);
    };
    return std::shared_ptr<net::WsHandler>(std::make_shared<DeferredReplay>(
        std::move(open), [this](std::function<void()> job) { return worker_.submit(std::move(job)); }, std::move(slot)));
}

std::variant<Rejection, SocketAdmission::ReplayRead> SocketAdmission::archived_replay(const QueryParams& query, const std::string& id) {
    if (!query.has("match")) return Rejection{400, "missing match\n"};
    if (!archive_) return Rejection{404, "replay is not available\n"};
    auto file = archive_->replay_file(id);  // the row and the file's size: the file is read later
    if (!file) return Rejection{503, "replay could not be read\n"};
    if (!*file) return no_finished_replay(id);
    return ReplayRead([archive = archive_, id]() -> std::variant<Rejection, std::string> {
        auto bytes = archive->replay(id);
        if (!bytes) return Rejection{503, "replay could not be read\n"};
        if (!*bytes) return no_finished_replay(id);
        return std::move(**bytes);
    });
}

std::variant<Rejection, SocketAdmission::ReplayRead> SocketAdmission::loaded_replay(const QueryParams& query) const {
    // Spec §2.1: ?uri= selects the replay; here only the one loaded at start can be selected.
    if (query.has("uri")) {
        const std::string uri = query.get("uri");
        if (uri.empty()) return Rejection{400, kMissingReplayUriText};
        if (uri != options_.replay_uri) return Rejection{404, kUnreadableReplayUriText};
    }
    return ReplayRead([bytes = options_.replay_bytes]() -> std::variant<Rejection, std::string> { return *bytes; });
}

std::optional<Rejection> SocketAdmission::check_player_page(std::string_view query_text) {
    auto query = parse_query(query_text);
    if (!query) return bad_query(query.error);
    const std::string id = page_match(query_text);
    auto match = registry_.find_running(id);
    if (!match) return no_running_match(id);
    return match->check_player(*query);
}

std::string SocketAdmission::page_match(std::string_view query_text) const {
    auto query = parse_query(query_text);
    const std::string default_id = registry_.default_id();
    return query ? match_of(*query, default_id) : default_id;
}

}  // namespace hschool::server::hns
