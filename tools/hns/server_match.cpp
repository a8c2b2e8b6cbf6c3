#include "server_match.hpp"

#include <boost/json.hpp>
#include <signal.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "child_process.hpp"
#include "loopback_http.hpp"

namespace hschool::tools::hns {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr auto kWatchPoll = 50ms;              // how often the runner looks at its children and the lobby
constexpr auto kHttpTimeout = 2s;              // one REST answer from a server on this machine
constexpr auto kServerReadyTimeout = 30s;      // a drop-in server listens within a second, a busy box takes longer
constexpr int kServerStartAttempts = 3;        // a probed free port can be taken before the server binds it
constexpr auto kLowestSettle = 1s;             // a connected program is seated within ms once its slot is next
constexpr auto kProgramExitGrace = 5s;         // after the match: programs leave on the server's 1000 close
constexpr auto kTermGrace = 1s;                // SIGTERM, then SIGKILL
constexpr auto kServerStopGrace = 5s;          // the server's own shutdown on SIGTERM
// The server lingers this long after its files: its 1000 "match over" closes reach the programs
// before it shuts down (at 0 they race the shutdown and programs hear 1001 and re-dial).
constexpr const char* kServerLingerMs = "3000";
constexpr int kStandInConnectAttempts = 40;    // x 500 ms: the stand-in dials a server that already listens
constexpr std::size_t kMaxArtifactBytes = 128u << 20;  // the server ends a match whose replay passes 64 MiB
constexpr std::size_t kLogTailBytes = 600;     // of server.log, in an error message
constexpr const char* kMatchesPath = "/api/hns/matches";

league::Result<MatchRun> fail(std::string message) { return hschool::unexpected(std::move(message)); }

std::optional<std::string> read_bounded(const fs::path& path) {
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (ec || size > kMaxArtifactBytes) return std::nullopt;
    std::ifstream in(path, std::ios::binary);
    std::string bytes(static_cast<std::size_t>(size), '\0');
    if (!in.read(bytes.data(), static_cast<std::streamsize>(size))) return std::nullopt;
    return bytes;
}

std::string log_tail(const fs::path& path) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return "(no log)";
    const std::streamoff size = in.tellg();
    const std::streamoff from = std::max<std::streamoff>(0, size - static_cast<std::streamoff>(kLogTailBytes));
    in.seekg(from);
    std::string text(static_cast<std::size_t>(size - from), '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    return text.empty() ? "(empty log)" : text;
}

// file:///abs/path with every byte outside a safe set escaped (the server decodes %XX).
std::string file_uri(const fs::path& path) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out = "file://";
    for (const unsigned char c : fs::absolute(path).string()) {
        const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' || c == '.' ||
                          c == '_' || c == '-' || c == '~';
        if (safe) out.push_back(static_cast<char>(c));
        else out += {'%', kHex[c >> 4], kHex[c & 15]};
    }
    return out;
}

// Ports this process's own matches hold: two jobs never probe their way onto the same one.
std::mutex g_ports_mutex;
std::set<std::uint16_t> g_ports;

std::uint16_t claim_port() {
    std::lock_guard lock(g_ports_mutex);
    for (int tries = 0; tries < kServerStartAttempts * 4; ++tries) {
        const std::uint16_t port = free_loopback_port();
        if (port != 0 && g_ports.insert(port).second) return port;
    }
    return 0;
}

void release_port(std::uint16_t port) {
    std::lock_guard lock(g_ports_mutex);
    g_ports.erase(port);
}

// What the REST says of the lobby: known once it answered; over once the match left the lobby.
struct LobbyView {
    bool known = false, over = false;
    std::array<bool, kMatchSeats> seated{};
};

LobbyView read_lobby(std::uint16_t port) {
    LobbyView view;
    const auto body = loopback_get(port, kMatchesPath, kHttpTimeout);
    if (!body) return view;
    boost::system::error_code ec;
    const json::value list = json::parse(*body, ec);
    const auto* matches = !ec && list.is_object() ? list.as_object().if_contains("matches") : nullptr;
    if (matches == nullptr || !matches->is_array() || matches->as_array().empty() || !matches->as_array()[0].is_object()) return view;
    const auto& match = matches->as_array()[0].as_object();
    const auto* phase = match.if_contains("phase");
    const auto* seats = match.if_contains("seats");
    if (phase == nullptr || !phase->is_string() || seats == nullptr || !seats->is_array()) return view;
    view.known = true;
    view.over = phase->as_string() != "lobby";
    for (const auto& seat : seats->as_array()) {
        const auto* slot = seat.is_object() ? seat.as_object().if_contains("slot") : nullptr;
        const auto* identity = seat.is_object() ? seat.as_object().if_contains("identity") : nullptr;
        if (slot && slot->is_int64() && slot->as_int64() >= 0 && slot->as_int64() < kMatchSeats && identity && identity->is_string())
            view.seated[static_cast<std::size_t>(slot->as_int64())] = !identity->as_string().empty();
    }
    return view;
}

struct Server {
    std::unique_ptr<ChildProcess> process;
    std::uint16_t port = 0;
    ~Server() {
        process.reset();  // killed and reaped before its port is free for another match
        if (port != 0) release_port(port);
    }
};

// The drop-in server, listening; retried on a fresh port when it ends before it answers.
league::Result<void> start_server(const MatchPlan& plan, const fs::path& scratch, Server& server) {
    for (int attempt = 0; attempt < kServerStartAttempts; ++attempt) {
        if (server.port != 0) release_port(server.port);
        server.port = claim_port();
        if (server.port == 0) return hschool::unexpected(std::string("no free loopback port"));
        SpawnSpec spec;
        spec.argv = {plan.server.string(), "--data", (scratch / "server.db").string(), "--mods", (scratch / "mods").string(),
                     "--web-root", (scratch / "web").string(), "--log-level", "warn", "--hns-max-ticks-per-second",
                     std::to_string(kServerMaxTicksPerSecond)};
        spec.env = {{"COGAME_CONFIG_URI", file_uri(scratch / "config.json")},
                    {"COGAME_RESULTS_URI", file_uri(scratch / "results.json")},
                    {"COGAME_SAVE_REPLAY_URI", file_uri(scratch / "replay.cowldhns")},
                    {"COGAME_HOST", "127.0.0.1"},
                    {"COGAME_PORT", std::to_string(server.port)},
                    {"HSCHOOL_DROPIN_LINGER_MS", kServerLingerMs}};
        spec.log = plan.logs / "server.log";
        server.process = std::make_unique<ChildProcess>(spec);
        if (!server.process->started()) return hschool::unexpected("cannot start " + plan.server.string() + ": " + server.process->error());
        const auto until = Clock::now() + kServerReadyTimeout;
        while (!server.process->poll() && Clock::now() < until) {
            if (read_lobby(server.port).known && !server.process->poll()) return {};
            std::this_thread::sleep_for(kWatchPoll);
        }
        server.process->finish(0ms);
    }
    return hschool::unexpected("the server did not start: " + log_tail(plan.logs / "server.log"));
}

struct SeatRun {
    std::unique_ptr<ChildProcess> program, stand_in;
    Clock::time_point started;
    std::optional<Ending> ended;  // seen while the match ran
    bool seated = false, silent = false, before_seat = false;
    bool during = false;  // ended while the match still ran: the server's burrow played the rest
};

void stand_in(const MatchPlan& plan, std::uint16_t port, int slot, SeatRun& seat) {
    SpawnSpec spec;
    spec.argv = {plan.tool.string(), "seat", "--url", player_url(port, slot, plan.tokens[slot]), "--scripted", "burrow",
                 "--label", "stand-in", "--connect-attempts", std::to_string(kStandInConnectAttempts)};
    spec.log = plan.logs / ("seat" + std::to_string(slot) + "-stand-in.log");
    seat.stand_in = std::make_unique<ChildProcess>(spec);
}

std::string ending_text(const MatchPlan& plan, const SeatRun& seat, const Ending& ending, bool stopped) {
    const std::string stood = "; burrow stood in";
    if (!seat.program || !seat.program->started()) return "not started" + stood;
    if (seat.silent) return "silent: no seat in " + std::to_string(plan.grace.count()) + " s, killed" + stood;
    if (seat.before_seat) return ending.text() + " before taking its seat" + stood;
    if (seat.during) return ending.text() + " during the match; burrow played the rest";
    if (stopped) return "running after the match: killed";
    return ending.text();
}

// Watches the lobby until the match is over: the replay is there (written after the results,
// before the seats hear 1000), or the server has gone.
bool watch(const MatchPlan& plan, const fs::path& replay, Server& server, std::array<SeatRun, kMatchSeats>& seats) {
    const auto deadline = Clock::now() + plan.wall;
    bool lobby = true;
    int lowest = -1;
    auto lowest_since = Clock::now();
    std::error_code ec;
    while (!server.process->poll() && !fs::exists(replay, ec)) {
        const auto now = Clock::now();
        if (now >= deadline) return false;
        for (auto& seat : seats) {
            if (!seat.program || seat.ended || !(seat.ended = seat.program->poll())) continue;
            // The replay is written before the seats hear 1000: missing after the exit, the match still ran.
            seat.during = !fs::exists(replay, ec);
        }
        if (lobby) {
            const LobbyView view = read_lobby(server.port);
            lobby = !view.known || !view.over;
            if (view.known && !view.over) {
                int low = kMatchSeats;
                for (int s = kMatchSeats - 1; s >= 0; --s)
                    if (!view.seated[s]) low = s;
                if (low != lowest) lowest = low, lowest_since = now;
                for (int s = 0; s < kMatchSeats; ++s) {
                    SeatRun& seat = seats[s];
                    seat.seated = seat.seated || view.seated[s];
                    if (seat.seated || seat.stand_in) continue;
                    if (!seat.program || !seat.program->started() || seat.ended) {
                        seat.before_seat = true;
                        stand_in(plan, server.port, s, seat);
                    } else if (s == lowest && now - seat.started >= plan.grace && now - lowest_since >= kLowestSettle) {
                        seat.silent = true;
                        seat.ended = seat.program->finish(0ms).first;
                        stand_in(plan, server.port, s, seat);
                    }
                }
            }
        }
        std::this_thread::sleep_for(kWatchPoll);
    }
    return true;
}

}  // namespace

std::string player_url(std::uint16_t port, int slot, const std::string& token) {
    return "ws://127.0.0.1:" + std::to_string(port) + "/player?slot=" + std::to_string(slot) + "&token=" + token;
}

league::Result<MatchRun> run_server_match(const MatchPlan& plan) {
    const fs::path scratch = plan.logs / "scratch";
    std::error_code ec;
    fs::remove_all(scratch, ec);
    for (const char* dir : {"mods", "web"})
        if (fs::create_directories(scratch / dir, ec); ec) return fail("cannot make " + scratch.string() + ": " + ec.message());
    {
        std::ofstream config(scratch / "config.json", std::ios::binary | std::ios::trunc);
        if (!(config << plan.config_json) || !config.flush()) return fail("cannot write " + (scratch / "config.json").string());
    }
    Server server;
    if (auto started = start_server(plan, scratch, server); !started) return fail(started.error());

    std::array<SeatRun, kMatchSeats> seats;
    for (int s = 0; s < kMatchSeats; ++s) {
        SpawnSpec spec;
        spec.argv = plan.program[s](player_url(server.port, s, plan.tokens[s]));
        spec.log = plan.logs / ("seat" + std::to_string(s) + ".log");
        seats[s].program = std::make_unique<ChildProcess>(spec);
        seats[s].started = Clock::now();
    }
    const bool finished = watch(plan, scratch / "replay.cowldhns", server, seats);

    // The programs leave on the match's end by themselves; whatever still runs then is stopped,
    // all groups at once: SIGTERM, a second, SIGKILL to what is left, and every leader reaped.
    std::vector<ChildProcess*> children;
    for (auto& seat : seats)
        for (auto* child : {seat.program.get(), seat.stand_in.get()})
            if (child != nullptr) children.push_back(child);
    const auto all_gone = [&] {
        return std::all_of(children.begin(), children.end(), [](ChildProcess* c) { return c->poll().has_value(); });
    };
    for (const auto until = Clock::now() + kProgramExitGrace; finished && !all_gone() && Clock::now() < until;)
        std::this_thread::sleep_for(kWatchPoll);
    server.process->finish(kServerStopGrace);
    std::array<bool, kMatchSeats> stopped{};
    for (int s = 0; s < kMatchSeats; ++s) stopped[s] = seats[s].program && !seats[s].program->poll();
    for (auto* child : children) child->signal_group(SIGTERM);
    for (const auto until = Clock::now() + kTermGrace; !all_gone() && Clock::now() < until;) std::this_thread::sleep_for(kWatchPoll);
    MatchRun run;
    for (int s = 0; s < kMatchSeats; ++s) {
        SeatRun& seat = seats[s];
        if (seat.stand_in) seat.stand_in->finish(0ms);
        if (!seat.program) continue;
        const Ending ending = seat.program->finish(0ms).first;
        if (plan.reported[s]) run.endings[s] = ending_text(plan, seat, seat.ended.value_or(ending), stopped[s] && !seat.silent);
    }
    if (!finished) return fail("over its wall time of " + std::to_string(plan.wall.count()) + " s; the server and the programs were killed");

    auto results = read_bounded(scratch / "results.json");
    auto replay = read_bounded(scratch / "replay.cowldhns");
    if (!results || !replay) return fail("the server wrote no results: " + log_tail(plan.logs / "server.log"));
    run.results = std::move(*results);
    run.replay = std::move(*replay);
    fs::remove_all(scratch, ec);
    return run;
}

}  // namespace hschool::tools::hns
