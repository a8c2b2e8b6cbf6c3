#include "sim/hns/match.hpp"

#include "sim/hns/constants.hpp"
#include "sim/hns/records.hpp"

namespace hschool::sim::hns {
namespace {

constexpr const char* kBaselineNames[2] = {"burrow", "scatter"};

}  // namespace

Expected<MatchOutcome> run_match(const GameConfig& config, const MatchOptions& opt,
                                 const std::function<void(const Sim&)>& progress) {
    using R = Expected<MatchOutcome>;
    auto created = Sim::create(config);
    if (!created) return R::fail(created.error);
    Sim& sim = *created;
    ReplayWriter writer(config_to_json(config), opt.startMs, config.gameVersion);
    std::vector<std::string> names;
    for (int s = 0; s < kSeats; ++s) {
        const std::string name = s < static_cast<int>(config.slots.size()) && !config.slots[s].name.empty()
                                     ? config.slots[s].name
                                     : "Cog" + std::to_string(s + 1);
        auto added = sim.add_player(name, s, "", true);
        if (!added) return R::fail("join " + name + ": " + added.error);
        writer.join(0, s, name, s, "");
        names.push_back(name);
    }
    std::vector<std::string> kinds;
    for (int s = 0; s < kSeats; ++s) {
        const std::string_view policy =
            opt.policies[s] ? opt.policies[s]->name() : kBaselineNames[static_cast<int>(opt.seats[s])];
        const std::string_view kind = opt.policies[s] ? opt.policies[s]->kind() : "scripted";
        writer.chat(0, s, register_record(s, policy, kind, policy));
        kinds.emplace_back(kind);
    }
    sim.set_seat_names(names);
    sim.set_policy_kinds(std::move(kinds));
    Driver driver(sim);
    if (opt.enemyMemory) driver.set_enemy_memory(*opt.enemyMemory);
    const BaselineParams params = opt.params.value_or(baseline_params(config.gameVersion));
    std::array<Order, kSeats> orders{};
    std::array<std::string, kSeats> lastResults{};
    std::vector<Input> masks(kSeats), prev(kSeats);
    while (!sim.finished() && sim.tick_count() < opt.maxTicks) {
        const std::uint32_t ms = replay_tick_time(sim.tick_count());
        if (opt.wallClockStopTick > 0 && sim.tick_count() == opt.wallClockStopTick) {
            // Record, force, write zero masks, step once more, hash, quit: the server's order.
            writer.chat(ms, 0, stop_record(sim.tick_count(), "wall_clock"));
            sim.force_wall_clock_stop();
            for (int s = 0; s < kSeats; ++s) {
                masks[s].mask = 0;
                writer.input_if_changed(ms, s, 0);
            }
            sim.step(masks, prev);
            writer.hash(static_cast<std::uint32_t>(sim.tick_count()), sim.hash());
            break;
        }
        const bool playing = sim.phase() == GamePhase::Playing;
        if (playing && sim.game_tick() % sim.config().turnTicks == 0) {
            const int turn = sim.game_tick() / sim.config().turnTicks;
            for (int s = 0; s < kSeats; ++s) {
                if (sim.frozen_seeker(s)) continue;
                SeatTurn decided;
                if (opt.policies[s]) decided = opt.policies[s]->decide(sim, driver, s, turn, params);
                else decided.order = baseline_order(opt.seats[s], sim, driver, s, turn, params);
                orders[s] = std::move(decided.order);
                for (const std::string& record : decided.records) writer.chat(ms, 0, record);
                // The decision engine's lastResult, as the reference's directive records carry it:
                // set only by a rejected order, and kept from then on (the driver's action results
                // never reach it on this path).
                if (decided.rejected) {
                    sim.add_orders_rejected(s);
                    lastResults[s] = kResultUnknownObject;
                }
                const std::string& last = lastResults[s];
                // Counted as a replay's directive is counted, so `verify` re-derives the same results.
                if (decided.source == "llm") sim.add_llm_turn(s);
                else if (decided.source == "fallback") sim.add_fallback_turn(s);
                writer.chat(ms, s, directive_record(sim, s, turn, orders[s], last, decided.source, decided.latency_ms));
            }
            for (int s = 0; s < kSeats; ++s) {
                if (sim.frozen_seeker(s) || orders[s].say.empty()) continue;
                if (sim.apply_shout(s, orders[s].say)) writer.chat(ms, s, orders[s].say);
            }
        }
        if (playing) driver.observe(sim);
        for (int s = 0; s < kSeats; ++s) {
            if (!playing || sim.frozen_seeker(s)) masks[s].mask = 0;
            else if (opt.policies[s]) masks[s].mask = opt.policies[s]->mask(sim, driver, orders[s], s);
            else masks[s].mask = driver.compile_mask(sim, orders[s], s);
            writer.input_if_changed(ms, s, masks[s].mask);
        }
        sim.step(masks, prev);
        prev = masks;
        writer.hash(static_cast<std::uint32_t>(sim.tick_count()), sim.hash());
        if (progress) progress(sim);
    }
    MatchOutcome out;
    out.results = sim.results_json();
    writer.chat(replay_tick_time(sim.tick_count()), 0, result_record(out.results));
    out.replay = writer.bytes();
    out.finalTick = sim.tick_count();
    out.finalHash = sim.hash();
    return R::ok(std::move(out));
}

}  // namespace hschool::sim::hns
