#include "server/hns/dropin_mode.hpp"

#include "server/hns/contract/episode_events.hpp"
#include "server/hns/contract/limits.hpp"
#include "sim/hns/replay.hpp"
#include "sim/hns/verify.hpp"
#include "util/log.hpp"

#include <boost/json.hpp>

#include <atomic>
#include <csignal>
#include <fstream>
#include <sstream>
#include <thread>

namespace hschool::server::hns {

namespace {

inline constexpr std::uintmax_t kMaxDropInConfigBytes = 1024 * 1024;  // a config is a few hundred bytes

// Temp file, then rename: a runner never reads half a file.
bool write_file(const std::filesystem::path& path, const std::string& bytes) {
    if (path.empty()) return true;
    const auto temp = path.string() + ".tmp";
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        if (!out.write(bytes.data(), static_cast<std::streamsize>(bytes.size())) || !out.flush()) return false;
    }
    std::error_code ec;
    std::filesystem::rename(temp, path, ec);
    if (ec) logging::error("event=dropin_write_failed path=\"{}\" error=\"{}\"", path.string(), ec.message());
    return !ec;
}

}  // namespace

Expected<sim::hns::GameConfig> dropin_config(const DropInEnv& env) {
    using R = Expected<sim::hns::GameConfig>;
    std::error_code ec;
    const auto size = std::filesystem::file_size(env.config, ec);
    if (ec) return R::fail("COGAME_CONFIG_URI: cannot read " + env.config.string() + ": " + ec.message());
    if (size > kMaxDropInConfigBytes) return R::fail("COGAME_CONFIG_URI: the config is over 1 MiB");
    std::ifstream in(env.config, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    CreateRequest request;
    request.config_json = text.str();
    boost::json::error_code json_ec;
    const auto parsed = boost::json::parse(request.config_json, json_ec);
    if (json_ec || !parsed.is_object()) return R::fail("COGAME_CONFIG_URI: the config is not a JSON object");
    auto built = build_config(request);
    if (auto* e = std::get_if<HubError>(&built)) return R::fail("COGAME_CONFIG_URI: " + e->detail);
    return R::ok(std::get<sim::hns::GameConfig>(std::move(built)));
}

Expected<std::shared_ptr<const std::string>> load_verified_replay(const std::filesystem::path& path) {
    using R = Expected<std::shared_ptr<const std::string>>;
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) return R::fail("COGAME_LOAD_REPLAY_URI: cannot read " + path.string() + ": " + ec.message());
    if (size > kMaxLiveReplayBytes) return R::fail("COGAME_LOAD_REPLAY_URI: the replay is over " + std::to_string(kMaxLiveReplayBytes >> 20) + " MiB");
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in.good() && !in.eof()) return R::fail("COGAME_LOAD_REPLAY_URI: cannot read " + path.string());
    auto bytes = std::make_shared<const std::string>(text.str());
    const auto data = sim::hns::parse_replay(*bytes);
    if (!data) return R::fail("COGAME_LOAD_REPLAY_URI: not a hide-and-seek replay: " + data.error);
    const auto report = sim::hns::verify_replay(*data);
    if (!report.ok) return R::fail("COGAME_LOAD_REPLAY_URI: the replay does not verify: " + report.message());
    logging::info("event=replay_loaded path=\"{}\" bytes={} ticks={} hashes_checked={}", path.string(), bytes->size(), report.ticks,
                 report.checked);
    return R::ok(std::move(bytes));
}

void arm_dropin(HnsHub& hub, const DropInEnv& env) {
    hub.supervisor().on_player_failure_hook([path = env.player_failure](int slot, const std::string& message) {
        boost::json::object report{{"failed_policy_index", slot}, {"message", message}};
        write_file(path, boost::json::serialize(report));
    });
    // Only the league's own match writes the runner's files, and only once.
    auto written = std::make_shared<std::atomic<bool>>(false);
    hub.supervisor().on_finished([env, &hub, written](const std::string& id, const FinishedMatch& finished) {
        if (id != hub.default_match_id() || written->exchange(true)) {
            logging::warn("event=dropin_artifacts_refused id={}", id);
            return;
        }
        bool ok = write_file(env.results, finished.results) && write_file(env.save_replay, finished.replay);
        if (!env.events.empty()) {
            // Re-stepped from the replay just written: the live match never paid for the events.
            auto events = episode_events_jsonl(finished.replay);
            if (!events) logging::error("event=dropin_events_failed error=\"{}\"", events.error);
            ok = events && write_file(env.events, *events) && ok;
        }
        ok = write_file(env.metrics, finished.metrics + "\n") && ok;
        logging::info("event=dropin_match_over id={} artifacts={} linger_ms={}", id, ok ? "written" : "failed", env.linger.count());
        // The runner reads the files while HTTP still answers, then the process leaves on its own.
        std::thread([linger = env.linger] {
            std::this_thread::sleep_for(linger);
            std::raise(SIGTERM);
        }).detach();
    });
}

}  // namespace hschool::server::hns
