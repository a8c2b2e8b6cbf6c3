#pragma once
// The hide-and-seek REST as the load modes use it: make a match, read its tick and phase, delete it,
// and the six /player targets of its seats.
#include <cstdint>
#include <string>
#include <vector>

#include "hns_load.hpp"
#include "util/expected.hpp"

namespace hschool::load {

struct MatchState {
    std::int64_t tick = -1;  // -1: the match could not be read
    std::string phase;
};

// POST /api/hns/matches (with `config` keys when given); the match's id, or what the server answered.
Expected<std::string, std::string> create_match(const HnsPlan& plan, const std::string& variant, int bots, const char* config = nullptr);
MatchState match_state(const HnsPlan& plan, const std::string& id);
void delete_match(const HnsPlan& plan, const std::string& id);
// One /player target per seat: "/player?match=ID&slot=S&name=sS".
std::vector<std::string> seat_targets(const std::string& id);

}  // namespace hschool::load
