#pragma once
// The episode's events file (COGAME_EVENTS_URI): the cogame family's JSON lines, one row per event
// ({"tick","kind","source","target","subject","amount","x","y","heading_brads","content"}) and the
// mandatory trailing {"type":"summary","ticks","events","gameVersion"} row, so a reader can tell "no
// events" from "cut short". Derived after the episode by re-stepping its replay, as the reference's
// extractor does: nothing here runs in (or slows) the live match, and nothing enters gameHash.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "sim/hns/expected.hpp"
#include "sim/hns/game_version.hpp"

namespace hschool::server::hns {

// A longer episode keeps its first events and says in the summary how many it dropped.
inline constexpr std::size_t kMaxEpisodeEvents = 100'000;

struct EpisodeEvent {
    int tick = 0;
    std::string kind;  // phase, release, grab, drop, lock, unlock, lock_refused, vault, spotted, lost,
                       // sealed, unsealed, shout, turn, directive, fallback
    int source = -1;   // the cog that did it (-1: the game)
    int target = -1;   // the cog or object it was done to
    std::string subject;
    int amount = 0;
    int x = 0, y = 0;
    int heading_brads = 0;
    std::string content;
};

// The JSON-lines text of `events` and the summary row, which names the replay's game version
// (`dropped` > 0 adds "dropped").
std::string events_jsonl(const std::vector<EpisodeEvent>& events, int ticks, sim::hns::GameVersion version,
                         std::size_t dropped = 0);

// Re-steps the replay (COWLDHNS bytes) and returns its events file; an error when it cannot be read.
sim::hns::Expected<std::string> episode_events_jsonl(std::string_view replay_bytes);

}  // namespace hschool::server::hns
