#include "server/hns/leagues/league_runner.hpp"

#include <boost/json.hpp>

#include <algorithm>

#include "league/prompt_turns.hpp"
#include "league/seat_source.hpp"
#include "server/hns/leagues/league_request.hpp"
#include "sim/hns/baselines.hpp"
#include "sim/hns/match.hpp"
#include "sim/hns/room_files.hpp"

namespace hschool::server::hns {

namespace json = boost::json;
namespace sh = sim::hns;

namespace {

league::Result<LeagueRunner::Outcome> fail(const league::ScheduledMatch& match, const std::string& message) {
    return league::Result<LeagueRunner::Outcome>(hschool::unexpected("match " + match.id + ": " + message));
}

std::string text_of(const json::object& o, const char* key) {
    const auto* v = o.if_contains(key);
    return v && v->is_string() ? std::string(v->as_string()) : std::string();
}

}  // namespace

league::Result<sh::GameConfig> league_variant_config(const std::string& variant) {
    using R = league::Result<sh::GameConfig>;
    if (variant == "default") return R(sh::GameConfig{});
    auto config = sh::variant_config(variant);
    if (!config) return R(hschool::unexpected(config.error));
    return R(*config);
}

league::Result<std::unique_ptr<LeagueRunner>> LeagueRunner::create(const std::vector<league::Entrant>& entrants,
                                                                   const std::string& variant, LlmSettings llm,
                                                                   std::map<std::string, std::string> prompts) {
    using R = league::Result<std::unique_ptr<LeagueRunner>>;
    auto config = league_variant_config(variant);
    if (!config) return R(hschool::unexpected(config.error()));
    std::unique_ptr<LeagueRunner> runner(new LeagueRunner());
    runner->base_ = *config;
    runner->variant_ = variant;
    runner->llm_ = std::move(llm);
    for (const league::Entrant& e : entrants) {
        if (is_prompt_entrant(e)) {
            auto it = prompts.find(e.name);
            runner->prompts_[e.name] = it != prompts.end() ? std::move(it->second) : std::string();
            continue;
        }
        auto policy = league::make_seat_source(e.kind)->headless_policy();
        if (!policy) return R(hschool::unexpected("entrant " + e.name + " (" + e.kind.text() + "): a server never runs a command"));
        runner->policies_[e.name] = std::move(policy);
    }
    // A missing room folder fails here, before the league's first match.
    if (auto pinned = sh::resolve_room_spec(runner->base_); !pinned) return R(hschool::unexpected(pinned.error));
    return R(std::move(runner));
}

league::Result<LeagueRunner::Outcome> LeagueRunner::play_full(const league::ScheduledMatch& match,
                                                              const std::function<bool()>& stop) const {
    sh::GameConfig config = base_;
    config.seed = match.seed;
    auto pinned = sh::resolve_room_spec(config);
    if (!pinned) return fail(match, pinned.error);
    sh::MatchOptions options;
    std::array<std::optional<std::string>, kSeats> prompts;
    for (int s = 0; s < league::kSeats; ++s) {
        if (const auto it = prompts_.find(match.seats[s]); it != prompts_.end()) {
            prompts[static_cast<std::size_t>(s)] = it->second;
            continue;
        }
        const auto it = policies_.find(match.seats[s]);
        if (it == policies_.end()) return fail(match, "no entrant named " + match.seats[s]);
        options.policies[s] = it->second;
    }
    // One model client and one memory per match, shared by its prompt seats.
    std::shared_ptr<PromptTurns> turns;
    if (std::any_of(prompts.begin(), prompts.end(), [](const auto& p) { return p.has_value(); })) {
        turns = std::make_shared<PromptTurns>(llm_, *pinned, prompts, stop);
        for (int s = 0; s < league::kSeats; ++s)
            if (turns->prompt_slot(s)) options.policies[s] = std::make_shared<LeaguePromptSeat>(turns);
    }
    auto outcome = sh::run_match(*pinned, options);
    if (!outcome) return fail(match, outcome.error);
    // run_match seats seat s in slot s, so the results' arrays are by slot.
    json::error_code ec;
    const auto results = json::parse(outcome->results, ec);
    const auto* scores = !ec && results.is_object() ? results.as_object().if_contains("scores") : nullptr;
    if (scores == nullptr || !scores->is_array() || scores->as_array().size() != league::kSeats)
        return fail(match, "the results carry no six scores");
    Outcome out;
    for (int s = 0; s < league::kSeats; ++s) {
        const auto& v = scores->as_array()[s];
        if (!v.is_number()) return fail(match, "a score is not a number");
        out.played.scores[s] = v.to_number<double>();
    }
    out.played.replay = std::move(outcome->replay);
    out.played.gameVersion = std::string(sh::game_version_text(pinned->gameVersion));
    out.results_json = std::move(outcome->results);
    out.final_tick = outcome->finalTick;
    for (int s = 0; turns && s < league::kSeats; ++s) {
        if (!turns->prompt_slot(s)) continue;
        const PromptSeatTally& tally = turns->tally(s);
        out.prompt[static_cast<std::size_t>(s)] = tally;
        out.played.programs[static_cast<std::size_t>(s)] = league::prompt_turns_note(tally.model_turns, tally.fallback_turns, tally.causes);
    }
    return out;
}

league::Result<league::PlayedMatch> LeagueRunner::play(const league::ScheduledMatch& match) const {
    auto outcome = play_full(match);
    if (!outcome) return league::Result<league::PlayedMatch>(hschool::unexpected(outcome.error()));
    return league::Result<league::PlayedMatch>(std::move(outcome->played));
}

MatchView LeagueRunner::archived_view(const std::string& id, const league::ScheduledMatch& match, const Outcome& outcome,
                                      std::int64_t finished_at_ms) const {
    MatchView v;
    v.id = id;
    v.variant = variant_;
    v.game_version = outcome.played.gameVersion;
    v.phase = "finished";
    v.match_phase = "hunt";
    v.tick = outcome.final_tick;
    v.fast_mode = true;
    v.finished_at_ms = finished_at_ms;
    json::error_code ec;
    const auto results = json::parse(outcome.results_json, ec);
    if (!ec && results.is_object()) {
        v.end_reason = text_of(results.as_object(), "reason");
        if (const auto* games = results.as_object().if_contains("games"); games && games->is_int64())
            v.games = v.game = static_cast<int>(games->as_int64());
    }
    for (int s = 0; s < league::kSeats; ++s) {
        SeatView seat;
        seat.slot = s;
        seat.identity = "Cog" + std::to_string(s + 1);  // run_match's join names
        seat.kind = prompts_.count(match.seats[s]) ? "prompt" : "scripted";
        seat.label = match.seats[s];  // the entrant
        v.seats.push_back(std::move(seat));
    }
    return v;
}

}  // namespace hschool::server::hns
