#pragma once
// One hide-and-seek match (spec §3): lobby, two games with sides swapped, game over. The step is
// the reference's 13 ordered sub-steps and nothing else mutates the world. No clock, no files:
// the config (with its pinned room document), joins and input masks come in.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/hns/config.hpp"
#include "sim/hns/expected.hpp"
#include "sim/hns/fov.hpp"
#include "sim/hns/pixel_rows.hpp"
#include "sim/hns/rng.hpp"
#include "sim/hns/room.hpp"
#include "sim/hns/state.hpp"

namespace hschool::sim::hns {

class Sim {
public:
    // The config must carry its room as mapSpec (resolve_room_spec in room_files.hpp does it).
    // Draws the object deal from the setup RNG, as the reference does before any seat joins.
    static Expected<Sim> create(const GameConfig& config);

    // The reference's addPlayer. Trusted joins (replay records) skip token checks.
    Expected<int> add_player(const std::string& address, int requested_slot, const std::string& token,
                             bool trusted);
    // Applies one tick: `inputs` are this tick's masks, `prev` the masks applied last tick.
    void step(const std::vector<Input>& inputs, const std::vector<Input>& prev);
    bool apply_shout(int player, std::string_view text);
    // A shout carries through walls to any live cog of either team within kShoutRange of it.
    bool shout_audible_to(int viewer, const Shout& shout) const;
    void force_wall_clock_stop();
    void force_fault_stop(const std::string& detail);
    // Starts the first game now, at tick 0, skipping the lobby: the training bridge's reset does
    // this once its six seats have joined. Nothing happens outside the lobby.
    void start_without_lobby();
    // What the episode settles to once its last game is filed (every per-game array padded).
    void settle_episode() { pad_games(); }
    // A replay control record (chat starting with '{'): only "stop" and "start" (the training
    // bridge's: the first game began without the lobby) change the sim.
    void apply_control_record(std::string_view record);

    std::uint64_t hash() const;
    std::string results_json() const;

    // True once every game is filed and the game-over timer has run out (the server quits).
    bool finished() const;
    bool episode_complete() const { return static_cast<int>(gameMargins_.size()) >= config_.maxGames; }

    const GameConfig& config() const { return config_; }
    GameVersion game_version() const { return config_.gameVersion; }
    const Room& room() const { return room_; }
    const std::vector<Player>& players() const { return players_; }
    const std::vector<GameObject>& objects() const { return objects_; }
    const std::vector<Shout>& shouts() const { return shouts_; }
    const std::vector<ActionResult>& last_results() const { return lastResults_; }
    const std::vector<std::array<int, 3>>& hider_pad_orders() const { return padOrders_; }
    GamePhase phase() const { return phase_; }
    MatchPhase match_phase() const { return matchPhase_; }
    int tick_count() const { return tickCount_; }
    int game_tick() const { return tickCount_ - gameStartTick_; }
    int game_start_tick() const { return gameStartTick_; }
    int game_index() const { return gameIndex_; }
    int geometry_epoch() const { return geometryEpoch_; }
    int hidden_ticks() const { return hiddenTicks_; }
    int seen_ticks() const { return seenTicks_; }
    int hunt_ticks_played() const { return huntTicksPlayed_; }
    std::uint64_t sealed_mask() const { return sealedMask_; }
    // Any seeker saw any hider on the last scored tick (never hashed; the observation's seen_now).
    bool exposed_now() const { return exposedNow_; }
    // This game's margin so far, permille from the hiders' view (the observation's margin).
    int current_margin() const;
    // Ticks left in the current match phase (the observation's clock).
    int phase_ticks_left() const;
    const std::vector<int>& game_margins() const { return gameMargins_; }
    const std::vector<int>& game_start_ticks() const { return gameStartTicks_; }
    bool frozen_seeker(int slot) const;
    bool player_visible_to(int viewer, int target) const;
    bool wall_at(int x, int y) const;
    bool object_at_pixel(int x, int y) const;
    bool can_occupy(int x, int y) const;
    int object_index(std::string_view id) const;
    std::string alias(int slot) const;
    // Queries the seats' driver reads (the reference's control layer reads the sim directly).
    int object_containing(int x, int y) const;
    int grab_probe(int slot) const;
    bool may_touch(int slot, int index) const;

    // Test hooks: place a cog (velocity and carry cleared), as the reference's tests do.
    void place_player(int index, int x, int y);
    void set_seat_names(std::vector<std::string> names) { seatNames_ = std::move(names); }
    void set_policy_kinds(std::vector<std::string> kinds) { policyKinds_ = std::move(kinds); }
    void add_orders_rejected(int slot) { if (slot >= 0 && slot < kSeatsCap) ordersRejected_[slot]++; }
    void add_fallback_turn(int slot) { if (slot >= 0 && slot < kSeatsCap) fallbackTurns_[slot]++; }
    void add_llm_turn(int slot) { if (slot >= 0 && slot < kSeatsCap) llmTurns_[slot]++; }
    // A seat filled by the lobby-timeout roster completion (§2.9): reported in deadSeats.
    void set_dead_seat(int slot) { if (slot >= 0 && slot < kSeatsCap) deadSeats_[slot] = true; }
    // Lobby ticks spent with fewer than minPlayers have reached lobbyJoinTimeoutTicks.
    bool lobby_join_timed_out() const {
        return phase_ == GamePhase::Lobby && config_.lobbyJoinTimeoutTicks > 0 &&
               lobbyWaitTimer_ >= config_.lobbyJoinTimeoutTicks;
    }

    std::uint8_t pixel_flags(int x, int y) const;

private:
    // The differential tests and the microbenchmarks drive the hot internals directly (issue 42).
    friend struct SimProbe;
    static constexpr int kSeatsCap = 6;
    Sim() = default;

    // lifecycle.cpp
    void step_lobby();
    void start_game();
    void finish_game();
    void drop_all_held();
    void archive_game();
    void pad_games();
    void deal_hider_pads();
    Point nearest_walkable(int x, int y) const;

    // objects.cpp
    void deal_objects();
    void build_static_masks();
    void rasterize_objects();
    // Adds the cells whose blocked state flipped to fovFlips_.
    void refresh_fov_cells(int x0, int y0, int x1, int y1);
    void refresh_object_geometry(const Rect& oldRect, const Rect& newRect);
    void invalidate_fov_caches();
    void invalidate_fov_caches_seeing(const std::vector<int>& flipped);
    bool rect_hits_wall(const Rect& r) const;
    bool keep_clear_violated(const Rect& r) const;
    bool covers_any_pad(const Rect& r) const;
    bool can_place_object(int index, const Rect& r, int holder) const;
    void move_object(int index, int dx, int dy);
    void drop_object(int slot);
    int nearest_object_within(int slot, int reach) const;
    bool vault_span_clear(int fromX, int fromY, int brads, int span) const;
    bool vault_landing(int fromX, int fromY, int brads, int& outX, int& outY) const;

    // actions.cpp: tick steps 3, 4, 5, 7
    void apply_aim(int slot, const Input& in);
    void resolve_grabs(const std::vector<Input>& in, const std::vector<Input>& prev);
    void resolve_locks(const std::vector<Input>& in, const std::vector<Input>& prev);
    void resolve_vaults();

    // motion.cpp: tick step 6
    void apply_input(int slot, const Input& in);
    void apply_momentum_axis(int slot, int preferredSlide, bool horizontal);
    bool body_fits(int slot, int x, int y) const;
    bool held_fits(int slot, int dx, int dy) const;
    bool players_overlap_at(int slot, int x, int y) const;
    int blocking_player_at(int slot, int fromX, int fromY, int toX, int toY) const;
    void commit_step(int slot, int dx, int dy);
    bool can_slide(int slot, int x, int y, int step, int offset, bool horizontal) const;
    bool try_slide_move(int slot, int step, int radius, int preferred, bool horizontal);
    void bounce_players(int a, int b, bool horizontal);
    bool can_occupy_ignoring(int x, int y, int ignore) const;

    // vision.cpp: tick step 9 (the only file with floats, as in the reference)
    void refresh_player_fov(int slot);
    void compute_shadowcast(int cx, int cy, std::vector<char>& visible) const;
    void apply_cone(int cx, int cy, int aim, const std::vector<char>& cast, std::vector<char>& visible);
    bool line_of_sight_clear(int ax, int ay, int bx, int by) const;

    // scoring.cpp: tick steps 10 and 11
    void score_exposure();
    void scan_sealed();
    void accrue_sealed_ticks();

    GameConfig config_;
    Room room_;
    NimRand setupRng_{1};
    PixelRows wallMask_;            // static walls, per pixel
    PixelRows bodyWallMask_;        // a body centred on this pixel would touch a wall
    PixelRows objectMask_;          // furniture, per pixel
    std::vector<char> fovBlocked_;  // 8 px cells over wall or object
    std::vector<char> wallCells_;   // 8 px cells over walls only (fort scan)
    std::vector<int> fovFlips_;     // the cells the last geometry change flipped
    int fovEpoch_ = 0;              // bumps when a fovBlocked_ cell flips: the fog caches' key
    std::vector<FovCache> fov_;
    ConeFilter cone_;               // looks the cone's verdicts up (shared, not match state)
    std::vector<Player> players_;
    std::vector<GameObject> objects_;
    std::vector<Shout> shouts_;
    std::vector<char> spottedPairs_;
    std::vector<ActionResult> lastResults_;

    int tickCount_ = 0;
    GamePhase phase_ = GamePhase::Lobby;
    int gameOverTimer_ = 0;
    int gameStartTick_ = -1;
    int startWaitTimer_ = 0;
    int lobbyWaitTimer_ = 0;
    bool timeLimitReached_ = false;
    int nextJoinOrder_ = 0;
    int geometryEpoch_ = 0;
    MatchPhase matchPhase_ = MatchPhase::Prep;
    int gameIndex_ = 0;
    int hiddenTicks_ = 0;
    int seenTicks_ = 0;
    int huntTicksPlayed_ = 0;
    std::uint64_t sealedMask_ = 0;
    bool exposedNow_ = false;

    std::vector<int> gameMargins_, gameHidden_, gameSeen_, gameHuntPlayed_, gameStartTicks_;
    std::vector<std::array<int, 3>> padOrders_;
    std::string endReason_ = "complete";
    std::string endRule_ = "full_time";
    std::string stopDetail_;
    std::vector<std::string> seatNames_;
    std::vector<std::string> policyKinds_;
    std::array<int, kSeatsCap> fallbackTurns_{};
    std::array<int, kSeatsCap> ordersRejected_{};
    std::array<int, kSeatsCap> llmTurns_{};
    std::array<bool, kSeatsCap> deadSeats_{};
};

}  // namespace hschool::sim::hns
