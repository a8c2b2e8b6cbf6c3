#include "server/hns/leagues/league_match.hpp"

#include "server/hns/contract/match_view.hpp"
#include "store/hns_archive.hpp"
#include "util/log.hpp"
#include "util/wall_clock.hpp"

namespace hschool::server::hns {

PlayedLeagueMatch play_league_match(const LeagueMatchSetup& league, std::shared_ptr<const LeagueRunner> runner, const LlmSettings& llm,
                                    const league::ScheduledMatch& match) {
    using Outcome = Expected<LeagueRunner::Outcome>;
    if (!runner) {
        auto made = LeagueRunner::create(league.entrants, league.variant, llm, league.prompts);
        if (!made) return {nullptr, Outcome::fail(made.error())};
        runner = std::move(*made);
    }
    // A stop lets prompt seats stop asking the model: the match then ends at built-in speed.
    auto played = runner->play_full(match, [&halted = league.halted] { return halted.load(); });
    if (!played) return {std::move(runner), Outcome::fail(played.error())};
    return {std::move(runner), Outcome::ok(std::move(*played))};
}

Expected<Done> archive_league_match(store::HnsArchive& archive, const std::string& id, const std::string& variant,
                                    const std::string& owner_hash, const LeagueRunner& runner, const league::ScheduledMatch& match,
                                    const LeagueRunner::Outcome& outcome, std::size_t max_archived) {
    store::ArchivedMatch row;
    row.id = id;
    row.variant = variant;
    row.finished_at_ms = util::unix_ms();
    row.final_tick = outcome.final_tick;
    const MatchView view = runner.archived_view(id, match, outcome, row.finished_at_ms);
    row.end_reason = view.end_reason;
    row.results_json = outcome.results_json;
    row.summary_json = match_view_json(view, false);
    row.owner_hash = owner_hash;
    row.kind = store::kArchiveKindLeague;
    if (auto saved = archive.save(row, outcome.played.replay); !saved) return Expected<Done>::fail(saved.error().message);
    if (auto trimmed = archive.trim(store::kArchiveKindLeague, max_archived); !trimmed)
        logging::error("event=hns_league_trim_failed error=\"{}\"", trimmed.error().message);
    return Expected<Done>::ok({});
}

}  // namespace hschool::server::hns
