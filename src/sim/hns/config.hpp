#pragma once
// The game's configuration (spec §3.1): every key the reference's `update` accepts, with its
// default and range, the three shipped variants by name, and JSON in and out. Integer keys must
// be JSON integers; an unknown key or a value out of range is an error naming the key.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/hns/expected.hpp"
#include "sim/hns/game_version.hpp"

namespace hschool::sim::hns {

enum class Team : int { Red = 0, Blue = 1 };  // Red hides, Blue seeks (per game)

struct SlotConfig {
    std::string name;  // from players[i].name
    std::string token;
    Team team = Team::Red;
    bool has_team = false;
    std::uint8_t color = 0;
    bool has_color = false;
};

struct GameConfig {
    int motionScale = 256;
    int accel = 76;
    int frictionNum = 144;
    int frictionDen = 256;
    int maxSpeed = 704;
    int stopThreshold = 8;
    int playerBouncePct = 40;
    std::int64_t seed = 0xA6019;  // the reference's "unpinned" default
    int speed = 1;
    int aimTurnRate = 6;
    int sightRange = 340;
    int visionConeDeg = 35;
    int visionBubble = 48;
    int carrySpeedPct = 55;
    int grabReach = 30;
    int lockReach = 30;
    int vaultSpanPx = 112;
    int vaultTicks = 10;
    int keepClearPx = 96;
    int crates = 4;
    int panels = 2;
    int ramps = 2;
    std::string roomPool = "all";
    int turnTicks = 90;
    int prepTurns = 4;
    int huntTurns = 8;
    int maxGames = 2;
    int minPlayers = 6;
    int numAgents = 6;
    int startWaitTicks = 120;
    int lobbyJoinTimeoutTicks = 2400;
    int gameOverTicks = 240;
    bool closedRoster = false;
    bool showPlayerLabels = false;
    bool fastMode = true;
    int turnBudgetMs = 16000;
    int attempt1Ms = 7000;
    int retryMs = 3000;
    int turnSpacingMs = 13000;
    int wallClockBudgetSeconds = 660;
    std::string model;
    int maxOutputTokens = 700;
    std::vector<SlotConfig> slots;
    std::string mapSpec;  // compact room document; empty until resolved
    // The rules this match plays by (config key "gameVersion": "1" or "2"). Not in the config
    // echo: a replay carries it in its header, as the reference's does.
    GameVersion gameVersion = kCurrentGameVersion;

    int prepTicks() const { return prepTurns * turnTicks; }
    int huntTicks() const { return huntTurns * turnTicks; }
    int maxTicks() const { return (prepTurns + huntTurns) * turnTicks; }
    int maxSpeedFor(bool holding) const { return holding ? maxSpeed * carrySpeedPct / 100 : maxSpeed; }
};

inline constexpr std::int64_t kUnpinnedSeed = 0xA6019;
inline constexpr std::size_t kMaxConfigBytes = 1 << 20;  // a config echo is a few KiB

// The shipped variants: "warren", "long-hall", "certification".
Expected<GameConfig> variant_config(std::string_view name);

// Applies a JSON object's keys over `base` and validates the result.
Expected<GameConfig> apply_config_json(GameConfig base, std::string_view json_text);

// Checks every range and cross-key rule; empty when valid, else the message naming the key.
std::string validate_config(const GameConfig& config);

// The config echo, in the reference's key order, with mapSpec as an object when set.
std::string config_to_json(const GameConfig& config);

}  // namespace hschool::sim::hns
