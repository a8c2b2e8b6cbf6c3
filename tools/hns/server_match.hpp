#pragma once
// One league match through the project's own server (issue 33): hschool-server in drop-in mode on
// a free loopback port with the match's config and six seat tokens, then six seat programs, each
// dialling its seat's /player URL. The runner watches the lobby over the REST: a program that
// ends before its seat is taken, or stays silent for the grace, gets a stand-in that registers as
// burrow, so the server's burrow plays the seat and the other seats keep their own policies (the
// lobby admits slots in order, and its timeout would seat burrow in every later slot too). After
// the match every program gets a few seconds to leave; then its process group is killed.
#include <array>
#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "league/entrant.hpp"

namespace hschool::tools::hns {

inline constexpr int kMatchSeats = 6;
// Passed to the server, so the lobby's fast-mode tick rate (and its timeout below) is known.
inline constexpr int kServerMaxTicksPerSecond = 4000;
// Lobby ticks allowed beyond the grace: a stand-in is seated within a second of its start.
inline constexpr int kLobbySlackSeconds = 30;

struct MatchPlan {
    std::string id;
    std::string config_json;  // the drop-in config: variant, seed, tokens, lobby timeout
    // The argv of slot s's program, given its /player URL (the port is known only once the server listens).
    std::array<std::function<std::vector<std::string>(const std::string& url)>, kMatchSeats> program;
    std::array<bool, kMatchSeats> reported{};  // its ending goes into league.json (prompt:, cmd:)
    std::array<std::string, kMatchSeats> tokens;
    std::filesystem::path server, tool;  // hschool-server; hschool-hns (the stand-ins)
    std::filesystem::path logs;          // server.log and seat<N>.log stay here; scratch/ is removed
    std::chrono::seconds grace{20};      // a program's time to take its seat
    std::chrono::seconds wall{600};      // the whole match at most, then everything is killed
};

struct MatchRun {
    std::string results;  // the server's results JSON
    std::string replay;   // COWLDHNS bytes
    std::array<std::string, kMatchSeats> endings;  // for reported seats: "exit 0", "silent: …", …
};

// The seat's /player URL on 127.0.0.1:port.
std::string player_url(std::uint16_t port, int slot, const std::string& token);

// Fails only when the server cannot run the match (no start, no results): never for a program.
league::Result<MatchRun> run_server_match(const MatchPlan& plan);

}  // namespace hschool::tools::hns
