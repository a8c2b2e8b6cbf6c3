#pragma once
// The body of POST /api/hns/leagues (issue 33): peer input, parsed into the league library's
// entrants without touching the sim, the files or a model (fuzzed: fuzz/fuzz_hns_league_request.cpp).
// Built-in and prompt entrants only: a server never runs a command and never reads a file a
// client names, so `cmd:` and `prompt:FILE` are refused and a prompt comes as text.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "league/entrant.hpp"
#include "server/hns/contract/match_request.hpp"

namespace hschool::server::hns {

// The transport refuses longer bodies anyway (net::kMaxHttpBodyBytes); the parser keeps its own bound.
inline constexpr std::size_t kMaxLeagueBodyBytes = 64 * 1024;
// A prompt entrant's text: the live prompt seat's operator guidance is cut at 4,000 runes.
inline constexpr std::size_t kMaxLeaguePromptBytes = 4096;
// Unknown keys and kinds are echoed back this short.
inline constexpr std::size_t kMaxLeagueEchoBytes = 64;
// The kind a client names for a prompt entrant, and the argument its league::EntrantKind carries
// (a label, never a path: the text itself is checked and not kept).
inline constexpr const char* kPromptEntrantKind = "prompt";
inline constexpr const char* kInlinePromptArg = "inline";

// Matches with a prompt seat in one league when a language model is configured
// (--hns-max-league-model-matches; more: 400): each asks the operator's model ~100 times.
inline constexpr int kDefaultMaxLeagueModelMatches = 20;

struct LeagueRequestLimits {
    int max_planned = 0;  // pairings x matches in one league (this server's budget)
    // Set when a model is configured: matches with a prompt entrant in one league (its calls cost the operator).
    std::optional<int> max_model_matches;
};

struct LeagueRequest {
    std::vector<league::Entrant> entrants;  // a prompt entrant: KindFamily::Prompt, arg kInlinePromptArg
    std::map<std::string, std::string> prompts;  // a prompt entrant's text, by name (memory only, never shown)
    int matches = 0;                        // per pairing
    std::string variant = "default";
    std::optional<std::int64_t> seed;       // none: the server draws one
    int planned() const;                    // pairings x matches
    int prompt_matches() const;             // of those, the matches of pairings with a prompt entrant
};

// The error names the key at fault ("entrants[2].kind: ..."), as POST /api/hns/matches does.
std::variant<LeagueRequest, HubError> parse_league_request(std::string_view body, const LeagueRequestLimits& limits);

// The kind as a client gave it: "builtin:burrow", or "prompt".
std::string entrant_kind_text(const league::Entrant& entrant);
bool is_prompt_entrant(const league::Entrant& entrant);

}  // namespace hschool::server::hns
