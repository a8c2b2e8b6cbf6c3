#pragma once
// Helpers for the schools contract tests: JSON over the REST API, problem details, ISO-8601
// instants, and the v4 calendar over the WebSocket.
#include <boost/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wire.hpp"

namespace hschool::test::schools {

namespace json = boost::json;

inline constexpr std::int64_t kDefaultStartMs = 1333432800000;  // 2012-04-03T06:00:00Z
inline constexpr const char* kDefaultStartDate = "2012-04-03T06:00:00Z";
inline constexpr int kMaxSchools = 6;
// Game milliseconds one 20 Hz tick adds at each speed index (×½, ×1, ×2, ×3, ×4).
inline constexpr std::int64_t kGameMsPerTick[] = {7500, 15000, 30000, 45000, 60000};

// ---- JSON over HTTP ----

// Parses a body; a parse failure fails the test and gives null.
json::value parse_json(const std::string& text);
HttpResult post_json(std::uint16_t port, const std::string& path, const std::string& body,
                     const std::string& content_type = "application/json");
HttpResult post_json(std::uint16_t port, const std::string& path, const json::value& body);
// GET that must answer 200 application/json with an object; an empty object otherwise.
json::object get_object(std::uint16_t port, const std::string& path);
json::array list_schools(std::uint16_t port);
std::optional<json::object> find_school(std::uint16_t port, std::int64_t id);

// POST /api/schools with `{"name": name}` plus `extra` fields; must answer 201. The school object.
json::object create_school(std::uint16_t port, const std::string& name, const json::object& extra = {});
std::int32_t create_school_id(std::uint16_t port, const std::string& name, const json::object& extra = {});

// RFC 7807 with the extra `code`: status, content type, and every member.
void expect_problem(const HttpResult& response, unsigned status, std::string_view code, std::string_view context = "");
// Same, but any status in [400, 500) and any code.
void expect_client_problem(const HttpResult& response, std::string_view context = "");
std::string problem_detail(const HttpResult& response);

// ---- text ----

bool is_iso_instant(std::string_view text);  // YYYY-MM-DDTHH:MM:SSZ exactly
// ms since the epoch for an is_iso_instant string; fails the test otherwise.
std::int64_t iso_to_ms(std::string_view text);
std::string ms_to_iso(std::int64_t ms);  // floors to whole seconds
bool has_cyrillic(std::string_view utf8);
bool is_ascii(std::string_view text);
std::size_t utf8_chars(std::string_view utf8);
std::string repeat(std::string_view piece, std::size_t times);

// ---- maps ----

json::object node(std::string_view id, std::string_view def, std::string_view parent = "");
json::object link(std::string_view from, std::string_view to, std::string_view kind = "door");
// yard → "main" building → "floor-1" → one room "room-a", joined to the yard by an entrance.
json::object small_map();
// yard → building → `floors` floors with `rooms` rooms spread over them, all reachable.
json::object big_map(int floors, int rooms);

// ---- the v4 calendar ----

// Connects, says Hello with `locale` and checks Welcome {4, tick_rate, 6} comes first.
std::unique_ptr<WsClient> join(std::uint16_t port, std::uint8_t locale = 0, std::uint8_t tick_rate = 20,
                               const std::string& path = "/ws/game");

struct RawMessage {
    std::size_t bytes = 0;
    v4::ServerMessage message;
};
// The next frame, decoded; nothing (and a test failure) on close, time-out or a malformed frame.
std::optional<RawMessage> next_raw(WsClient& client, std::chrono::milliseconds timeout = kWait);
// OpenSchool then the first frame after it, which must be the school's MapSnapshot.
std::optional<RawMessage> open_school(WsClient& client, std::int32_t id);
// The next `count` Clock frames; any other frame fails the test.
std::vector<v4::Clock> next_clocks(WsClient& client, int count);
// Clocks until one satisfies `pred` (bounded); that clock.
template <class Pred>
std::optional<v4::Clock> clock_where(WsClient& client, Pred pred, int max_frames = 100) {
    for (int i = 0; i < max_frames; ++i) {
        auto clock = next_clocks(client, 1);
        if (clock.empty()) return std::nullopt;
        if (pred(clock.front())) return clock.front();
    }
    ADD_FAILURE() << "no matching clock within " << max_frames << " frames";
    return std::nullopt;
}
struct Ponged {
    std::vector<v4::ServerMessage> before;  // every message that arrived before the Pong
    v4::Pong pong;
};
// Sends Ping{stamp}; its Pong (whose tick is the loop's when the Ping was read) and what came first.
std::optional<Ponged> ping(WsClient& client, std::int64_t stamp);
// Sends Ping{stamp}; every message that arrives before its Pong.
std::optional<std::vector<v4::ServerMessage>> until_pong(WsClient& client, std::int64_t stamp);
// Pings (well inside the inbound budget) until a Pong's tick is `ticks` past the first one's; every
// message that arrived before that Pong. The server's own clock, however slow the machine.
std::optional<std::vector<v4::ServerMessage>> over_ticks(WsClient& client, std::uint32_t ticks);
int count_clocks(const std::vector<v4::ServerMessage>& messages);
// Proves the connection gets no Clock any more: waits until whatever stopped them has been applied
// and what was in flight has arrived, then checks a window of several server ticks without one.
void expect_no_more_clocks(WsClient& client);
// Consecutive clocks of a running school at `speed_index`: every step is a positive whole number of
// ticks, and at least one step is exactly one tick (of a 20 Hz loop unless `tick_rate` says otherwise).
void expect_ticks_at_speed(const std::vector<v4::Clock>& clocks, std::uint8_t speed_index, int tick_rate = 20);

// ---- processes and packs ----

struct ExitResult {
    int exit_code = -1;
    std::string output;
};
// Runs the server binary (with --port 0) to its exit, at most `timeout`; 124 when it had to be killed.
ExitResult run_server_to_exit(const std::vector<std::string>& args, std::chrono::seconds timeout = 10s);
// isolated_server_args with another --data or --mods.
std::vector<std::string> server_args(const std::filesystem::path& data, const std::filesystem::path& mods);

}  // namespace hschool::test::schools
