#include "server/hns/leagues/league_request.hpp"

#include <algorithm>
#include <boost/json.hpp>
#include <limits>

#include "league/schedule.hpp"
#include "protocol/utf8.hpp"

namespace hschool::server::hns {

namespace json = boost::json;

namespace {

constexpr std::string_view kBuiltinPrefix = "builtin:";
constexpr std::string_view kCommandPrefix = "cmd:";
constexpr std::string_view kPromptFilePrefix = "prompt:";
constexpr std::string_view kNumericPrefix = "numeric:";
constexpr const char* kKinds = "builtin:burrow, builtin:scatter, builtin:idle, builtin:random, builtin:teacher or prompt";

HubError invalid(std::string detail, const char* code = "invalid-field") { return HubError{400, code, std::move(detail)}; }

// Keys and kinds echoed in errors stay short and printable.
std::string echo(std::string_view text) {
    std::string out;
    for (const char c : text.substr(0, kMaxLeagueEchoBytes)) out += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? '?' : c;
    return out;
}

bool name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
}

// Text without control characters but line breaks and tabs: a prompt is guidance, not a program.
bool clean_prompt(std::string_view text) {
    if (!protocol::is_valid_utf8(text)) return false;
    return std::none_of(text.begin(), text.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return (u < 0x20 && c != '\n' && c != '\r' && c != '\t') || u == 0x7f;
    });
}

struct RawEntrant {
    const json::string* name = nullptr;
    const json::string* kind = nullptr;
    const json::string* prompt = nullptr;
};

// `entrant_prompt`: a prompt entrant's text, when it is one.
std::variant<league::Entrant, HubError> parse_entrant(const json::value& value, std::size_t index, std::string& entrant_prompt) {
    const std::string at = "entrants[" + std::to_string(index) + "]";
    if (!value.is_object()) return invalid(at + ": must be an object {\"name\", \"kind\"}");
    RawEntrant raw;
    for (const auto& [key, v] : value.as_object()) {
        const json::string** slot = key == "name" ? &raw.name : key == "kind" ? &raw.kind : key == "prompt" ? &raw.prompt : nullptr;
        if (slot == nullptr) return invalid(at + "." + echo(key) + ": unknown key (name, kind, prompt)", "unknown-field");
        if (!v.is_string()) return invalid(at + "." + std::string(key) + ": must be a string");
        *slot = &v.as_string();
    }
    if (raw.name == nullptr) return invalid(at + ".name: missing", "missing-field");
    if (raw.kind == nullptr) return invalid(at + ".kind: missing", "missing-field");
    const std::string_view name(*raw.name), kind(*raw.kind);
    if (name.empty() || name.size() > league::kMaxNameBytes || !std::all_of(name.begin(), name.end(), name_char))
        return invalid(at + ".name: 1 to " + std::to_string(league::kMaxNameBytes) + " of A-Z a-z 0-9 . _ -");
    league::Entrant entrant{std::string(name), {}};
    if (kind == kPromptEntrantKind) {
        if (raw.prompt == nullptr) return invalid(at + ".prompt: a prompt entrant needs its prompt text", "missing-field");
        if (raw.prompt->empty() || raw.prompt->size() > kMaxLeaguePromptBytes)
            return invalid(at + ".prompt: 1 to " + std::to_string(kMaxLeaguePromptBytes) + " bytes");
        if (!clean_prompt(*raw.prompt)) return invalid(at + ".prompt: must be UTF-8 text without control characters");
        entrant.kind = league::EntrantKind{league::KindFamily::Prompt, kInlinePromptArg};
        entrant_prompt = std::string(*raw.prompt);
        return entrant;
    }
    if (raw.prompt != nullptr) return invalid(at + ".prompt: only a prompt entrant (\"kind\": \"prompt\") has a prompt");
    if (kind.starts_with(kCommandPrefix))
        return invalid(at + ".kind: a server never runs a command; a league here takes built-in and prompt entrants", "command-refused");
    if (kind.starts_with(kNumericPrefix))
        return invalid(at + ".kind: a server never calls a policy URL a client names; play numeric entrants with hschool-hns league",
                       "numeric-refused");
    if (kind.starts_with(kPromptFilePrefix))
        return invalid(at + ".kind: a server never reads a file a client names; send {\"kind\": \"prompt\", \"prompt\": \"<text>\"}",
                       "file-refused");
    if (!kind.starts_with(kBuiltinPrefix)) return invalid(at + ".kind: unknown '" + echo(kind) + "' (" + kKinds + ")", "unknown-kind");
    auto parsed = league::parse_kind(kind);
    if (!parsed) return invalid(at + ".kind: unknown '" + echo(kind) + "' (" + kKinds + ")", "unknown-kind");
    entrant.kind = std::move(*parsed);
    return entrant;
}

std::optional<HubError> parse_entrants(const json::value& value, LeagueRequest& out) {
    if (!value.is_array()) return invalid("entrants: must be an array of {\"name\", \"kind\"}");
    const auto& array = value.as_array();
    if (array.size() < league::kMinEntrants || array.size() > league::kMaxEntrants)
        return invalid("entrants: " + std::to_string(league::kMinEntrants) + " to " + std::to_string(league::kMaxEntrants) +
                       " entrants (given " + std::to_string(array.size()) + ")");
    for (std::size_t i = 0; i < array.size(); ++i) {
        std::string prompt;
        auto entrant = parse_entrant(array[i], i, prompt);
        if (auto* e = std::get_if<HubError>(&entrant)) return std::move(*e);
        auto& parsed = std::get<league::Entrant>(entrant);
        for (const auto& earlier : out.entrants)
            if (earlier.name == parsed.name)
                return invalid("entrants[" + std::to_string(i) + "].name: '" + parsed.name + "' given twice", "duplicate-name");
        if (is_prompt_entrant(parsed)) out.prompts[parsed.name] = std::move(prompt);
        out.entrants.push_back(std::move(parsed));
    }
    return std::nullopt;
}

}  // namespace

int LeagueRequest::planned() const {
    const long long n = static_cast<long long>(entrants.size());
    return static_cast<int>(n * (n - 1) / 2 * matches);
}

int LeagueRequest::prompt_matches() const {
    const long long n = static_cast<long long>(entrants.size());
    const long long p = std::count_if(entrants.begin(), entrants.end(), is_prompt_entrant);
    // Pairings of a prompt entrant with anyone: all of them but those of two others.
    return static_cast<int>((n * (n - 1) / 2 - (n - p) * (n - p - 1) / 2) * matches);
}

bool is_prompt_entrant(const league::Entrant& entrant) { return entrant.kind.family == league::KindFamily::Prompt; }

std::string entrant_kind_text(const league::Entrant& entrant) {
    return is_prompt_entrant(entrant) ? std::string(kPromptEntrantKind) : entrant.kind.text();
}

std::variant<LeagueRequest, HubError> parse_league_request(std::string_view body, const LeagueRequestLimits& limits) {
    if (body.size() > kMaxLeagueBodyBytes)
        return invalid("the body is over " + std::to_string(kMaxLeagueBodyBytes) + " bytes", "body-too-large");
    json::error_code ec;
    const json::value parsed = json::parse(body, ec);
    if (ec || !parsed.is_object()) return invalid("the body must be a JSON object", "invalid-json");
    LeagueRequest request;
    bool have_entrants = false, have_matches = false;
    for (const auto& [key, value] : parsed.as_object()) {
        if (key == "entrants") {
            if (auto error = parse_entrants(value, request)) return std::move(*error);
            have_entrants = true;
        } else if (key == "matches") {
            const bool integer = value.is_int64() || value.is_uint64();
            const auto n = value.is_int64() ? value.as_int64() : std::numeric_limits<std::int64_t>::max();
            if (!integer || n < 1 || n > league::kMaxMatchesPerPairing)
                return invalid("matches: must be an integer from 1 to " + std::to_string(league::kMaxMatchesPerPairing) + " (per pairing)");
            request.matches = static_cast<int>(n);
            have_matches = true;
        } else if (key == "variant") {
            const auto& names = variant_names();
            if (!value.is_string() || std::find(names.begin(), names.end(), std::string_view(value.as_string())) == names.end())
                return invalid("variant: must be one of default, warren, long-hall, certification");
            request.variant = std::string(value.as_string());
        } else if (key == "seed") {
            if (value.is_null()) continue;  // the server draws one
            if (!value.is_int64()) return invalid("seed: must be an integer from -2^63 to 2^63-1, or null");
            request.seed = value.as_int64();
        } else {
            return invalid(echo(key) + ": unknown key (entrants, matches, variant, seed)", "unknown-field");
        }
    }
    if (!have_entrants) return invalid("entrants: missing", "missing-field");
    if (!have_matches) return invalid("matches: missing (matches per pairing)", "missing-field");
    const long long n = static_cast<long long>(request.entrants.size());
    const long long pairings = n * (n - 1) / 2;
    if (pairings * request.matches > limits.max_planned)
        return invalid("matches: " + std::to_string(pairings) + " pairings x " + std::to_string(request.matches) + " = " +
                           std::to_string(pairings * request.matches) + " matches, over this server's " +
                           std::to_string(limits.max_planned) + " a league",
                       "too-many-league-matches");
    if (limits.max_model_matches && request.prompt_matches() > *limits.max_model_matches)
        return invalid("matches: " + std::to_string(request.prompt_matches()) +
                           " matches with a prompt entrant, each asking this server's language model every turn, over its " +
                           std::to_string(*limits.max_model_matches) + " a league",
                       "too-many-model-matches");
    return request;
}

}  // namespace hschool::server::hns
