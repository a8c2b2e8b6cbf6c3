// The hide-and-seek load's modes (hns_load.hpp): each makes its matches through the REST
// (hns_rest), drives its sockets (hns_sockets) and reports what it saw (hns_report).
#include "hns_load.hpp"

#include <array>
#include <boost/json.hpp>
#include <chrono>
#include <string>
#include <vector>

#include "hns_report.hpp"
#include "hns_rest.hpp"
#include "hns_sockets.hpp"
#include "load_plan.hpp"
#include "sim/hns/constants.hpp"

namespace hschool::load {

namespace json = boost::json;
using SteadyClock = std::chrono::steady_clock;

namespace {

constexpr double kSpectatorSettleSeconds = 1.0;  // the first /global frame (the map, ~1.45 MB) stays out of the window
constexpr auto kPlayOutLimit = std::chrono::seconds(120);        // replay: the long match must end by then
// replay: about 4,000 ticks (one certification game with a 40-turn hunt), so a 'b' that re-stepped
// from tick 0 would cost ~4,000 steps.
constexpr const char* kLongReplayConfig = R"({"huntTurns":40,"maxGames":1})";
// watch: each speed's match is measured after this warm-up (its keyframe) for this long; a default
// match at 16 ticks a frame lasts about seven seconds.
constexpr double kSpeedWarmupSeconds = 1.5;
constexpr double kSpeedWindowSeconds = 4.0;
struct SpeedKey {
    const char* key;  // the 0x81 text that picks it (spec §2.8)
    int ticks_per_frame;
};
constexpr std::array<SpeedKey, 5> kSpeedKeys{{{"1", 1}, {"2", 2}, {"4", 4}, {"8", 8}, {"6", 16}}};

// The match made, its id in o["match"]; or "" with why not in o["error"].
std::string made(const Expected<std::string, std::string>& created, json::object& o) {
    if (!created) {
        o["error"] = created.error();
        return "";
    }
    o["match"] = *created;
    return *created;
}

// A match with six server bots.
std::string bot_match(const HnsPlan& plan, const std::string& variant, json::object& o) {
    return made(create_match(plan, variant, sim::hns::kSeats), o);
}

// ---- the modes ----

json::object run_seats(const HnsPlan& plan) {
    const std::string variant = plan.variant.empty() ? "default" : plan.variant;
    json::object o = base_object(plan, variant);
    o["matches"] = plan.matches;
    o["answer_ready"] = plan.answer_ready;
    o["threads"] = plan.threads;
    const Probe before = probe(plan);
    if (before.server) o["server_rss_before_mib"] = static_cast<double>(before.server->rss_kib) / 1024.0;

    std::vector<std::string> ids;
    const auto create_start = now_us();
    for (int m = 0; m < plan.matches; ++m) {
        auto id = create_match(plan, variant, 0);
        if (!id) {
            o["error"] = id.error();
            o["matches_created"] = ids.size();
            return o;
        }
        ids.push_back(std::move(*id));
    }
    o["create_s"] = seconds_between(create_start, now_us());

    HnsSockets driver(plan, plan.threads, plan.answer_ready);
    for (std::size_t m = 0; m < ids.size(); ++m) driver.add_group(m, seat_targets(ids[m]));
    const auto ramp_start = now_us();
    driver.start();
    if (!driver.wait_ramp()) o["error"] = "ramp did not finish";
    o["ramp_s"] = seconds_between(ramp_start, now_us());
    sleep_seconds(plan.warmup_seconds);

    std::vector<MatchState> start_states;
    for (const auto& id : ids) start_states.push_back(match_state(plan, id));
    const Probe a = probe(plan);
    driver.set_measuring(true);
    sleep_seconds(plan.seconds);
    driver.set_measuring(false);
    const Probe b = probe(plan);
    std::vector<double> tick_rates;
    json::object phases;
    for (std::size_t m = 0; m < ids.size(); ++m) {
        const auto end = match_state(plan, ids[m]);
        if (start_states[m].tick >= 0 && end.tick >= 0)
            tick_rates.push_back(static_cast<double>(end.tick - start_states[m].tick) / seconds_between(a.at_us, b.at_us));
        auto& c = phases[end.phase.empty() ? "?" : end.phase];
        c = c.is_int64() ? c.as_int64() + 1 : 1;
    }
    const int ended_during_run = driver.ended();
    driver.stop();
    const auto seats = driver.sockets();
    const double window = seconds_between(a.at_us, b.at_us);
    put_sockets(o, seats);
    o["ended_before_stop"] = ended_during_run;
    put_frames(o, seats, window);
    put_cpu(o, "", a, b);
    std::sort(tick_rates.begin(), tick_rates.end());
    double total_ticks = 0;
    for (double r : tick_rates) total_ticks += r;
    o["match_ticks_per_s_p50"] = sorted_percentile(tick_rates, 0.5);
    o["match_ticks_per_s_min"] = tick_rates.empty() ? 0.0 : tick_rates.front();
    o["ticks_per_s_all_matches"] = total_ticks;
    o["phases_at_end"] = phases;
    for (const auto& id : ids) delete_match(plan, id);
    return o;
}

json::object run_spectate(const HnsPlan& plan) {
    const std::string variant = plan.variant.empty() ? "default" : plan.variant;
    json::object o = base_object(plan, variant);
    o["spectators"] = plan.spectators;
    o["stream"] = plan.stream.empty() ? "sprite" : plan.stream;
    const auto id = bot_match(plan, variant, o);
    if (id.empty()) return o;
    sleep_seconds(plan.warmup_seconds);

    // Window 1: the match alone.
    auto s0 = match_state(plan, id);
    const Probe a = probe(plan);
    sleep_seconds(plan.seconds);
    const Probe b = probe(plan);
    auto s1 = match_state(plan, id);
    json::object alone;
    put_cpu(alone, "", a, b);
    if (s0.tick >= 0 && s1.tick >= 0) alone["match_ticks_per_s"] = static_cast<double>(s1.tick - s0.tick) / seconds_between(a.at_us, b.at_us);
    alone["phase_at_end"] = s1.phase;
    o["without_spectator"] = alone;

    // Window 2: with the spectators (after their first, full frame).
    HnsSockets driver(plan, plan.threads, false);
    const std::string query = plan.stream.empty() ? "" : "&stream=" + plan.stream;
    std::vector<std::string> targets(static_cast<std::size_t>(plan.spectators), "/global?match=" + id + query);
    driver.add_group(0, targets);
    driver.start();
    if (!driver.wait_ramp()) o["error"] = "ramp did not finish";
    sleep_seconds(kSpectatorSettleSeconds);
    s0 = match_state(plan, id);
    const Probe c = probe(plan);
    driver.set_measuring(true);
    sleep_seconds(plan.seconds);
    driver.set_measuring(false);
    const Probe d = probe(plan);
    s1 = match_state(plan, id);
    driver.stop();
    const auto seats = driver.sockets();
    json::object with;
    put_sockets(with, seats);
    put_frames(with, seats, seconds_between(c.at_us, d.at_us));
    put_cpu(with, "", c, d);
    if (s0.tick >= 0 && s1.tick >= 0) with["match_ticks_per_s"] = static_cast<double>(s1.tick - s0.tick) / seconds_between(c.at_us, d.at_us);
    with["phase_at_end"] = s1.phase;
    std::uint64_t first = 0;
    for (const auto* s : seats) first = std::max(first, s->first_message_bytes);
    with["first_message_bytes"] = first;
    o["with_spectators"] = with;
    if (alone.contains("server_cpu_pct") && with.contains("server_cpu_pct"))
        o["spectator_server_cpu_pct"] = (with.at("server_cpu_pct").as_double() - alone.at("server_cpu_pct").as_double()) /
                                        std::max(1, plan.spectators);
    delete_match(plan, id);
    return o;
}

json::object run_fast(const HnsPlan& plan) {
    const std::string variant = plan.variant.empty() ? "certification" : plan.variant;
    json::object o = base_object(plan, variant);
    const Probe a = probe(plan);
    const std::string id = made(create_match(plan, variant, 0), o);
    if (id.empty()) return o;
    HnsSockets driver(plan, 1, true);
    driver.add_group(0, seat_targets(id));
    driver.start();
    const auto deadline = SteadyClock::now() + std::chrono::duration_cast<SteadyClock::duration>(std::chrono::duration<double>(plan.timeout_seconds));
    if (!driver.wait_ramp()) o["error"] = "ramp did not finish";
    const bool all_ended = driver.wait_all_ended(deadline);
    const Probe b = probe(plan);
    if (!all_ended) o["error"] = "the match did not end before --timeout";
    driver.stop();
    const auto seats = driver.sockets();
    put_sockets(o, seats);
    const auto state = match_state(plan, id);
    std::int64_t last_close = 0, last_open = 0;
    std::uint64_t frames_min = UINT64_MAX, frames_max = 0, readies = 0;
    for (const auto* s : seats) {
        if (!s->open) continue;
        last_close = std::max(last_close, s->closed_us);
        last_open = std::max(last_open, s->opened_us);
        frames_min = std::min(frames_min, s->frames);
        frames_max = std::max(frames_max, s->frames);
        readies += s->readies;
    }
    o["final_tick"] = state.tick;
    o["phase"] = state.phase;
    o["frames_per_seat_min"] = frames_min == UINT64_MAX ? 0 : frames_min;
    o["frames_per_seat_max"] = frames_max;
    o["readies_sent"] = readies;
    const double whole = seconds_between(a.at_us, last_close);  // POST → the last socket closed
    const double after_join = seconds_between(last_open, last_close);
    o["match_wall_s"] = whole;
    o["from_sixth_seat_s"] = after_join;
    if (state.tick > 0 && whole > 0) o["ticks_per_s"] = static_cast<double>(state.tick) / whole;
    if (state.tick > 0 && after_join > 0) o["ticks_per_s_after_join"] = static_cast<double>(state.tick) / after_join;
    put_cpu(o, "", a, b);
    return o;
}

json::object run_replay(const HnsPlan& plan) {
    json::object o = base_object(plan, "certification");
    o["viewers"] = plan.viewers;
    o["match_config"] = kLongReplayConfig;
    const std::string id = made(create_match(plan, "certification", sim::hns::kSeats, kLongReplayConfig), o);
    if (id.empty()) return o;
    {
        // Played out by one spectator at 16 ticks per frame ('6'); the match closes it with 1000.
        HnsSockets player(plan, 1, false);
        player.set_keys("6", "");
        player.add_group(0, {"/global?match=" + id});
        player.start();
        if (!player.wait_ramp() || !player.wait_all_ended(SteadyClock::now() + kPlayOutLimit)) o["error"] = "the match did not end";
        player.stop();
    }
    const auto state = match_state(plan, id);
    o["final_tick"] = state.tick;
    if (o.contains("error")) return o;

    HnsSockets driver(plan, plan.threads, false);
    driver.set_keys("e", "b");
    driver.add_group(0, std::vector<std::string>(static_cast<std::size_t>(plan.viewers), "/replay?match=" + id));
    const Probe before = probe(plan);
    driver.start();
    if (!driver.wait_ramp()) o["error"] = "ramp did not finish";
    sleep_seconds(plan.warmup_seconds);
    const Probe a = probe(plan);
    driver.set_measuring(true);
    sleep_seconds(plan.seconds);
    driver.set_measuring(false);
    const Probe b = probe(plan);
    driver.stop();
    const auto seats = driver.sockets();
    put_sockets(o, seats);
    put_frames(o, seats, seconds_between(a.at_us, b.at_us));
    put_cpu(o, "", a, b);
    if (before.server) o["server_rss_before_mib"] = static_cast<double>(before.server->rss_kib) / 1024.0;
    return o;
}

json::object run_watch(const HnsPlan& plan) {
    const std::string variant = plan.variant.empty() ? "default" : plan.variant;
    json::object o = base_object(plan, variant);
    // Side by side: one match, the contract's /global and our compact stream opened together.
    const auto id = bot_match(plan, variant, o);
    if (id.empty()) return o;
    {
        HnsSockets driver(plan, 1, false);
        driver.add_group(0, {"/global?match=" + id, "/global?match=" + id + "&stream=compact"});
        driver.start();
        if (!driver.wait_ramp()) o["error"] = "ramp did not finish";
        sleep_seconds(kFirstWindowSeconds);
        const auto s0 = match_state(plan, id);
        const Probe a = probe(plan);
        driver.set_measuring(true);
        sleep_seconds(plan.seconds);
        driver.set_measuring(false);
        const Probe b = probe(plan);
        const auto s1 = match_state(plan, id);
        driver.stop();
        const double window = seconds_between(a.at_us, b.at_us);
        const auto seats = driver.sockets();
        json::object contract = viewer_figures(*seats[0], window), compact = viewer_figures(*seats[1], window);
        o["contract"] = contract;
        o["compact"] = compact;
        o["steady_window_s"] = window;
        if (s0.tick >= 0 && s1.tick >= 0) o["match_ticks_per_s"] = static_cast<double>(s1.tick - s0.tick) / window;
        const double compact_rate = compact.at("bytes_per_s").as_double();
        if (compact_rate > 0) o["contract_over_compact"] = contract.at("bytes_per_s").as_double() / compact_rate;
        put_cpu(o, "", a, b);
    }
    delete_match(plan, id);
    // The speed keys: a fresh match for each, read on the compact stream after its keyframe.
    json::array speeds;
    for (const auto& speed : kSpeedKeys) {
        const auto created = create_match(plan, variant, sim::hns::kSeats);
        if (!created) break;
        const std::string sid = *created;
        HnsSockets driver(plan, 1, false);
        driver.set_keys(speed.key, "");
        driver.add_group(0, {"/global?match=" + sid + "&stream=compact"});
        driver.start();
        driver.wait_ramp();
        sleep_seconds(kSpeedWarmupSeconds);
        const auto s0 = match_state(plan, sid);
        const auto a = now_us();
        driver.set_measuring(true);
        sleep_seconds(kSpeedWindowSeconds);
        driver.set_measuring(false);
        const auto b = now_us();
        const auto s1 = match_state(plan, sid);
        driver.stop();
        json::object row = viewer_figures(*driver.sockets()[0], seconds_between(a, b));
        row["ticks_per_frame"] = speed.ticks_per_frame;
        if (s0.tick >= 0 && s1.tick >= 0) row["match_ticks_per_s"] = static_cast<double>(s1.tick - s0.tick) / seconds_between(a, b);
        row["phase_at_end"] = s1.phase;
        speeds.push_back(std::move(row));
        delete_match(plan, sid);
    }
    o["compact_by_speed"] = std::move(speeds);
    return o;
}


}  // namespace

const char* hns_mode_name(HnsMode mode) {
    switch (mode) {
    case HnsMode::Seats: return "hns-seats";
    case HnsMode::Spectate: return "hns-spectate";
    case HnsMode::Fast: return "hns-fast";
    case HnsMode::Replay: return "hns-replay";
    case HnsMode::Watch: return "hns-watch";
    }
    return "?";
}

json::object run_hns(const HnsPlan& plan) {
    switch (plan.mode) {
    case HnsMode::Seats: return run_seats(plan);
    case HnsMode::Spectate: return run_spectate(plan);
    case HnsMode::Fast: return run_fast(plan);
    case HnsMode::Replay: return run_replay(plan);
    case HnsMode::Watch: return run_watch(plan);
    }
    return {};
}

}  // namespace hschool::load
