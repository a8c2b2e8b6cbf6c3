#include "server/server.hpp"

#include <spdlog/spdlog.h>

#include <atomic>

#include "content/library.hpp"
#include "server/arena_service.hpp"
#include "server/game_loop.hpp"
#include "server/http_router.hpp"
#include "server/metrics.hpp"
#include "server/network.hpp"
#include "server/ops_routes.hpp"
#include "server/replay_recorder.hpp"
#include "server/schools_routes.hpp"
#include "server/schools_service.hpp"
#include "server/static_files.hpp"
#include "server/world.hpp"
#include "store/school_store.hpp"

namespace hschool::server {

int run_server(const ServerOptions& options) {
    std::atomic<Health> health{Health::Starting};
    Metrics metrics;

    auto store = store::SchoolStore::open(options.data_path);
    if (!store) {
        spdlog::error("event=startup_failed reason=\"cannot open database {}: {}\"", options.data_path.string(),
                      store.error().message);
        return 1;
    }
    const auto library = content::ContentLibrary::scan(options.mods_path);
    std::string load_error;
    auto loaded = load_schools(**store, library, load_error);
    if (!load_error.empty()) {
        spdlog::error("event=startup_failed reason=\"cannot read schools: {}\"", load_error);
        return 1;
    }

    std::unique_ptr<ReplayRecorder> recorder;
    if (options.record_path) {
        std::string error;
        recorder = ReplayRecorder::open(*options.record_path, options.arena, error);
        if (!recorder) {
            spdlog::error("event=startup_failed reason=\"{}\"", error);
            return 1;
        }
    }

    ArenaService arena(options.arena, metrics, recorder.get());
    SchoolsService schools(static_cast<std::uint8_t>(options.tick_rate), metrics, store->get());
    for (auto& school : loaded) schools.add(std::move(school));
    World world(arena, schools);
    GameLoop loop(options.tick_rate, world, metrics);

    HttpRouter router;
    add_ops_routes(router, health, metrics);
    add_schools_routes(router, loop, library, **store);
    router.set_fallback(static_files(options.web_root));

    Network network({options.address, options.port, options.io_threads}, loop, metrics, router);
    if (!network.listen()) return 1;
    arena.set_fanout(network.fanout());
    schools.set_fanout(network.fanout());
    loop.start();
    network.start();
    health = Health::Serving;
    spdlog::info("event=listening address={} port={} tick_rate={} schools={} data={} mods={} web_root={}",
                 options.address, network.port(), options.tick_rate, schools.schools().size(),
                 options.data_path.string(), options.mods_path.string(), options.web_root.string());

    network.wait_for_signal();
    health = Health::Draining;
    spdlog::info("event=shutdown_started");
    network.close_all_connections();
    loop.stop();
    network.stop();
    schools.persist_all();  // the loop has stopped: its last clocks go to the store, flushed below
    if (auto flushed = (*store)->flush(); !flushed) spdlog::error("event=flush_failed error=\"{}\"", flushed.error().message);
    recorder.reset();
    spdlog::info("event=shutdown_complete");
    return 0;
}

}  // namespace hschool::server
