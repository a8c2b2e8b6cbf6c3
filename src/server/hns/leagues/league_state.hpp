#pragma once
// One league's state, shared by the hub's REST side (league_hub.cpp) and its threads
// (league_worker.cpp); every field is guarded by LeagueHub::mutex_ unless it says otherwise.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "league/schedule.hpp"
#include "league/table.hpp"
#include "server/hns/leagues/league_hub.hpp"
#include "server/hns/leagues/league_runner.hpp"

namespace hschool::server::hns {

struct LeagueHub::League {
    // Set at creation, never changed after: a league thread reads them without the lock.
    std::int64_t number = 0;
    std::string id;  // "l<number>"
    std::vector<league::Entrant> entrants;
    league::Schedule schedule;
    std::string variant;
    std::int64_t seed = 0;
    std::string owner_hash, address;
    std::int64_t created_at_ms = 0;
    std::map<std::string, std::string> prompts;  // prompt entrants' text: sent to the model only, never shown or logged

    // Set (under the lock) when it stops or the server does; read without it by a match's prompt seats.
    std::atomic<bool> halted{false};

    league::LeagueState state = league::LeagueState::Running;
    std::string error;  // why it stopped by itself
    std::int64_t ended_at_ms = 0;
    std::shared_ptr<const LeagueRunner> runner;  // made by a league thread before its first match (it reads the rooms)
    std::size_t next = 0;  // the next schedule index to hand out
    int in_flight = 0;     // matches being played or archived
    std::vector<league::MatchResult> results;  // replay: the archived match's id
    std::map<std::string, PromptSeatTally> prompt_turns;  // each prompt entrant's turns, summed over its matches
    bool forgotten = false;  // deleted or pushed out: matches still in flight remove their own replays

    // The table, refitted by a league thread: `dirty` once results or the state changed since.
    bool dirty = true;
    std::uint64_t fits_started = 0, fit_shown = 0;  // a slower, older fit never replaces a newer one
    std::chrono::steady_clock::time_point fitted_at{};
    std::shared_ptr<const std::string> table;
};

struct LeagueHub::Job {
    std::shared_ptr<League> league;
    league::ScheduledMatch match;
};

}  // namespace hschool::server::hns
