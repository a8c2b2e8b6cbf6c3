// libFuzzer: the body of POST /api/hns/leagues (issue 33). No input may crash or hang; an accepted
// one always holds 2 to 16 uniquely named built-in or prompt entrants (never a command) and at most
// the league's budgets of matches (all, and with a prompt entrant when a model is configured).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string_view>

#include "league/schedule.hpp"
#include "server/hns/leagues/league_request.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace hns = hschool::server::hns;
    namespace league = hschool::league;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (const hns::LeagueRequestLimits limits : {hns::LeagueRequestLimits{1000, std::nullopt}, hns::LeagueRequestLimits{7, 3}}) {
        const auto parsed = hns::parse_league_request(text, limits);
        if (const auto* error = std::get_if<hns::HubError>(&parsed)) {
            if (error->status != 400 || error->code.empty() || error->detail.empty()) std::abort();
            continue;
        }
        const auto& request = std::get<hns::LeagueRequest>(parsed);
        if (request.entrants.size() < league::kMinEntrants || request.entrants.size() > league::kMaxEntrants) std::abort();
        if (request.matches < 1 || request.matches > league::kMaxMatchesPerPairing || request.planned() > limits.max_planned) std::abort();
        if (limits.max_model_matches && request.prompt_matches() > *limits.max_model_matches) std::abort();
        if (request.prompts.size() > request.entrants.size()) std::abort();
        std::set<std::string> names;
        for (const auto& e : request.entrants) {
            if (e.kind.family == league::KindFamily::Command || !names.insert(e.name).second) std::abort();
            // A prompt entrant carries its text (1 to kMaxLeaguePromptBytes), and nothing else does.
            const auto text = request.prompts.find(e.name);
            if (hns::is_prompt_entrant(e) != (text != request.prompts.end())) std::abort();
            if (hns::is_prompt_entrant(e) && (e.kind.arg != hns::kInlinePromptArg || text->second.empty() ||
                                              text->second.size() > hns::kMaxLeaguePromptBytes))
                std::abort();
            (void)hns::entrant_kind_text(e);
        }
    }
    return 0;
}
