// The match clock (§3.3): creation and the deal, joins, the lobby timer, game start and finish,
// the step's 13 sub-steps in order, shouts and the forced stops of §3.16.
#include <algorithm>
#include <boost/json.hpp>

#include "sim/hns/constants.hpp"
#include "sim/hns/sim.hpp"

namespace hschool::sim::hns {
namespace {

constexpr const char* kIdentityNames[8] = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"};

Team side_of(int slot, int gameIndex) { return (slot + gameIndex) % 2 == 0 ? Team::Red : Team::Blue; }
std::uint8_t team_color(Team t) { return t == Team::Red ? kHiderColor : kSeekerColor; }
int spawn_aim(Team t) { return t == Team::Red ? 0 : kAimBradsTurn / 2; }

}  // namespace

const char* action_result_text(ActionResult r) {
    switch (r) {
        case ActionResult::None: return "";
        case ActionResult::Grabbed: return "holding";
        case ActionResult::GrabFailed: return "grab_failed";
        case ActionResult::Dropped: return "pushed";
        case ActionResult::Locked: return "locked";
        case ActionResult::Unlocked: return "unlocked";
        case ActionResult::LockRefused: return "lock_refused";
        case ActionResult::Vaulted: return "vaulted";
        case ActionResult::VaultFailed: return "vault_failed";
        case ActionResult::PushStuck: return "push_stuck";
    }
    return "";
}

Expected<Sim> Sim::create(const GameConfig& config) {
    if (std::string e = validate_config(config); !e.empty()) return Expected<Sim>::fail(e);
    if (config.mapSpec.empty()) return Expected<Sim>::fail("mapSpec: the room document is not resolved");
    auto room = parse_room(config.mapSpec);
    if (!room) return Expected<Sim>::fail("mapSpec: " + room.error);
    Sim sim;
    sim.config_ = config;
    sim.room_ = std::move(*room);
    sim.setupRng_ = make_setup_rng(config.seed);
    sim.build_static_masks();
    // Step 2 of the seeded setup order: the deal, before any seat connects.
    sim.deal_objects();
    sim.policyKinds_.assign(kSeatsCap, "scripted");
    return Expected<Sim>::ok(std::move(sim));
}

Expected<int> Sim::add_player(const std::string& address, int requested, const std::string& token, bool trusted) {
    using R = Expected<int>;
    const int limit = config_.closedRoster ? static_cast<int>(config_.slots.size()) : kMaxPlayers;
    if (static_cast<int>(players_.size()) >= limit) return R::fail("roster is full");
    for (const Player& p : players_)
        if (p.address == address) return R::fail("Player name is already connected.");
    auto occupied = [&](int slot) {
        for (const Player& p : players_)
            if (p.joinOrder == slot) return true;
        return false;
    };
    auto slot_cfg = [&](int slot) {
        return slot >= 0 && slot < static_cast<int>(config_.slots.size()) ? config_.slots[slot] : SlotConfig{};
    };
    auto auth = [&](int slot, const std::string& tok) {
        const SlotConfig s = slot_cfg(slot);
        return (s.name.empty() || s.name == address) && (s.token.empty() || s.token == tok);
    };
    auto next_auto = [&](const std::string& tok) {
        for (int pass = 0; pass < 2; ++pass) {
            const int from = pass == 0 ? nextJoinOrder_ : 0;
            const int to = pass == 0 ? limit : std::min(nextJoinOrder_, limit);
            for (int i = from; i < to; ++i) {
                if (occupied(i)) continue;
                const SlotConfig s = slot_cfg(i);
                if ((s.name.empty() && s.token.empty()) || auth(i, tok)) return i;
            }
        }
        return -1;
    };
    if (requested >= kMaxPlayers) return R::fail("Player slot is out of range.");
    int order = -1;
    if (requested >= 0) {
        if (requested >= limit) return R::fail("Player slot is outside configured roster.");
        if (occupied(requested)) return R::fail("Player slot " + std::to_string(requested) + " is already occupied.");
        if (!trusted && !auth(requested, token))
            return R::fail("Player credentials do not match configured slot " + std::to_string(requested) + ".");
        order = requested;
    } else {
        for (int i = 0; i < static_cast<int>(config_.slots.size()) && order < 0; ++i) {
            if (occupied(i)) continue;
            const SlotConfig& s = config_.slots[i];
            const bool name_match = !s.name.empty() && s.name == address;
            const bool token_match = !trusted && !s.token.empty() && s.token == token;
            if ((name_match || token_match) && (trusted || auth(i, token))) order = i;
        }
        if (order < 0) order = next_auto(trusted ? std::string() : token);
        if (order < 0) return R::fail("No available player slot.");
    }
    if (!trusted && order != static_cast<int>(players_.size()))
        return R::fail("Player slot " + std::to_string(order) + " cannot join before slot " +
                       std::to_string(players_.size()) + ".");
    const SlotConfig s = slot_cfg(order);
    const Team team = side_of(order, gameIndex_);
    const auto pads = room_.pads(team == Team::Red ? AnchorTeam::Hiders : AnchorTeam::Seekers);
    const Point pad = pads[static_cast<std::size_t>((order / 2) % static_cast<int>(pads.size()))];
    Player p;
    p.x = p.homeX = pad.x;
    p.y = p.homeY = pad.y;
    p.aimBrads = spawn_aim(team);
    p.team = team;
    p.joinOrder = order;
    p.address = address;
    p.color = s.has_color ? s.color : team_color(team);
    players_.push_back(std::move(p));
    fov_.emplace_back();
    while (nextJoinOrder_ < kMaxPlayers && occupied(nextJoinOrder_)) ++nextJoinOrder_;
    return R::ok(static_cast<int>(players_.size()) - 1);
}

bool Sim::frozen_seeker(int slot) const {
    return matchPhase_ == MatchPhase::Prep && players_[slot].team == Team::Blue;
}

bool Sim::finished() const { return phase_ == GamePhase::GameOver && episode_complete() && gameOverTimer_ <= 0; }

std::string Sim::alias(int slot) const {
    const Team t = slot >= 0 && slot < static_cast<int>(players_.size()) ? players_[slot].team : side_of(slot, gameIndex_);
    return std::string(t == Team::Red ? "HIDER-" : "SEEKER-") + kIdentityNames[(slot / 2) % 8];
}

void Sim::place_player(int i, int x, int y) {
    Player& p = players_[i];
    p.x = x;
    p.y = y;
    p.velX = p.velY = 0;
    p.carryX = p.carryY = 0;
}

Point Sim::nearest_walkable(int x, int y) const {
    if (can_occupy(x, y)) return {x, y};
    for (int r = 1; r <= std::max(kMapWidth, kMapHeight); ++r)
        for (int dy = -r; dy <= r; ++dy)
            for (int dx = -r; dx <= r; ++dx) {
                if (std::abs(dx) != r && std::abs(dy) != r) continue;
                if (can_occupy(x + dx, y + dy)) return {x + dx, y + dy};
            }
    return {x, y};
}

void Sim::deal_hider_pads() {
    // One shuffle of [0,1,2] per game start: this is why game 2's pads differ from game 1's.
    std::vector<int> order{0, 1, 2};
    setupRng_.shuffle(order);
    padOrders_.push_back({order[0], order[1], order[2]});
    const auto hider = room_.pads(AnchorTeam::Hiders);
    const auto seeker = room_.pads(AnchorTeam::Seekers);
    int hiderSeat = 0, seekerSeat = 0;
    for (std::size_t i = 0; i < players_.size(); ++i) {
        Point pad;
        if (players_[i].team == Team::Red) {
            pad = hider[static_cast<std::size_t>(order[hiderSeat % 3] % static_cast<int>(hider.size()))];
            ++hiderSeat;
        } else {
            pad = seeker[static_cast<std::size_t>(seekerSeat % static_cast<int>(seeker.size()))];
            ++seekerSeat;
        }
        const Point spot = nearest_walkable(pad.x, pad.y);
        players_[i].homeX = spot.x;
        players_[i].homeY = spot.y;
        place_player(static_cast<int>(i), spot.x, spot.y);
    }
}

void Sim::start_game() {
    shouts_.clear();
    for (std::size_t i = 0; i < players_.size(); ++i) {
        players_[i].team = side_of(static_cast<int>(i), gameIndex_);
        players_[i].color = team_color(players_[i].team);
    }
    for (GameObject& o : objects_) {
        o.x = o.spawnX;
        o.y = o.spawnY;
        o.lockedBy = LockOwner::None;
        o.heldBy = -1;
    }
    rasterize_objects();
    ++geometryEpoch_;
    invalidate_fov_caches();
    hiddenTicks_ = seenTicks_ = huntTicksPlayed_ = 0;
    exposedNow_ = false;
    matchPhase_ = MatchPhase::Prep;
    sealedMask_ = 0;
    spottedPairs_.assign(players_.size() * players_.size(), 0);
    for (Player& p : players_) {
        p.lastShoutTick = -1;
        p.alive = true;
        p.holding = -1;
        p.airborne = false;
        p.vaultLeft = 0;
        p.lockCooldown = 0;
        p.pushBlockedTicks = 0;
        p.sealed = false;
        p.aimBrads = spawn_aim(p.team);
    }
    deal_hider_pads();
    phase_ = GamePhase::Playing;
    gameStartTick_ = tickCount_;
    gameStartTicks_.push_back(tickCount_);
    timeLimitReached_ = false;
    scan_sealed();
}

void Sim::archive_game() {
    const int played = huntTicksPlayed_;
    gameMargins_.push_back(current_margin());
    gameHidden_.push_back(hiddenTicks_);
    gameSeen_.push_back(seenTicks_);
    gameHuntPlayed_.push_back(played);
}

void Sim::pad_games() {
    while (static_cast<int>(gameMargins_.size()) < config_.maxGames) {
        gameMargins_.push_back(0);
        gameHidden_.push_back(0);
        gameSeen_.push_back(0);
        gameHuntPlayed_.push_back(0);
    }
}

void Sim::drop_all_held() {
    for (std::size_t slot = 0; slot < players_.size(); ++slot) {
        const int held = players_[slot].holding;
        if (held < 0 || held >= static_cast<int>(objects_.size())) continue;
        drop_object(static_cast<int>(slot));
        players_[slot].pushBlockedTicks = 0;
    }
}

void Sim::finish_game() {
    // F7 (GameVersion 2): nothing stays bound to a cog past the end of a game.
    if (drops_held_objects(config_.gameVersion)) drop_all_held();
    archive_game();
    timeLimitReached_ = true;
    phase_ = GamePhase::GameOver;
    gameOverTimer_ = config_.gameOverTicks;
}

void Sim::start_without_lobby() {
    if (phase_ == GamePhase::Lobby) start_game();
}

void Sim::step_lobby() {
    if (static_cast<int>(players_.size()) < config_.minPlayers) {
        startWaitTimer_ = 0;
        if (config_.lobbyJoinTimeoutTicks > 0) ++lobbyWaitTimer_;
        return;
    }
    if (config_.startWaitTicks <= 0) {
        start_game();
        return;
    }
    if (startWaitTimer_ <= 0) startWaitTimer_ = config_.startWaitTicks;
    --startWaitTimer_;
    if (startWaitTimer_ <= 0) start_game();
}

void Sim::step(const std::vector<Input>& inputs, const std::vector<Input>& prev) {
    ++tickCount_;
    if (players_.empty() && phase_ == GamePhase::Playing) finish_game();
    if (phase_ == GamePhase::Lobby) {
        step_lobby();
        return;
    }
    if (phase_ == GamePhase::GameOver) {
        --gameOverTimer_;
        if (gameOverTimer_ <= 0 && !episode_complete()) {
            ++gameIndex_;
            start_game();
        }
        return;
    }
    const int n = static_cast<int>(players_.size());
    lastResults_.resize(players_.size(), ActionResult::None);
    // 1. The phase transition.
    const int tick = game_tick();
    if (matchPhase_ == MatchPhase::Prep && tick >= config_.prepTicks()) {
        matchPhase_ = MatchPhase::Hunt;
        // F7 (GameVersion 2): a hider does not carry a crate across the release into the hunt.
        if (drops_held_objects(config_.gameVersion)) drop_all_held();
        invalidate_fov_caches();
        scan_sealed();
    }
    // 2. Effective input: a frozen seeker's masks are forced to zero here.
    std::vector<Input> eff(players_.size()), effPrev(players_.size());
    for (int s = 0; s < n; ++s) {
        if (frozen_seeker(s)) continue;
        if (s < static_cast<int>(inputs.size())) eff[s] = inputs[s];
        if (s < static_cast<int>(prev.size())) effPrev[s] = prev[s];
    }
    // 3..7: aim, grab/release, lock, movement, vault.
    for (int s = 0; s < n; ++s) apply_aim(s, eff[s]);
    resolve_grabs(eff, effPrev);
    resolve_locks(eff, effPrev);
    for (int s = 0; s < n; ++s) apply_input(s, eff[s]);
    resolve_vaults();
    // 8 happens inside move_object; 9. fog refresh for every cog that is not frozen.
    for (int s = 0; s < n; ++s)
        if (!frozen_seeker(s)) refresh_player_fov(s);
    // 10. Hunt only: exposure, then sealed time.
    if (matchPhase_ == MatchPhase::Hunt) {
        score_exposure();
        accrue_sealed_ticks();
    }
    // 11. Sealed scan at a turn boundary.
    if (config_.turnTicks > 0 && tick % config_.turnTicks == 0) scan_sealed();
    // 12. Shout expiry.
    std::erase_if(shouts_, [&](const Shout& sh) { return tickCount_ - sh.tick >= kShoutTicks; });
    // 13. End of game.
    if (game_tick() >= config_.maxTicks()) finish_game();
}

bool Sim::apply_shout(int index, std::string_view text) {
    if (phase_ != GamePhase::Playing) return false;
    if (index < 0 || index >= static_cast<int>(players_.size())) return false;
    Player& p = players_[index];
    if (!p.alive) return false;
    // Printable ASCII only, at most 10 characters, then trimmed.
    std::string clean;
    for (char c : text) {
        if (c >= ' ' && c <= '~') clean.push_back(c);
        if (static_cast<int>(clean.size()) == kShoutMaxChars) break;
    }
    while (!clean.empty() && clean.front() == ' ') clean.erase(clean.begin());
    while (!clean.empty() && clean.back() == ' ') clean.pop_back();
    if (clean.empty()) return false;
    if (p.lastShoutTick >= 0 && tickCount_ - p.lastShoutTick < kShoutCooldownTicks) return false;
    p.lastShoutTick = tickCount_;
    ++p.shouts;
    std::erase_if(shouts_, [&](const Shout& sh) { return sh.address == p.address; });
    shouts_.push_back(Shout{p.address, p.team, clean, tickCount_, p.x, p.y});
    return true;
}

bool Sim::shout_audible_to(int viewer, const Shout& shout) const {
    if (viewer < 0 || viewer >= static_cast<int>(players_.size()) || !players_[viewer].alive) return false;
    const int dx = players_[viewer].x - shout.x, dy = players_[viewer].y - shout.y;
    return dx * dx + dy * dy <= kShoutRange * kShoutRange;
}

void Sim::force_wall_clock_stop() {
    if (phase_ == GamePhase::Playing) archive_game();
    pad_games();
    phase_ = GamePhase::GameOver;
    gameOverTimer_ = 0;
    endReason_ = "deadline";
    endRule_ = "wall_clock";
}

void Sim::force_fault_stop(const std::string& detail) {
    if (phase_ == GamePhase::Playing) archive_game();
    pad_games();
    phase_ = GamePhase::GameOver;
    gameOverTimer_ = 0;
    endReason_ = "fault";
    endRule_ = "sim_fault";
    stopDetail_ = detail.substr(0, 200);
}

void Sim::apply_control_record(std::string_view record) {
    if (record.empty() || record.front() != '{') return;
    boost::system::error_code ec;
    boost::json::value v = boost::json::parse(record, ec);
    if (ec || !v.is_object()) return;
    const auto& o = v.as_object();
    const auto* k = o.if_contains("k");
    if (k == nullptr || !k->is_string()) return;
    if (k->as_string() == "stop") {
        const auto* rule = o.if_contains("endRule");
        const std::string r = rule != nullptr && rule->is_string() ? std::string(rule->as_string()) : "";
        const auto* d = o.if_contains("detail");
        const std::string detail = d != nullptr && d->is_string() ? std::string(d->as_string()) : "";
        if (r == "wall_clock") force_wall_clock_stop();
        else if (r == "sim_fault" || r == "host_error") force_fault_stop(detail);
    } else if (k->as_string() == "start") {
        // A training bridge's episode: its first game began before tick 1, without the lobby.
        start_without_lobby();
    } else if (k->as_string() == "directive") {
        // Counted per seat-turn by its source, as the reference counts them (a turn may hold two
        // fallback records, one per attempt).
        const auto* s = o.if_contains("slot");
        const auto* source = o.if_contains("source");
        if (s == nullptr || !s->is_int64() || source == nullptr || !source->is_string()) return;
        if (source->as_string() == "fallback") add_fallback_turn(static_cast<int>(s->as_int64()));
        else if (source->as_string() == "llm") add_llm_turn(static_cast<int>(s->as_int64()));
    }
}

}  // namespace hschool::sim::hns
