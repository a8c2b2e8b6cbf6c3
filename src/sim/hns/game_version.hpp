#pragma once
// Which rules a match plays by. The reference's GameVersion "1" is the game as our port was first
// written; "2" adds its review fixes (F1 seats remember the enemies they saw, F6 baselines chase
// from 440 px, F7 every held object is dropped at the prep->hunt switch and when a game ends).
// A replay names its version in its header and is re-stepped by that version's rules, so old
// matches stay watchable; new matches play the current version unless a config asks otherwise.
#include <optional>
#include <string_view>

namespace hschool::sim::hns {

enum class GameVersion : int { V1 = 1, V2 = 2 };

inline constexpr GameVersion kCurrentGameVersion = GameVersion::V2;

// "1" or "2": the replay header's and the results' spelling.
constexpr std::string_view game_version_text(GameVersion v) { return v == GameVersion::V1 ? "1" : "2"; }

constexpr std::optional<GameVersion> parse_game_version(std::string_view text) {
    if (text == "1") return GameVersion::V1;
    if (text == "2") return GameVersion::V2;
    return std::nullopt;
}

// F7: holders drop what they hold at the prep->hunt switch and at the top of finishGame.
constexpr bool drops_held_objects(GameVersion v) { return v >= GameVersion::V2; }
// F1: the seats' driver reports the enemy a cog saw within the memory window (chase, flinch,
// seen_enemies); GameVersion 1's knownEnemy had no success path.
constexpr bool seats_remember_enemies(GameVersion v) { return v >= GameVersion::V2; }

}  // namespace hschool::sim::hns
