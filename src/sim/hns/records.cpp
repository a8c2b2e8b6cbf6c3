#include "sim/hns/records.hpp"

#include <boost/json.hpp>

namespace hschool::sim::hns {
namespace {

// The keys every per-seat turn record starts with.
boost::json::object seat_turn_record(const char* kind, const Sim& sim, int slot, int turn) {
    boost::json::object o;
    o["k"] = kind;
    o["game"] = sim.game_index() + 1;
    o["turn"] = turn;
    o["slot"] = slot;
    o["alias"] = sim.alias(slot);
    return o;
}

}  // namespace

std::string register_record(int slot, std::string_view policy, std::string_view kind, std::string_view baseline) {
    boost::json::object o;
    o["k"] = "register";
    o["slot"] = slot;
    o["alias"] = slot % 2 == 0 ? "red" : "blue";
    o["policy"] = policy;
    o["kind"] = kind;
    o["baseline"] = baseline;
    return boost::json::serialize(o);
}

std::string directive_record(const Sim& sim, int slot, int turn, const Order& order, std::string_view result,
                             std::string_view source, long long latency_ms) {
    boost::json::object o = seat_turn_record("directive", sim, slot, turn);
    o["source"] = source;
    o["latency_ms"] = latency_ms;
    o["intent"] = intent_text(order.intent);
    o["object"] = order.obj;
    o["at"] = order.at;
    o["say"] = order.say;
    o["radio"] = order.radio;
    o["result"] = result;
    if (order.hasTo) o["to"] = boost::json::array{order.toX, order.toY};
    else o["to"] = nullptr;
    return boost::json::serialize(o);
}

std::string fallback_record(const Sim& sim, int slot, int turn, std::string_view cause, int attempt, std::string_view detail) {
    boost::json::object o;
    o["k"] = "fallback";
    o["game"] = sim.game_index() + 1;
    o["turn"] = turn;
    o["slot"] = slot;
    o["attempt"] = attempt;
    o["cause"] = cause;
    o["detail"] = detail;
    return boost::json::serialize(o);
}

std::string budget_guard_record(int turn, int remaining_s) {
    return "{\"k\":\"budget_guard\",\"turn\":" + std::to_string(turn) + ",\"remaining_s\":" + std::to_string(remaining_s) + "}";
}

std::string stop_record(int tick, std::string_view end_rule) {
    return "{\"k\":\"stop\",\"tick\":" + std::to_string(tick) + ",\"endRule\":\"" + std::string(end_rule) + "\"}";
}

std::string result_record(std::string_view results_json) {
    return "{\"k\":\"result\",\"results\":" + std::string(results_json) + "}";
}

}  // namespace hschool::sim::hns
