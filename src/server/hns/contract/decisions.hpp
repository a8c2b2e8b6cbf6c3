#pragma once
// Decision turns for external seats (spec §2.4): when a turn runs, who receives it, the decision
// text frame, the orders:<game>:<turn>:<json> reply, the 16 s deadline and the fallback rule.
// The order JSON itself is sim/hns/orders.hpp's.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/hns/contract/limits.hpp"
#include "server/hns/contract/registration.hpp"
#include "sim/hns/orders.hpp"
#include "sim/hns/state.hpp"

namespace hschool::server::hns {

// The turn index when a decision turn runs before this step: Playing and gameTick mod turnTicks
// == 0 (gameTick taken before the step). Nothing otherwise.
std::optional<int> decision_turn(sim::hns::GamePhase phase, int game_tick, int turn_ticks);

struct SeatTurnInfo {
    PolicyKind kind = PolicyKind::Scripted;
    bool frozen_seeker = false;  // frozen seekers are not live (prep)
};
// The live external seats, in seat order: those that get a decision frame this turn.
std::vector<int> decision_recipients(const std::vector<SeatTurnInfo>& seats);

// {"type":"decision","turn":T,"seat":S,"deadline_ms":D,"observation":<observation_json>}
// `observation_json` is the serialized observation object (§2.5), inserted verbatim.
std::string decision_frame(int turn, int seat, std::int64_t deadline_ms, std::string_view observation_json);

// "orders:<game>:<turn>:"
std::string reply_prefix(int game, int turn);

enum class ReplyStatus {
    Ignored,  // not this turn's prefix (stale turn, other game, other text): keep waiting
    TooLong,  // payload over 4096 bytes: counts as no reply
    Empty,    // nothing after the prefix: burrow with a timeout fallback record
    NoJson,   // no parsable JSON object: burrow with a parse_error fallback record
    Parsed,   // an order (possibly rejected as unknown_object)
};

struct Reply {
    ReplyStatus status = ReplyStatus::Ignored;
    sim::hns::ParsedOrder order;  // when Parsed
};

// One 0x81 text from the seat's socket while turn `turn` of game `game` (1-based) waits.
Reply parse_reply(std::string_view text, int game, int turn, const sim::hns::OrderContext& ctx);

// A reply counts only if it arrives before dispatch + budget.
bool reply_in_time(std::int64_t dispatch_ms, std::int64_t arrival_ms, std::int64_t budget_ms = kDecisionDeadlineMs);
// The loop stops waiting when every external seat has a counting reply or the deadline passed.
bool turn_settled(bool all_replied, std::int64_t dispatch_ms, std::int64_t now_ms,
                  std::int64_t budget_ms = kDecisionDeadlineMs);

enum class OrderSource { External, Scripted, Fallback };
const char* order_source_text(OrderSource source);

inline constexpr const char* kCauseTimeout = "timeout";
inline constexpr const char* kCauseParseError = "parse_error";
inline constexpr const char* kCauseNoCredentials = "no_credentials";  // a prompt seat with no model to ask
inline constexpr const char* kNoModelDetail = "the language model is unavailable for this turn; playing burrow";
inline constexpr const char* kSourceLlm = "llm";  // a prompt seat's directive source when its model answered

struct TurnOutcome {
    sim::hns::Order order;
    OrderSource source = OrderSource::External;
    std::string fallback_cause;  // non-empty: write a fallback record with this cause
    std::string result;          // "unknown_object" when the order was rejected
    bool rejected = false;       // counts into ordersRejected
};

// The external seat's turn: `reply` is its counting reply (null when none came in time or it was
// too long); `standing` its previous order (null if none); `burrow` the burrow order for this turn.
TurnOutcome resolve_external_turn(const Reply* reply, const sim::hns::Order* standing,
                                  const sim::hns::Order& burrow);
// A prompt seat's turn when no model can be asked: burrow with a no_credentials fallback record.
TurnOutcome resolve_prompt_turn(const sim::hns::Order& burrow);

}  // namespace hschool::server::hns
