#include "sim/hns/verify.hpp"

#include <algorithm>
#include <cstdio>

namespace hschool::sim::hns {

Expected<Sim> sim_for_replay(const ReplayData& data) {
    auto config = apply_config_json(GameConfig{}, data.configJson);
    if (!config) return Expected<Sim>::fail("config echo: " + config.error);
    if (config->mapSpec.empty()) return Expected<Sim>::fail("config echo: mapSpec is missing");
    config->gameVersion = data.version;  // the header's version picks the rules, not today's default
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

ReplayStepper::ReplayStepper(const ReplayData& data, Sim sim)
    : data_(&data), sim_(std::move(sim)), maxTick_(data.hashes.empty() ? 0 : static_cast<int>(data.hashes.back().tick)) {}

Expected<ReplayStepper> ReplayStepper::create(const ReplayData& data) {
    auto created = sim_for_replay(data);
    if (!created) return Expected<ReplayStepper>::fail(created.error);
    return Expected<ReplayStepper>::ok(ReplayStepper(data, std::move(*created)));
}

void ReplayStepper::ensure(std::size_t p) {
    if (masks_.size() <= p) {
        masks_.resize(p + 1, 0);
        pressed_.resize(p + 1, 0);
        lastApplied_.resize(p + 1, 0);
    }
}

ReplayStepper::Status ReplayStepper::step() {
    if (!error_.empty()) return Status::Error;
    if (done()) return Status::End;
    const ReplayData& d = *data_;
    Sim& sim = *sim_;
    std::fill(pressed_.begin(), pressed_.end(), 0);
    const std::uint32_t time = replay_tick_time(sim.tick_count());
    if (li_ < d.leaves.size() && d.leaves[li_].ms <= time) {
        error_ = "leave records are not supported in hide-and-seek replays";
        return Status::Error;
    }
    for (; ji_ < d.joins.size() && d.joins[ji_].ms <= time; ++ji_) {
        const ReplayJoin& j = d.joins[ji_];
        if (j.player != sim.players().size()) {
            error_ = "join order is invalid (player " + std::to_string(j.player) + ")";
            return Status::Error;
        }
        auto added = sim.add_player(j.name, j.slot, j.token, true);
        if (!added) {
            error_ = "join " + j.name + ": " + added.error;
            return Status::Error;
        }
        ensure(j.player);
    }
    for (; ii_ < d.inputs.size() && d.inputs[ii_].ms <= time; ++ii_) {
        const ReplayInput& in = d.inputs[ii_];
        ensure(in.player);
        pressed_[in.player] |= static_cast<std::uint8_t>(in.mask & ~masks_[in.player]);
        masks_[in.player] = in.mask;
    }
    for (; ci_ < d.chats.size() && d.chats[ci_].ms <= time; ++ci_) {
        const ReplayChat& ch = d.chats[ci_];
        if (!ch.message.empty() && ch.message.front() == '{') sim.apply_control_record(ch.message);
        else sim.apply_shout(ch.player, ch.message);
    }
    const std::size_t n = sim.players().size();
    if (n > 0) ensure(n - 1);
    inputs_.assign(n, Input{});
    prev_.assign(n, Input{});
    for (std::size_t p = 0; p < n; ++p) {
        prev_[p].mask = static_cast<std::uint8_t>(lastApplied_[p] & ~pressed_[p]);
        inputs_[p].mask = static_cast<std::uint8_t>(masks_[p] | pressed_[p]);
        lastApplied_[p] = inputs_[p].mask;
    }
    sim.step(inputs_, prev_);
    const ReplayHash& want = d.hashes[hi_];
    if (static_cast<int>(want.tick) < sim.tick_count()) {
        error_ = "hash record missing for tick " + std::to_string(sim.tick_count());
        return Status::Mismatch;
    }
    if (static_cast<int>(want.tick) > sim.tick_count()) return Status::Stepped;
    got_ = sim.hash();
    if (got_ != want.hash) {
        expected_ = want.hash;
        ++hi_;  // a viewer plays on past a mismatch; verify_replay stops at the first
        return Status::Mismatch;
    }
    ++checked_;
    ++hi_;
    return Status::Stepped;
}

VerifyReport verify_replay(const ReplayData& d) {
    VerifyReport r;
    auto created = ReplayStepper::create(d);
    if (!created) {
        r.error = created.error;
        return r;
    }
    ReplayStepper& stepper = *created;
    for (;;) {
        const auto status = stepper.step();
        if (status == ReplayStepper::Status::Stepped) {
            ++r.ticks;
            continue;
        }
        if (status == ReplayStepper::Status::Mismatch) {
            ++r.ticks;
            r.mismatchTick = stepper.sim().tick_count();
            r.error = stepper.error();
            r.expected = stepper.expected_hash();
            r.got = stepper.got_hash();
            r.checked = stepper.checked();
            if (r.error.empty()) r.results = stepper.sim().results_json();
            return r;
        }
        if (status == ReplayStepper::Status::Error) {
            r.error = stepper.error();
            r.checked = stepper.checked();
            return r;
        }
        break;  // End
    }
    r.checked = stepper.checked();
    r.results = stepper.sim().results_json();
    r.ok = !d.hashes.empty() && stepper.checked() == static_cast<int>(d.hashes.size());
    if (!r.ok && r.error.empty() && d.hashes.empty()) r.error = "replay has no hash records";
    return r;
}

}  // namespace hschool::sim::hns
