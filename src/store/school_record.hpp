#pragma once
// What the store keeps about a school. Times are ms since the Unix epoch, read as UTC.
#include <cstdint>
#include <string>
#include <vector>

namespace hschool::store {

// A school before the store has given it an id.
struct NewSchool {
    std::string name;                  // UTF-8, saved as written
    std::int64_t start_date_ms = 0;
    std::vector<std::string> mod_ids;  // in load order; the store keeps the order
    std::string map_json;              // opaque to the store
    std::int64_t game_time_ms = 0;
    bool running = true;
    std::uint8_t speed_index = 0;
    std::string owner_hash;            // SHA-256 of the creator's owner token; "" when only the operator owns it
};

struct SchoolRecord : NewSchool {
    std::int32_t id = 0;            // assigned by the store, never reused
    std::int64_t created_at_ms = 0;  // real wall-clock time of the insert
};

// One school's latest calendar state, as queued by the game loop.
struct ClockState {
    std::int64_t game_time_ms = 0;
    bool running = true;
    std::uint8_t speed_index = 0;
    bool control = false;  // a pause or speed change (shared databases write it whatever holds the clock)
};

}  // namespace hschool::store
