#pragma once
// Playing one scheduled match (issue 33). MatchRunner is the seam: the headless runner here plays
// built-in entrants in process exactly as `hschool-hns run` does; the server-backed runner of
// `hschool-hns league` (tools/hns/server_runner.hpp: prompt: and cmd: seats through hschool-server)
// implements the same call. play() runs on --jobs threads at once.
#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "league/entrant.hpp"
#include "league/schedule.hpp"
#include "sim/hns/config.hpp"
#include "sim/hns/seat_policy.hpp"

namespace hschool::league {

struct PlayedMatch {
    std::array<double, kSeats> scores{};  // by slot
    std::string replay;                   // COWLDHNS bytes
    std::string gameVersion;              // the rules it was played by, as its replay's header says
    std::array<std::string, kSeats> programs;  // how each cmd:/prompt: seat's program ended; empty otherwise
};

class MatchRunner {
public:
    virtual ~MatchRunner() = default;
    virtual Result<PlayedMatch> play(const ScheduledMatch& match) const = 0;
};

class HeadlessRunner final : public MatchRunner {
public:
    // Fails for an unknown variant, rooms that do not load, or an entrant that needs a server.
    static Result<std::unique_ptr<HeadlessRunner>> create(const std::vector<Entrant>& entrants, const std::string& variant,
                                                          const std::string& roomsDir);
    Result<PlayedMatch> play(const ScheduledMatch& match) const override;

private:
    HeadlessRunner() = default;
    sim::hns::GameConfig base_;
    std::string roomsDir_;
    // The pool's rooms as pinned documents, read once: a match needs only its seed's (issue 42).
    std::map<std::string, std::string> roomSpecs_;
    std::map<std::string, std::shared_ptr<const sim::hns::SeatPolicy>> policies_;  // by entrant name
};

}  // namespace hschool::league
