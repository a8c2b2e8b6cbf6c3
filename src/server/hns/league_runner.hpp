#pragma once
// A league's matches inside the server (issue 33): headless, in process, on the leagues' own
// low-priority thread, each played as `hschool-hns run` plays one (sim::hns::run_match with the
// match's seed and seats). Built-ins play their policies; a prompt entrant's seats play as a live
// prompt seat with no model to ask plays them: the burrow order every turn (resolve_prompt_turn,
// cause no_credentials), and the table says so.
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "league/runner.hpp"
#include "server/hns/match_view.hpp"
#include "sim/hns/config.hpp"
#include "sim/hns/seat_policy.hpp"

namespace hschool::server::hns {

// The replay's register record for a prompt entrant's seat (its baseline text reads as burrow).
inline constexpr const char* kPromptFallbackPolicy = "prompt-fallback";
// results[].programs of a prompt entrant's seat: no model was asked, burrow played every turn.
inline constexpr const char* kPromptFallbackNote = "no model: prompt fallback every turn (no_credentials)";

// A league's variant as a config: "default" is the server's default match (GameConfig{}), the
// others the sim's variants. Seed unpinned: each match pins its own.
league::Result<sim::hns::GameConfig> league_variant_config(const std::string& variant);

class LeagueRunner final : public league::MatchRunner {
public:
    // Fails for an unknown variant or rooms that do not load (it reads the room files: call it off
    // the network threads).
    static league::Result<std::unique_ptr<LeagueRunner>> create(const std::vector<league::Entrant>& entrants,
                                                                const std::string& variant);

    struct Outcome {
        league::PlayedMatch played;
        std::string results_json;  // the sim's results document, for the archive's row
        int final_tick = 0;
    };
    // Thread-safe (const): one runner serves every job of its league.
    league::Result<Outcome> play_full(const league::ScheduledMatch& match) const;
    league::Result<league::PlayedMatch> play(const league::ScheduledMatch& match) const override;

    // The archive's summary of one of its matches (what GET /api/hns/matches/{id} and the replay view show).
    bool prompt_seat(const std::string& entrant) const { return prompt_entrants_.count(entrant) > 0; }

    MatchView archived_view(const std::string& id, const league::ScheduledMatch& match, const Outcome& outcome,
                            std::int64_t finished_at_ms) const;

private:
    LeagueRunner() = default;
    sim::hns::GameConfig base_;
    std::string variant_;
    std::map<std::string, std::shared_ptr<const sim::hns::SeatPolicy>> policies_;  // by entrant name
    std::set<std::string> prompt_entrants_;
};

// The policy a prompt entrant's seats play while no model can be asked.
std::shared_ptr<const sim::hns::SeatPolicy> prompt_fallback_seat();

}  // namespace hschool::server::hns
