#pragma once
// The league's MatchRunner once prompt: or cmd: entrants play (issue 33). A match of built-ins only
// stays headless (league/runner.hpp: in process, fast, unchanged); a match with a prompt: or cmd:
// entrant is played through the project's own hschool-server in drop-in mode (server_match.hpp),
// every seat by a program: built-ins and prompts by `hschool-hns seat`, a cmd: seat by the user's
// command with {url} replaced by the seat's /player URL. Scores go through the same attribution and
// table; how each prompt:/cmd: seat's program ended goes into PlayedMatch::programs.
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "league/runner.hpp"
#include "sim/hns/config.hpp"

namespace hschool::tools::hns {

// A program's time to take its seat: a Python policy with heavy imports is seated well within it.
inline constexpr long long kLeagueDefaultProgramGrace = 20;
inline constexpr long long kLeagueMinProgramGrace = 1;
inline constexpr long long kLeagueMaxProgramGrace = 300;
// A server match is killed this long past its own wall-clock budget (the server stops it there).
inline constexpr std::chrono::seconds kMatchWallMargin{60};

struct ServerRunnerOptions {
    std::filesystem::path server;  // hschool-server
    std::filesystem::path tool;    // hschool-hns, for the seat programs
    std::filesystem::path out;     // the league's folder: logs/<id>/ per server match
    std::string variant = "certification";
    std::chrono::seconds grace{kLeagueDefaultProgramGrace};
};

// True when an entrant is prompt: or cmd: (its matches need the server).
bool needs_server(const std::vector<league::Entrant>& entrants);

// hschool-server: `given` when set; else beside this program, the build tree's layout
// (tools/hns/../../), then PATH.
league::Result<std::filesystem::path> find_server(const std::string& given);

// {url} in a cmd: command, as one shell word (single-quoted: the URL holds '&').
std::string command_line(const std::string& command, const std::string& url);

class ServerRunner final : public league::MatchRunner {
public:
    // Fails for an unknown variant, rooms that do not load, or a prompt file that cannot be a prompt.
    static league::Result<std::unique_ptr<ServerRunner>> create(const std::vector<league::Entrant>& entrants,
                                                                ServerRunnerOptions options, const std::string& roomsDir);
    league::Result<league::PlayedMatch> play(const league::ScheduledMatch& match) const override;
    // One line per prompt:/cmd: entrant: how its programs ended, how often prompts fell back.
    std::vector<std::string> notes() const;

private:
    ServerRunner() = default;
    struct Tally {
        std::map<std::string, int> endings;  // cmd: seats by how their program ended
        int modelTurns = 0, fallbackTurns = 0;
        std::map<std::string, int> causes;  // prompt fallbacks by cause
    };
    std::unique_ptr<league::HeadlessRunner> headless_;
    std::vector<league::Entrant> entrants_;
    std::map<std::string, std::string> prompts_;  // entrant → its prompt file, absolute
    sim::hns::GameConfig base_;
    ServerRunnerOptions options_;
    mutable std::mutex mutex_;
    mutable std::map<std::string, Tally> tallies_;
};

}  // namespace hschool::tools::hns
