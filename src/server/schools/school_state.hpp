#pragma once
// One school as the loop thread holds it: what the store keeps, plus the packs it was built from.
#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "content/resolved_packs.hpp"
#include "content/school_map.hpp"
#include "net/outbox.hpp"
#include "sim/calendar/calendar.hpp"

namespace hschool::server {

struct SchoolState {
    std::int32_t id = 0;
    std::string name;
    std::int64_t start_date_ms = 0;
    std::vector<std::string> mod_ids;                      // core first, in merge order
    std::shared_ptr<const content::ResolvedPacks> packs;  // null when the packs no longer load
    content::SchoolMap map;
    sim::SchoolClock clock;
    std::string owner_hash;  // SHA-256 of its owner token; "" when only the operator owns it
    std::array<net::Frame, 2> map_snapshots;  // encoded once per locale, on first open
    // Several servers on one database (issue 34): this server advances the clock only while it
    // holds the school's lease; control_seq is the last pause or speed change it adopted.
    bool holds_clock = true;
    std::int64_t control_seq = 0;
    std::chrono::steady_clock::time_point added_at{};
};

}  // namespace hschool::server
