#include "server/hns/live/match_game.hpp"

#include "server/hns/contract/decisions.hpp"
#include "server/hns/contract/limits.hpp"
#include "server/hns/contract/match_view.hpp"
#include "sim/hns/records.hpp"

namespace hschool::server::hns {

namespace sh = sim::hns;

MatchGame::MatchGame(sh::Sim sim, const sh::GameConfig& config, std::uint64_t start_ms)
    : sim_(std::move(sim)), driver_(sim_), writer_(sh::config_to_json(config), start_ms, config.gameVersion), start_ms_(start_ms) {}

std::uint32_t MatchGame::now_ms() const { return sh::replay_tick_time(sim_.tick_count()); }

void MatchGame::shout(int slot, const std::string& say) {
    if (say.empty()) return;
    if (sim_.apply_shout(slot, say)) writer_.chat(now_ms(), slot, say);
}

void MatchGame::step(int ticks, const std::function<std::uint8_t(int)>& mask_of, HnsMetrics& metrics) {
    for (int k = 0; k < ticks; ++k) {
        if (k > 0 && (sim_.finished() || decision_turn(sim_.phase(), sim_.game_tick(), sim_.config().turnTicks).has_value())) break;
        const auto ms = now_ms();
        const bool playing = sim_.phase() == sh::GamePhase::Playing;
        if (playing) driver_.observe(sim_);
        const std::size_t n = sim_.players().size();
        masks_.resize(n);
        prev_.resize(n);
        for (std::size_t s = 0; s < n; ++s) {
            const int slot = static_cast<int>(s);
            const std::uint8_t mask = playing && !sim_.frozen_seeker(slot) ? mask_of(slot) : 0;
            masks_[s].mask = mask;
            writer_.input_if_changed(ms, slot, mask);
        }
        sim_.step(masks_, prev_);
        prev_ = masks_;
        writer_.hash(static_cast<std::uint32_t>(sim_.tick_count()), sim_.hash());
        metrics.ticks(1);
    }
    const char* phase = match_phase_text(sim_.phase());
    if (phase_reported_ != phase) {
        metrics.match_phase(phase_reported_.c_str(), phase);
        phase_reported_ = phase;
    }
}

void MatchGame::wall_clock_stop() {
    const auto ms = now_ms();
    writer_.chat(ms, 0, sh::stop_record(sim_.tick_count(), "wall_clock"));
    sim_.force_wall_clock_stop();
    const std::size_t n = sim_.players().size();
    masks_.assign(n, sh::Input{});
    prev_.resize(n);
    for (std::size_t s = 0; s < n; ++s) writer_.input_if_changed(ms, static_cast<int>(s), 0);
    sim_.step(masks_, prev_);
    prev_ = masks_;
    writer_.hash(static_cast<std::uint32_t>(sim_.tick_count()), sim_.hash());
}

bool MatchGame::replay_full() const { return writer_.bytes().size() >= kMaxLiveReplayBytes; }

bool MatchGame::restart() {
    sh::GameConfig config = sim_.config();
    config.seed = config.seed == sh::kUnpinnedSeed ? config.seed : config.seed + 1;
    auto created = sh::Sim::create(config);
    if (!created) return false;  // the same config built the first sim; keep playing it
    sim_ = std::move(*created);
    driver_ = sh::Driver(sim_);
    writer_ = sh::ReplayWriter(sh::config_to_json(config), start_ms_, config.gameVersion);
    masks_.clear();
    prev_.clear();
    return true;
}

std::string MatchGame::close_replay(const std::string& results_json) {
    writer_.chat(sh::replay_tick_time(sim_.tick_count()), 0, sh::result_record(results_json));
    return writer_.bytes();
}

}  // namespace hschool::server::hns
