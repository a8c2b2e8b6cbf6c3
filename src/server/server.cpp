#include "server/server.hpp"

#include <atomic>
#include <set>

#include "content/library.hpp"
#include "server/access.hpp"
#include "server/arena/arena_service.hpp"
#include "server/game_loop.hpp"
#include "server/game_socket.hpp"
#include "server/hns/game.hpp"
#include "net/http_router.hpp"
#include "server/metrics.hpp"
#include "net/network.hpp"
#include "net/ws_endpoint.hpp"
#include "net/origin_policy.hpp"
#include "server/arena/replay_recorder.hpp"
#include "server/schools/school_follower.hpp"
#include "server/schools/schools_routes.hpp"
#include "server/schools/schools_service.hpp"
#include "net/static_files.hpp"
#include "server/schools/store_health.hpp"
#include "store/pg/pg_connection.hpp"
#include "store/school_store.hpp"
#include "store/store_worker.hpp"
#include "util/log.hpp"

namespace hschool::server {

int run_server(const ServerOptions& options) {
    std::atomic<Health> health{Health::Starting};
    Metrics metrics;

    // Fail closed: an unusable root given on purpose stops the start; a missing default serves no files.
    std::optional<std::filesystem::path> web_root;
    if (auto resolved = net::resolve_web_root(options.web_root); auto* root = std::get_if<std::filesystem::path>(&resolved)) {
        web_root = std::move(*root);
    } else if (options.web_root_given) {
        logging::error("event=startup_failed reason=\"web root '{}' is unusable: {}\"", options.web_root.string(),
                      std::get<std::string>(resolved));
        return 1;
    } else {
        logging::warn("event=web_root_unavailable path=\"{}\" reason=\"{}\" serving=none", options.web_root.string(),
                     std::get<std::string>(resolved));
    }

    // Owners mode needs the operator's token before anything listens; open mode trusts everyone.
    AccessPolicy access;
    if (options.access == AccessMode::Owners) {
        std::string error;
        auto admin = load_or_create_admin_token(options.admin_token_file, error);
        if (!admin) {
            logging::error("event=startup_failed reason=\"{}\"", error);
            return 1;
        }
        logging::info("event=admin_token path=\"{}\" created={}", options.admin_token_file.string(), admin->created);
        access = AccessPolicy(AccessMode::Owners, std::move(admin->token));
    }

    StoreHealth store_health(metrics);
    auto on_clock_write = [&store_health](const auto& outcome) { store_health.record("clock write", outcome); };
    // PostgreSQL when a URL is given (several servers share it), else the SQLite file.
    const bool shared_database = !options.database_url.empty();
    const std::string database_name = shared_database ? store::pg::redacted_url(options.database_url) : options.data_path.string();
    auto store = shared_database ? store::SchoolStore::open_postgres(options.database_url, on_clock_write)
                                 : store::SchoolStore::open(options.data_path, on_clock_write);
    if (!store) {
        logging::error("event=startup_failed reason=\"cannot open database {}: {}\"", database_name, store.error().message);
        return 1;
    }
    const auto library = content::ContentLibrary::scan(options.mods_path);
    std::string load_error;
    auto loaded = load_schools(**store, library, load_error);
    if (!load_error.empty()) {
        logging::error("event=startup_failed reason=\"cannot read schools: {}\"", load_error);
        return 1;
    }

    std::unique_ptr<ReplayRecorder> recorder;
    if (options.record_path) {
        std::string error;
        recorder = ReplayRecorder::open(*options.record_path, options.arena, error);
        if (!recorder) {
            logging::error("event=startup_failed reason=\"{}\"", error);
            return 1;
        }
    }

    ArenaService arena(options.arena, metrics, recorder.get(), options.max_players);
    SchoolsService schools(static_cast<std::uint8_t>(options.tick_rate), metrics, store->get());
    for (auto& school : loaded) schools.add(std::move(school));
    World world(arena, schools);
    GameLoop loop(options.tick_rate, world, metrics);
    store::StoreWorker store_worker;  // creates and deletes, off the network threads
    const OnSchoolsThread on_schools_thread = [&loop](std::function<void(SchoolsService&)> job) {
        loop.post(cmd::Task{[job = std::move(job)](World& owned) { job(owned.schools); }});
    };
    // Several servers on one database: this one follows the others' schools and shares its clocks.
    std::unique_ptr<SchoolFollower> follower;
    if (auto* shared = (*store)->shared()) {
        std::set<std::int32_t> known;
        for (const auto& [id, school] : schools.schools()) known.insert(id);
        follower = std::make_unique<SchoolFollower>(*shared, library, on_schools_thread, store_health, std::move(known));
    }

    // Hide-and-seek: its modes, its archive and its budgets are its own (src/server/hns/game.hpp).
    auto hns_game = hns::HnsGame::open(hns_game_options(options, access.ownership()), metrics);
    if (!hns_game) {
        logging::error("event=startup_failed reason=\"{}\"", hns_game.error);
        return 1;
    }
    hns::HnsGame& hide_and_seek = **hns_game;

    net::HttpRouter router;
    // No cross-site writes in any mode: a page elsewhere must not drive a visitor's browser into ours.
    router.set_write_guard([origins = options.network.allowed_origins](const net::HttpRequest& request) -> std::optional<net::HttpResponse> {
        if (net::origin_allowed(request.origin, request.host, origins)) return std::nullopt;
        return net::problem(403, "forbidden-origin", "Forbidden origin", "requests that change state are not accepted from this origin");
    });
    add_ops_routes(router, health, metrics, {&store_health, web_root.has_value(), access_mode_text(access.mode()), hide_and_seek.model_transport()});
    add_schools_routes(router, on_schools_thread, library, **store, store_worker, store_health, access.ownership());
    auto files = net::static_files(web_root);
    hide_and_seek.add_routes(router, files);  // before the catch-all below: the league runner probes its /client pages
    router.set_fallback(std::move(files));

    net::Network network(options.network, metrics, router);
    network.endpoints().add(kGameSocketPath, game_socket_endpoint(loop, metrics, access));
    network.endpoints().set_not_found_detail("WebSocket endpoint is /ws/game");
    hide_and_seek.add_sockets(network.endpoints());
    if (!network.listen()) return 1;
    if (auto started = hide_and_seek.start(); !started) {
        logging::error("event=startup_failed reason=\"hide-and-seek: {}\"", started.error);
        return 1;
    }
    arena.set_fanout(network.fanout());
    schools.set_fanout(network.fanout());
    if (follower) follower->start();  // takes its leases before the first step
    loop.start();
    network.start();
    health = Health::Serving;
    logging::info("event=listening address={} port={} tick_rate={} schools={} data={} mods={} web_root={} access={}",
                 options.address, network.port(), options.tick_rate, schools.schools().size(),
                 database_name, options.mods_path.string(), web_root ? web_root->string() : "none",
                 access_mode_text(access.mode()));

    network.wait_for_signal();
    health = Health::Draining;
    logging::info("event=shutdown_started");
    network.close_all_connections();
    hide_and_seek.stop();  // leagues, then matches: their sockets are already closing; nothing is archived mid-match
    // Before the loop stops, so the tasks its last job posts still run and answer; queued jobs get 503.
    store_worker.stop();
    if (follower) follower->stop();  // the other servers take this one's schools at once
    loop.stop();
    network.stop();
    schools.persist_all();  // the loop has stopped: its last clocks go to the store, flushed below
    if (auto flushed = (*store)->flush(); !flushed) logging::error("event=flush_failed error=\"{}\"", flushed.error().message);
    recorder.reset();
    logging::info("event=shutdown_complete");
    return 0;
}

}  // namespace hschool::server
