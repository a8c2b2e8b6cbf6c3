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
// `source`: "scripted", "external" or "fallback"; `result`: the seat's last action result text.
std::string directive_record(const Sim& sim, int slot, int turn, const Order& order, std::string_view result,
                             std::string_view source, long long latency_ms);
// A seat that played burrow instead of its own order; `cause`: timeout, parse_error, no_model.
std::string fallback_record(const Sim& sim, int slot, int turn, std::string_view cause);
std::string stop_record(int tick, std::string_view end_rule);
std::string result_record(std::string_view results_json);

}  // namespace hschool::sim::hns
