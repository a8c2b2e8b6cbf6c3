#pragma once
// The JSON chat records a match writes into its replay (register, directive, fallback, stop,
// result): one place, so the headless match and the server's live matches write the same lines.
#include <string>
#include <string_view>

#include "sim/hns/orders.hpp"
#include "sim/hns/sim.hpp"

namespace hschool::sim::hns {

// The reference writes the team text as "alias" here, not the seat alias (spec §7.13).
std::string register_record(int slot, std::string_view policy, std::string_view kind, std::string_view baseline);
// `source`: "scripted", "external", "llm" or "fallback"; `result`: the seat's last action result text.
std::string directive_record(const Sim& sim, int slot, int turn, const Order& order, std::string_view result,
                             std::string_view source, long long latency_ms);
// A seat's failed attempt, or its burrow order instead of its own (the reference's keys: k, game,
// turn, slot, attempt, cause, detail); `cause`: timeout, parse_error, transport_error, throttled,
// no_credentials. `detail` must already be bounded and UTF-8-safe.
std::string fallback_record(const Sim& sim, int slot, int turn, std::string_view cause, int attempt = 1,
                            std::string_view detail = {});
// The budget guard fired before `turn`: prompt seats play burrow from here on.
std::string budget_guard_record(int turn, int remaining_s);
std::string stop_record(int tick, std::string_view end_rule);
std::string result_record(std::string_view results_json);

}  // namespace hschool::sim::hns
