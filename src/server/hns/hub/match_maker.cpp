#include "server/hns/hub/match_maker.hpp"

#include "server/hns/contract/limits.hpp"
#include "sim/hns/room_files.hpp"
#include "util/log.hpp"
#include "util/wall_clock.hpp"

namespace hschool::server::hns {

namespace sh = sim::hns;

std::variant<sh::GameConfig, HubError> build_config(const CreateRequest& request) {
    sh::GameConfig config;
    if (request.variant != "default") {
        auto variant = sh::variant_config(request.variant);
        if (!variant) return HubError{400, "invalid-field", "variant: unknown " + request.variant + " (default, warren, long-hall, certification)"};
        config = *variant;
    }
    if (!request.config_json.empty()) {
        auto applied = sh::apply_config_json(config, request.config_json);
        if (!applied) return HubError{400, "invalid-config", "config." + applied.error};
        config = *applied;
    }
    if (const std::string invalid = sh::validate_config(config); !invalid.empty())
        return HubError{400, "invalid-config", "config." + invalid};
    if (config.seed == sh::kUnpinnedSeed) config.seed = draw_seed();  // §2.9: an unpinned seed is drawn before the room is chosen
    auto resolved = sh::resolve_room_spec(config);
    if (!resolved) return HubError{400, "invalid-config", "config.roomPool: " + resolved.error};
    return *resolved;
}

MatchMaker::MatchMaker(const HubOptions& options, MatchRegistry& registry, HubWorker& worker, MatchListener& listener, HnsMetrics& metrics,
                       net::ThreadLauncher& launcher)
    : options_(options), registry_(registry), worker_(worker), listener_(listener), metrics_(metrics), launcher_(launcher) {
    if (options_.match_threads > 0)
        pool_ = std::make_unique<net::TaskPool>(options_.match_threads, kMatchNice, "hns-pool", launcher_);
}

Expected<std::shared_ptr<LiveMatch>> MatchMaker::launch(const std::string& variant, sh::GameConfig config, int bots, bool is_default,
                                                        std::string owner_hash, std::string address) {
    MatchSetup setup;
    setup.id = registry_.new_match_id();
    setup.variant = variant;
    setup.is_default = is_default;
    setup.config = std::move(config);
    setup.bots = bots;
    setup.owner_hash = std::move(owner_hash);
    setup.creator_address = std::move(address);
    setup.max_viewers = options_.max_viewers_per_match;
    setup.max_viewers_per_address = options_.max_viewers_per_address_per_match;
    setup.max_ticks_per_second = options_.max_ticks_per_second;
    setup.test_frame_delay = options_.test_frame_delay;
    setup.start_ms = static_cast<std::uint64_t>(util::unix_ms());
    auto opened = LiveMatch::open(std::move(setup), listener_, metrics_);
    if (!opened) return opened;
    std::shared_ptr<LiveMatch> match = *opened;
    if (!registry_.add(match)) return Expected<std::shared_ptr<LiveMatch>>::fail("the server is stopping");
    match->start(launcher_, pool_.get());
    logging::info("event=hns_match_started id={} variant={} default={} bots={}", match->id(), variant, is_default, bots);
    return opened;
}

Expected<Done> MatchMaker::start_default() {
    if (!options_.default_match) return Expected<Done>::ok({});
    sh::GameConfig config;
    if (options_.default_config) {
        config = *options_.default_config;
    } else {
        auto built = build_config(CreateRequest{options_.default_variant, "", 0});
        if (auto* e = std::get_if<HubError>(&built)) return Expected<Done>::fail(e->detail);
        config = std::get<sh::GameConfig>(built);
    }
    auto launched = launch(options_.default_config ? "custom" : options_.default_variant, std::move(config), 0, true, "", "");
    if (!launched) return Expected<Done>::fail(launched.error);
    return Expected<Done>::ok({});
}

void MatchMaker::renew_default() {
    auto built = build_config(CreateRequest{options_.default_variant, "", 0});
    auto* config = std::get_if<sh::GameConfig>(&built);
    if (!config) return;
    if (auto launched = launch(options_.default_variant, std::move(*config), 0, true, "", ""); !launched)
        logging::error("event=hns_default_match_failed error=\"{}\"", launched.error);
}

std::optional<HubError> MatchMaker::over_address_budget(const std::string& address) const {
    if (options_.max_matches_per_address == 0 || address.empty()) return std::nullopt;
    const std::size_t mine = registry_.running_from(address);
    if (mine < options_.max_matches_per_address) return std::nullopt;
    metrics_.refused("matches_per_address");
    return HubError{429, "too-many-matches-per-address",
                    "this address already runs " + std::to_string(mine) + " matches; delete one or wait for one to finish",
                    kBudgetRetryAfterSeconds};
}

void MatchMaker::create(CreateRequest request, std::string owner_hash, std::string address, CreateDone done) {
    if (options_.league_only || options_.replay_mode()) return done(create_now(request));
    if (auto over = over_address_budget(address)) return done(std::move(*over));
    const bool queued = worker_.submit([this, request = std::move(request), owner_hash = std::move(owner_hash), address = std::move(address),
                                        done]() mutable { done(create_now(request, std::move(owner_hash), address)); });
    if (!queued) done(HubError{503, "hub-busy", "too many matches are being created right now; try again shortly", 1});
}

std::variant<MatchView, HubError> MatchMaker::create_now(const CreateRequest& request, std::string owner_hash, const std::string& address) {
    if (options_.replay_mode())
        return HubError{409, "replay-mode", "this server plays back one replay (replay mode); no match can be created"};
    if (options_.league_only)
        return HubError{409, "league-match-only", "this server runs the league's match only (drop-in mode); no other match can be created"};
    if (registry_.closed()) return HubError{503, "stopping", "the server is stopping", 1};
    auto built = build_config(request);
    if (auto* e = std::get_if<HubError>(&built)) return *e;
    if (registry_.running() >= options_.max_matches)
        return HubError{409, "too-many-matches", "at most " + std::to_string(options_.max_matches) + " matches run at once"};
    if (auto over = over_address_budget(address)) return *over;  // again: creates from one address may have raced
    auto launched = launch(request.config_json.empty() ? request.variant : "custom", std::move(std::get<sh::GameConfig>(built)),
                           request.bots, false, std::move(owner_hash), address);
    if (!launched) return HubError{400, "invalid-config", launched.error};
    return (*launched)->view();
}

}  // namespace hschool::server::hns
