#include "server/hns/contract/admission.hpp"

#include <algorithm>
#include <charconv>

#include "content/text_rules.hpp"
#include "server/hns/contract/limits.hpp"
#include "server/hns/contract/text.hpp"

namespace hschool::server::hns {
namespace {

bool contains(const std::vector<std::string>& list, const std::string& value) {
    return std::find(list.begin(), list.end(), value) != list.end();
}

bool has_configured_tokens(const Roster& roster) {
    return std::any_of(roster.slots.begin(), roster.slots.end(), [](const auto& s) { return !s.token.empty(); });
}

bool token_configured(const Roster& roster, const std::string& token) {
    return std::any_of(roster.slots.begin(), roster.slots.end(), [&](const auto& s) { return s.token == token; });
}

// Rule 3: a configured name and token must both match; a slot beyond the roster has neither.
bool slot_auth_matches(const Roster& roster, int slot, const std::string& identity, const std::string& token) {
    if (slot < 0 || slot >= static_cast<int>(roster.slots.size())) return true;
    const auto& configured = roster.slots[static_cast<std::size_t>(slot)];
    if (!configured.name.empty() && identity != configured.name) return false;
    if (!configured.token.empty() && token != configured.token) return false;
    return true;
}

int slot_limit(const Roster& roster) {
    return roster.closed ? static_cast<int>(roster.slots.size()) : kMaxPlayers;
}

}  // namespace

int parse_slot(std::string_view text) {
    const std::string trimmed = strip(text);
    if (trimmed.empty()) return kAutoSlot;
    int value = 0;
    const char* first = trimmed.data();
    const char* last = first + trimmed.size();
    if (*first == '+') ++first;  // Nim's parseInt accepts a leading '+'
    const auto [ptr, ec] = std::from_chars(first, last, value);
    if (ec != std::errc{} || ptr != last || first == last) return kMaxPlayers;
    if (value < 0 || value >= kMaxPlayers) return kMaxPlayers;
    return value;
}

PlayerRequest player_request(const QueryParams& query) {
    return PlayerRequest{clean_player_name(query.get("name")), parse_slot(query.get("slot")), strip(query.get("token"))};
}

Roster roster_of(const sim::hns::GameConfig& config) {
    Roster roster;
    roster.slots = config.slots;
    roster.closed = config.closedRoster;
    return roster;
}

std::string resolve_identity(const PlayerRequest& request, const Roster& roster) {
    if (!request.name.empty()) return request.name;
    if (request.slot >= 0 && request.slot < static_cast<int>(roster.slots.size())) {
        const auto& configured = roster.slots[static_cast<std::size_t>(request.slot)];
        if (!configured.name.empty() && configured.token == request.token) return configured.name;
    }
    for (int n = 1;; ++n) {
        std::string generated = "Player" + std::to_string(n);
        if (!contains(roster.names_in_use, generated)) return generated;
    }
}

bool join_allowed(const Roster& roster, const std::string& identity, int slot, const std::string& token) {
    if (slot >= slot_limit(roster)) return false;
    if (!token.empty() && has_configured_tokens(roster) && !token_configured(roster, token)) return false;
    if (slot >= 0) return slot_auth_matches(roster, slot, identity, token);
    for (std::size_t i = 0; i < roster.slots.size(); ++i) {
        const auto& configured = roster.slots[i];
        const bool name_match = !configured.name.empty() && configured.name == identity;
        const bool token_match = !configured.token.empty() && !token.empty() && configured.token == token;
        if (name_match || token_match) return slot_auth_matches(roster, static_cast<int>(i), identity, token);
    }
    return !roster.closed;
}

std::string join_error(const Roster& roster, const std::string& identity, int slot, const std::string& token) {
    if (join_allowed(roster, identity, slot, token)) return {};
    if (slot >= kMaxPlayers) return "Player slot must be between 0 and " + std::to_string(kMaxPlayers - 1) + ".";
    if (slot >= static_cast<int>(roster.slots.size())) {
        if (roster.closed) return "Player slot is outside configured roster.";
        // Open roster, unconfigured token: refused (rule 2), under the generic reason.
        return "Player credentials do not match configured roster.";
    }
    if (slot >= 0 && !roster.slots[static_cast<std::size_t>(slot)].token.empty() &&
        token != roster.slots[static_cast<std::size_t>(slot)].token)
        return "Player token does not match configured slot " + std::to_string(slot) + ".";
    return "Player credentials do not match configured roster.";
}

std::variant<AdmittedPlayer, Rejection> admit_player(const PlayerRequest& request, const Roster& roster) {
    // Names reach /reward lines, the REST's JSON and the replay: never anything but clean text.
    if (!content::is_clean_text(request.name)) return Rejection{403, kUncleanNameText};
    if (!content::is_clean_text(request.token)) return Rejection{403, kUncleanTokenText};
    std::string identity = resolve_identity(request, roster);
    const std::string reason = join_error(roster, identity, request.slot, request.token);
    if (!reason.empty()) return Rejection{403, reason + "\n"};
    if (contains(roster.kicked, identity)) return Rejection{409, kKickedText};
    return AdmittedPlayer{std::move(identity), request.slot, request.token};
}

bool roster_has_tokens(const Roster& roster) { return has_configured_tokens(roster); }

SeatAdmission admit_to_seat(const AdmittedPlayer& player, const std::vector<SeatClaim>& sockets,
                            const std::vector<SeatClaim>& seats, bool match_has_tokens) {
    const auto occupied = [&](int slot) { return Rejection{409, "Player slot " + std::to_string(slot) + " is already occupied.\n"}; };
    // The holder a newcomer may take over from: the same identity with the holder's own token.
    const auto takes_over = [&](const SeatClaim& holder) {
        return match_has_tokens && !player.token.empty() && holder.identity == player.identity && holder.token == player.token;
    };
    SeatAdmission out;
    for (const auto& held : sockets) {
        const bool same_identity = held.identity == player.identity;
        const bool same_slot = player.slot >= 0 && held.slot == player.slot;
        if (!same_identity && !same_slot) continue;
        if (takes_over(held)) {
            out.replaces = held.socket;
            continue;
        }
        out.refused = same_identity ? Rejection{409, kNameConnectedText} : occupied(player.slot);
        return out;
    }
    for (const auto& seat : seats) {
        if (seat.identity.empty()) continue;
        const bool asks_for_it = player.slot >= 0 && seat.slot == player.slot;
        if (asks_for_it && seat.identity != player.identity) {
            out.refused = occupied(player.slot);
            return out;
        }
        // The seat's own identity back after its socket closed: with tokens, only with the seat's token.
        if (seat.identity == player.identity && seat.socket == 0 && match_has_tokens && seat.token != player.token) {
            out.refused = Rejection{403, "Player token does not match seat " + std::to_string(seat.slot) + ".\n"};
            return out;
        }
    }
    return out;
}

std::variant<std::monostate, Rejection> admit_viewer(const QueryParams& query) {
    if (!query.get("name").empty() || !query.get("slot").empty() || !query.get("token").empty())
        return Rejection{403, kViewerCredentialsText};
    return std::monostate{};
}

std::variant<ViewerStream, Rejection> viewer_stream(const QueryParams& query) {
    const std::string stream = query.get(kStreamParam);
    if (stream.empty() || stream == "sprite") return ViewerStream::Sprite;
    if (stream == "compact") return ViewerStream::Compact;
    return Rejection{400, kUnknownStreamText};
}

}  // namespace hschool::server::hns
