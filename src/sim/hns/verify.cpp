#include "sim/hns/verify.hpp"

#include <cstdio>

namespace hschool::sim::hns {

Expected<Sim> sim_for_replay(const ReplayData& data) {
    auto config = apply_config_json(GameConfig{}, data.configJson);
    if (!config) return Expected<Sim>::fail("config echo: " + config.error);
    if (config->mapSpec.empty()) return Expected<Sim>::fail("config echo: mapSpec is missing");
    return Sim::create(*config);
}

std::string VerifyReport::message() const {
    char buf[256];
    if (!error.empty()) return "error at tick " + std::to_string(ticks) + ": " + error;
    if (mismatchTick != 0) {
        std::snprintf(buf, sizeof buf, "hash mismatch at tick %d: expected 0x%016llx, got 0x%016llx", mismatchTick,
                      static_cast<unsigned long long>(expected), static_cast<unsigned long long>(got));
        return buf;
    }
    return "all " + std::to_string(checked) + " hashes match";
}

VerifyReport verify_replay(const ReplayData& d) {
    VerifyReport r;
    auto created = sim_for_replay(d);
    if (!created) {
        r.error = created.error;
        return r;
    }
    Sim& sim = *created;
    const int maxTick = d.hashes.empty() ? 0 : static_cast<int>(d.hashes.back().tick);
    std::size_t ji = 0, li = 0, ii = 0, ci = 0, hi = 0;
    std::vector<std::uint8_t> masks, pressed, lastApplied;
    auto ensure = [&](std::size_t p) {
        if (masks.size() <= p) {
            masks.resize(p + 1, 0);
            pressed.resize(p + 1, 0);
            lastApplied.resize(p + 1, 0);
        }
    };
    std::vector<Input> inputs, prev;
    while (sim.tick_count() < maxTick) {
        std::fill(pressed.begin(), pressed.end(), 0);
        const std::uint32_t time = replay_tick_time(sim.tick_count());
        if (li < d.leaves.size() && d.leaves[li].ms <= time) {
            r.error = "leave records are not supported in hide-and-seek replays";
            return r;
        }
        for (; ji < d.joins.size() && d.joins[ji].ms <= time; ++ji) {
            const ReplayJoin& j = d.joins[ji];
            if (j.player != sim.players().size()) {
                r.error = "join order is invalid (player " + std::to_string(j.player) + ")";
                return r;
            }
            auto added = sim.add_player(j.name, j.slot, j.token, true);
            if (!added) {
                r.error = "join " + j.name + ": " + added.error;
                return r;
            }
            ensure(j.player);
        }
        for (; ii < d.inputs.size() && d.inputs[ii].ms <= time; ++ii) {
            const ReplayInput& in = d.inputs[ii];
            ensure(in.player);
            pressed[in.player] |= static_cast<std::uint8_t>(in.mask & ~masks[in.player]);
            masks[in.player] = in.mask;
        }
        for (; ci < d.chats.size() && d.chats[ci].ms <= time; ++ci) {
            const ReplayChat& ch = d.chats[ci];
            if (!ch.message.empty() && ch.message.front() == '{') sim.apply_control_record(ch.message);
            else sim.apply_shout(ch.player, ch.message);
        }
        const std::size_t n = sim.players().size();
        if (n > 0) ensure(n - 1);
        inputs.assign(n, Input{});
        prev.assign(n, Input{});
        for (std::size_t p = 0; p < n; ++p) {
            prev[p].mask = static_cast<std::uint8_t>(lastApplied[p] & ~pressed[p]);
            inputs[p].mask = static_cast<std::uint8_t>(masks[p] | pressed[p]);
            lastApplied[p] = inputs[p].mask;
        }
        sim.step(inputs, prev);
        ++r.ticks;
        if (hi >= d.hashes.size()) break;
        const ReplayHash& want = d.hashes[hi];
        if (static_cast<int>(want.tick) < sim.tick_count()) {
            r.mismatchTick = sim.tick_count();
            r.error = "hash record missing for tick " + std::to_string(sim.tick_count());
            return r;
        }
        if (static_cast<int>(want.tick) > sim.tick_count()) continue;
        const std::uint64_t got = sim.hash();
        if (got != want.hash) {
            r.mismatchTick = sim.tick_count();
            r.expected = want.hash;
            r.got = got;
            r.results = sim.results_json();
            return r;
        }
        ++r.checked;
        ++hi;
    }
    r.results = sim.results_json();
    r.ok = hi == d.hashes.size() && !d.hashes.empty();
    if (!r.ok && r.error.empty() && d.hashes.empty()) r.error = "replay has no hash records";
    return r;
}

}  // namespace hschool::sim::hns
