#include "schools_support.hpp"

#include <cstdio>
#include <iterator>
#include <regex>
#include <thread>

namespace hschool::test::schools {

json::value parse_json(const std::string& text) {
    boost::system::error_code ec;
    auto value = json::parse(text, ec);
    if (ec) {
        ADD_FAILURE() << "not JSON (" << ec.message() << "): " << text.substr(0, 300);
        return nullptr;
    }
    return value;
}

HttpResult post_json(std::uint16_t port, const std::string& path, const std::string& body, const std::string& content_type) {
    return http_request(port, "POST", path, body, {{"Content-Type", content_type}});
}

HttpResult post_json(std::uint16_t port, const std::string& path, const json::value& body) {
    return post_json(port, path, json::serialize(body));
}

json::object get_object(std::uint16_t port, const std::string& path) {
    const auto response = http_request(port, "GET", path);
    EXPECT_EQ(response.status, 200U) << path << ": " << response.body;
    const auto type = response.headers.find("content-type");
    EXPECT_TRUE(type != response.headers.end() && type->second.starts_with("application/json")) << path;
    if (response.status != 200) return {};
    auto value = parse_json(response.body);
    if (!value.is_object()) {
        ADD_FAILURE() << path << " did not answer an object: " << response.body;
        return {};
    }
    return value.as_object();
}

json::array list_schools(std::uint16_t port) {
    const auto listing = get_object(port, "/api/schools");
    const auto* schools = listing.if_contains("schools");
    if (!schools || !schools->is_array()) {
        ADD_FAILURE() << "no schools array in " << json::serialize(listing);
        return {};
    }
    return schools->as_array();
}

std::optional<json::object> find_school(std::uint16_t port, std::int64_t id) {
    for (const auto& school : list_schools(port)) {
        const auto* school_id = school.as_object().if_contains("id");
        if (school_id && school_id->is_int64() && school_id->as_int64() == id) return school.as_object();
    }
    return std::nullopt;
}

json::object create_school(std::uint16_t port, const std::string& name, const json::object& extra) {
    json::object body = extra;
    body["name"] = name;
    const auto response = post_json(port, "/api/schools", body);
    EXPECT_EQ(response.status, 201U) << json::serialize(body).substr(0, 300) << " → " << response.body;
    if (response.status != 201) return {};
    auto value = parse_json(response.body);
    if (!value.is_object()) return {};
    return value.as_object();
}

std::int32_t create_school_id(std::uint16_t port, const std::string& name, const json::object& extra) {
    const auto school = create_school(port, name, extra);
    const auto* id = school.if_contains("id");
    if (!id || !id->is_int64()) {
        ADD_FAILURE() << "a created school without an integer id: " << json::serialize(school);
        return 0;
    }
    return static_cast<std::int32_t>(id->as_int64());
}

void expect_problem(const HttpResult& response, unsigned status, std::string_view code, std::string_view context) {
    SCOPED_TRACE(std::string(context));
    EXPECT_EQ(response.status, status) << response.body;
    expect_client_problem(response);  // the RFC 7807 shape; the exact code below
    boost::system::error_code ec;
    const auto value = json::parse(response.body, ec);
    if (ec || !value.is_object()) return;
    const auto* actual_code = value.as_object().if_contains("code");
    ASSERT_TRUE(actual_code && actual_code->is_string()) << response.body;
    EXPECT_EQ(actual_code->as_string(), code) << response.body;
    const auto* actual_status = value.as_object().if_contains("status");
    ASSERT_TRUE(actual_status && actual_status->is_int64()) << response.body;
    EXPECT_EQ(actual_status->as_int64(), static_cast<std::int64_t>(status)) << response.body;
}

void expect_client_problem(const HttpResult& response, std::string_view context) {
    SCOPED_TRACE(std::string(context));
    EXPECT_GE(response.status, 400U) << response.body;
    EXPECT_LT(response.status, 500U) << response.body;
    const auto type = response.headers.find("content-type");
    ASSERT_NE(type, response.headers.end()) << "no Content-Type on a problem";
    EXPECT_TRUE(type->second.starts_with("application/problem+json")) << type->second;
    boost::system::error_code ec;
    const auto value = json::parse(response.body, ec);
    ASSERT_FALSE(ec) << "problem body is not JSON: " << response.body;
    ASSERT_TRUE(value.is_object()) << response.body;
    const auto& problem = value.as_object();
    for (const char* field : {"type", "title", "detail", "code"}) {
        const auto* member = problem.if_contains(field);
        EXPECT_TRUE(member && member->is_string()) << "problem member '" << field << "' missing or not a string: " << response.body;
    }
    const auto* status = problem.if_contains("status");
    EXPECT_TRUE(status && status->is_int64() && status->as_int64() == response.status) << response.body;
}

std::string problem_detail(const HttpResult& response) {
    boost::system::error_code ec;
    const auto value = json::parse(response.body, ec);
    if (ec || !value.is_object()) return {};
    const auto* detail = value.as_object().if_contains("detail");
    return detail && detail->is_string() ? std::string(detail->as_string()) : std::string{};
}

bool is_iso_instant(std::string_view text) {
    static const std::regex pattern(R"(^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$)");
    return std::regex_match(text.begin(), text.end(), pattern);
}

namespace {
// Howard Hinnant's days_from_civil: days since 1970-01-01 in the proleptic Gregorian calendar.
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
    y -= m <= 2;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}
}  // namespace

std::int64_t iso_to_ms(std::string_view text) {
    if (!is_iso_instant(text)) {
        ADD_FAILURE() << "not an ISO-8601 instant with Z and no fraction: '" << text << "'";
        return 0;
    }
    const auto number = [&](std::size_t at, std::size_t length) { return std::stoll(std::string(text.substr(at, length))); };
    const auto days = days_from_civil(number(0, 4), static_cast<unsigned>(number(5, 2)), static_cast<unsigned>(number(8, 2)));
    return ((days * 24 + number(11, 2)) * 60 + number(14, 2)) * 60000 + number(17, 2) * 1000;
}

std::string ms_to_iso(std::int64_t ms) {
    std::int64_t seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000;
    std::int64_t days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400;
    const std::int64_t second_of_day = seconds - days * 86400;
    // civil_from_days
    days += 719468;
    const std::int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    const unsigned doe = static_cast<unsigned>(days - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    const unsigned d = doy - (153 * mp + 2) / 5 + 1;
    const unsigned m = mp < 10 ? mp + 3 : mp - 9;
    const std::int64_t y = static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2);
    char buffer[96];
    std::snprintf(buffer, sizeof buffer, "%04lld-%02u-%02uT%02lld:%02lld:%02lldZ", static_cast<long long>(y), m, d,
                  static_cast<long long>(second_of_day / 3600), static_cast<long long>(second_of_day / 60 % 60),
                  static_cast<long long>(second_of_day % 60));
    return buffer;
}

bool has_cyrillic(std::string_view utf8) {
    // U+0400–U+04FF is encoded as 0xD0 or 0xD3 followed by a continuation byte.
    for (std::size_t i = 0; i + 1 < utf8.size(); ++i) {
        const auto lead = static_cast<unsigned char>(utf8[i]);
        if (lead >= 0xD0 && lead <= 0xD3) return true;
    }
    return false;
}

bool is_ascii(std::string_view text) {
    for (char c : text) {
        if (static_cast<unsigned char>(c) >= 0x80) return false;
    }
    return true;
}

std::size_t utf8_chars(std::string_view utf8) {
    std::size_t count = 0;
    for (char c : utf8) count += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return count;
}

std::string repeat(std::string_view piece, std::size_t times) {
    std::string out;
    for (std::size_t i = 0; i < times; ++i) out += piece;
    return out;
}

json::object node(std::string_view id, std::string_view def, std::string_view parent) {
    json::object n{{"id", id}, {"def", def}};
    if (!parent.empty()) n["parent"] = parent;
    return n;
}

json::object link(std::string_view from, std::string_view to, std::string_view kind) {
    return {{"from", from}, {"to", to}, {"kind", kind}};
}

json::object small_map() {
    return {{"nodes", json::array{node("yard", "territory.yard"), node("main", "building.main", "yard"),
                                  node("floor-1", "floor.first", "main"), node("room-a", "room.lobby", "floor-1")}},
            {"links", json::array{link("yard", "room-a", "entrance")}}};
}

json::object big_map(int floors, int rooms) {
    static const char* floor_defs[] = {"floor.first", "floor.second", "floor.third", "floor.fourth"};
    json::array nodes{node("yard", "territory.yard"), node("main", "building.main", "yard")};
    json::array links;
    for (int f = 0; f < floors; ++f) nodes.push_back(node("f" + std::to_string(f), floor_defs[f % 4], "main"));
    for (int r = 0; r < rooms; ++r) {
        const auto id = "r" + std::to_string(r);
        nodes.push_back(node(id, "room.classroom.math", "f" + std::to_string(r % floors)));
        links.push_back(r == 0 ? link("yard", id, "entrance") : link("r" + std::to_string(r - 1), id, "door"));
    }
    return {{"nodes", std::move(nodes)}, {"links", std::move(links)}};
}

std::unique_ptr<WsClient> join(std::uint16_t port, std::uint8_t locale, std::uint8_t tick_rate, const std::string& path) {
    WsClient::Options options;
    options.path = path;
    auto client = WsClient::connect(port, options);
    if (!client) {
        ADD_FAILURE() << "WebSocket handshake failed";
        return nullptr;
    }
    EXPECT_TRUE(client->send(schools_hello(locale)));
    auto welcome = next_raw(*client);
    if (!welcome || !std::holds_alternative<v4::Welcome>(welcome->message)) {
        ADD_FAILURE() << "the first frame is not Welcome";
        return nullptr;
    }
    EXPECT_EQ(std::get<v4::Welcome>(welcome->message), (v4::Welcome{4, tick_rate, kMaxSchools}));
    return client;
}

std::optional<RawMessage> next_raw(WsClient& client, std::chrono::milliseconds timeout) {
    auto event = client.read(timeout);
    if (auto* closed = std::get_if<Closed>(&event)) {
        ADD_FAILURE() << "connection closed: " << closed->code << " " << closed->reason;
        return std::nullopt;
    }
    auto* frame = std::get_if<Frame>(&event);
    if (!frame) {
        ADD_FAILURE() << "timed out waiting for a frame";
        return std::nullopt;
    }
    auto decoded = v4::decode_server(frame->data);
    if (!decoded) {
        ADD_FAILURE() << "malformed v4 frame: " << protocol::describe(decoded.error());
        return std::nullopt;
    }
    return RawMessage{frame->data.size(), std::move(decoded).value()};
}

std::optional<RawMessage> open_school(WsClient& client, std::int32_t id) {
    EXPECT_TRUE(client.send(v4::encode(v4::OpenSchool{id})));
    auto first = next_raw(client);
    if (!first) return std::nullopt;
    const auto* snapshot = std::get_if<v4::MapSnapshot>(&first->message);
    if (!snapshot) {
        ADD_FAILURE() << "the first frame after OpenSchool{" << id << "} is not a MapSnapshot (index "
                      << first->message.index() << ")";
        return std::nullopt;
    }
    EXPECT_EQ(snapshot->school_id, id);
    return first;
}

std::vector<v4::Clock> next_clocks(WsClient& client, int count) {
    std::vector<v4::Clock> clocks;
    while (static_cast<int>(clocks.size()) < count) {
        auto message = next_raw(client);
        if (!message) return clocks;
        const auto* clock = std::get_if<v4::Clock>(&message->message);
        if (!clock) {
            ADD_FAILURE() << "expected a Clock, got message index " << message->message.index();
            return clocks;
        }
        clocks.push_back(*clock);
    }
    return clocks;
}

std::optional<Ponged> ping(WsClient& client, std::int64_t stamp) {
    EXPECT_TRUE(client.send(v4::encode(v4::Ping{stamp})));
    Ponged result;
    for (int i = 0; i < 500; ++i) {
        auto message = next_raw(client);
        if (!message) return std::nullopt;
        if (const auto* pong = std::get_if<v4::Pong>(&message->message); pong && pong->client_time_ms == stamp) {
            result.pong = *pong;
            return result;
        }
        result.before.push_back(std::move(message->message));
    }
    ADD_FAILURE() << "no Pong for " << stamp;
    return std::nullopt;
}

std::optional<std::vector<v4::ServerMessage>> until_pong(WsClient& client, std::int64_t stamp) {
    auto ponged = ping(client, stamp);
    if (!ponged) return std::nullopt;
    return std::move(ponged->before);
}

std::optional<std::vector<v4::ServerMessage>> over_ticks(WsClient& client, std::uint32_t ticks) {
    constexpr auto kPingPace = 25ms;        // 40 Pings a second: well inside the inbound budget (120)
    constexpr std::int64_t kStamps = 7000;  // stamps of its own, apart from the tests'
    std::int64_t stamp = kStamps;
    auto first = ping(client, stamp);
    if (!first) return std::nullopt;
    std::vector<v4::ServerMessage> between = std::move(first->before);
    for (const auto until = std::chrono::steady_clock::now() + kWait; std::chrono::steady_clock::now() < until;) {
        std::this_thread::sleep_for(kPingPace);
        auto next = ping(client, ++stamp);
        if (!next) return std::nullopt;
        between.insert(between.end(), std::make_move_iterator(next->before.begin()), std::make_move_iterator(next->before.end()));
        if (next->pong.server_tick >= first->pong.server_tick + ticks) return between;
    }
    ADD_FAILURE() << "the server's tick did not advance by " << ticks << " in " << kWait.count() << " ms";
    return std::nullopt;
}

int count_clocks(const std::vector<v4::ServerMessage>& messages) {
    int clocks = 0;
    for (const auto& message : messages) clocks += std::holds_alternative<v4::Clock>(message);
    return clocks;
}

void expect_no_more_clocks(WsClient& client) {
    // The loop applies what we sent before a Ping in its next wake-up, before it steps: two ticks
    // past that Ping's Pong, it can make no more Clocks for us.
    ASSERT_TRUE(over_ticks(client, 2));
    // Clocks it made before then were queued when that Pong was; they come before the next one's.
    ASSERT_TRUE(until_pong(client, 9002));
    // Six ticks of silence prove the clocks stopped.
    const auto window = over_ticks(client, 6);
    ASSERT_TRUE(window);
    EXPECT_EQ(count_clocks(*window), 0) << "Clock frames still arrive";
}

void expect_ticks_at_speed(const std::vector<v4::Clock>& clocks, std::uint8_t speed_index, int tick_rate) {
    ASSERT_GE(clocks.size(), 2U);
    ASSERT_LT(speed_index, 5);
    const auto per_tick = kGameMsPerTick[speed_index] * 20 / tick_rate;
    bool saw_single_tick = false;
    for (std::size_t i = 0; i < clocks.size(); ++i) {
        EXPECT_EQ(clocks[i].running, 1) << "clock " << i;
        EXPECT_EQ(clocks[i].speed_index, speed_index) << "clock " << i;
        if (i == 0) continue;
        const auto delta = clocks[i].game_time_ms - clocks[i - 1].game_time_ms;
        EXPECT_GT(delta, 0) << "clock " << i << " did not advance";
        EXPECT_EQ(delta % per_tick, 0) << "clock " << i << " advanced " << delta << " game ms, not whole ticks of " << per_tick;
        saw_single_tick |= delta == per_tick;
    }
    EXPECT_TRUE(saw_single_tick) << "no step of exactly one tick (" << per_tick << " game ms) at speed " << int(speed_index);
}

ExitResult run_server_to_exit(const std::vector<std::string>& args, std::chrono::seconds timeout) {
    std::string command = "timeout -s KILL " + std::to_string(timeout.count()) + " '" + ServerProcess::binary().string() +
                          "' --address 127.0.0.1 --port 0";
    for (const auto& arg : args) command += " '" + arg + "'";
    command += " 2>&1";
    ExitResult result;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return result;
    char buffer[4096];
    while (std::fgets(buffer, sizeof buffer, pipe)) result.output += buffer;
    const int status = pclose(pipe);
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return result;
}

std::vector<std::string> server_args(const std::filesystem::path& data, const std::filesystem::path& mods) {
    // No --web-root: these tests serve no files, and the default root missing means none are served.
    return {"--data", data.string(), "--mods", mods.string(), "--log-level", "debug"};
}

}  // namespace hschool::test::schools
