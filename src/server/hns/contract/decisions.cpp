#include "server/hns/contract/decisions.hpp"

#include "server/hns/contract/text.hpp"

namespace hschool::server::hns {

std::optional<int> decision_turn(sim::hns::GamePhase phase, int game_tick, int turn_ticks) {
    if (phase != sim::hns::GamePhase::Playing || turn_ticks <= 0 || game_tick < 0) return std::nullopt;
    if (game_tick % turn_ticks != 0) return std::nullopt;
    return game_tick / turn_ticks;
}

std::vector<int> decision_recipients(const std::vector<SeatTurnInfo>& seats) {
    std::vector<int> out;
    for (std::size_t s = 0; s < seats.size(); ++s)
        if (seats[s].kind == PolicyKind::External && !seats[s].frozen_seeker) out.push_back(static_cast<int>(s));
    return out;
}

std::string decision_frame(int turn, int seat, std::int64_t deadline_ms, std::string_view observation_json) {
    std::string out = "{\"type\":\"decision\",\"turn\":" + std::to_string(turn) + ",\"seat\":" + std::to_string(seat) +
                      ",\"deadline_ms\":" + std::to_string(deadline_ms) + ",\"observation\":";
    out.append(observation_json);
    out.push_back('}');
    return out;
}

std::string reply_prefix(int game, int turn) {
    return "orders:" + std::to_string(game) + ":" + std::to_string(turn) + ":";
}

Reply parse_reply(std::string_view text, int game, int turn, const sim::hns::OrderContext& ctx) {
    Reply reply;
    const std::string prefix = reply_prefix(game, turn);
    if (text.substr(0, prefix.size()) != prefix) return reply;
    const std::string_view payload = text.substr(prefix.size());
    if (payload.size() > sim::hns::kMaxReplyBytes) {
        reply.status = ReplyStatus::TooLong;
        return reply;
    }
    if (strip(payload).empty()) {
        reply.status = ReplyStatus::Empty;
        return reply;
    }
    auto json = sim::hns::extract_json_object(payload);
    if (!json) {
        reply.status = ReplyStatus::NoJson;
        return reply;
    }
    auto parsed = sim::hns::parse_order(*json, ctx);
    if (!parsed) {
        reply.status = ReplyStatus::NoJson;
        return reply;
    }
    reply.status = ReplyStatus::Parsed;
    reply.order = std::move(*parsed);
    return reply;
}

bool reply_in_time(std::int64_t dispatch_ms, std::int64_t arrival_ms, std::int64_t budget_ms) {
    return arrival_ms < dispatch_ms + budget_ms;
}

bool turn_settled(bool all_replied, std::int64_t dispatch_ms, std::int64_t now_ms, std::int64_t budget_ms) {
    return all_replied || !reply_in_time(dispatch_ms, now_ms, budget_ms);
}

const char* order_source_text(OrderSource source) {
    switch (source) {
    case OrderSource::External: return "external";
    case OrderSource::Scripted: return "scripted";
    case OrderSource::Fallback: return "fallback";
    }
    return "external";
}

TurnOutcome resolve_external_turn(const Reply* reply, const sim::hns::Order* standing,
                                  const sim::hns::Order& burrow) {
    TurnOutcome out;
    if (reply == nullptr || reply->status == ReplyStatus::Ignored || reply->status == ReplyStatus::TooLong ||
        reply->status == ReplyStatus::Empty) {
        out.order = burrow;
        out.source = OrderSource::Fallback;
        out.fallback_cause = kCauseTimeout;
        return out;
    }
    if (reply->status == ReplyStatus::NoJson) {
        out.order = burrow;
        out.source = OrderSource::Fallback;
        out.fallback_cause = kCauseParseError;
        return out;
    }
    bool rejected = false;
    out.order = sim::hns::resolve_reply(standing, reply->order, burrow, rejected);
    out.source = OrderSource::External;
    out.rejected = rejected;
    if (rejected) out.result = sim::hns::kResultUnknownObject;
    return out;
}

TurnOutcome resolve_prompt_turn(const sim::hns::Order& burrow) {
    TurnOutcome out;
    out.order = burrow;
    out.source = OrderSource::Fallback;
    out.fallback_cause = kCauseNoCredentials;
    return out;
}

}  // namespace hschool::server::hns
