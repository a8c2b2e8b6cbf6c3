#pragma once
// A league's matches inside the server (issue 33): headless, in process, on the leagues' own
// low-priority thread, each played as `hschool-hns run` plays one (sim::hns::run_match with the
// match's seed and seats). Built-ins play their policies; a prompt entrant's seats ask the server's
// language model every decision turn as a live prompt seat does (league_prompt_seats.hpp), or,
// with no model configured, play burrow with cause no_credentials, and the table says so.
#include <array>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "league/runner.hpp"
#include "server/hns/leagues/league_prompt_seats.hpp"
#include "server/hns/llm/llm_settings.hpp"
#include "server/hns/contract/match_view.hpp"
#include "sim/hns/config.hpp"
#include "sim/hns/seat_policy.hpp"

namespace hschool::server::hns {

// A league's variant as a config: "default" is the server's default match (GameConfig{}), the
// others the sim's variants. Seed unpinned: each match pins its own.
league::Result<sim::hns::GameConfig> league_variant_config(const std::string& variant);

class LeagueRunner final : public league::MatchRunner {
public:
    // Fails for an unknown variant or rooms that do not load (it reads the room files: call it off
    // the network threads). `prompts`: each prompt entrant's guidance, by name (kept in memory only).
    static league::Result<std::unique_ptr<LeagueRunner>> create(const std::vector<league::Entrant>& entrants,
                                                                const std::string& variant, LlmSettings llm = {},
                                                                std::map<std::string, std::string> prompts = {});

    struct Outcome {
        league::PlayedMatch played;  // programs: each prompt seat's prompt_turns_note
        std::string results_json;    // the sim's results document, for the archive's row
        int final_tick = 0;
        std::array<PromptSeatTally, league::kSeats> prompt;  // by slot; zero for other seats
    };
    // Thread-safe (const): one runner serves every job of its league. `stop()` true (the league is
    // stopping): prompt seats ask no more and the match ends as fast as a match of built-ins.
    league::Result<Outcome> play_full(const league::ScheduledMatch& match, const std::function<bool()>& stop = {}) const;
    league::Result<league::PlayedMatch> play(const league::ScheduledMatch& match) const override;

    bool prompt_seat(const std::string& entrant) const { return prompts_.count(entrant) > 0; }
    bool model_configured() const { return llm_.transport != LlmTransport::None; }

    // The archive's summary of one of its matches (what GET /api/hns/matches/{id} and the replay view show).
    MatchView archived_view(const std::string& id, const league::ScheduledMatch& match, const Outcome& outcome,
                            std::int64_t finished_at_ms) const;

private:
    LeagueRunner() = default;
    sim::hns::GameConfig base_;
    std::string variant_;
    LlmSettings llm_;
    std::map<std::string, std::shared_ptr<const sim::hns::SeatPolicy>> policies_;  // built-ins, by entrant name
    std::map<std::string, std::string> prompts_;  // prompt entrants' guidance, by name (never recorded)
};

}  // namespace hschool::server::hns
