#include "league_command.hpp"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <thread>

#include "child_process.hpp"
#include "sim/hns/game_version.hpp"
#include "league/runner.hpp"
#include "league/table_json.hpp"
#include "server_runner.hpp"
#include "sim/hns/room_files.hpp"

namespace hschool::tools::hns {
namespace {

namespace fs = std::filesystem;
using namespace hschool::league;

constexpr int kExitOk = 0;
constexpr int kExitError = 2;
constexpr int kProgressSteps = 10;  // progress lines per league
constexpr const char* kTableFile = "league.json";
constexpr const char* kReplaySuffix = ".cowldhns";

std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

extern "C" void on_stop_signal(int sig) {
    if (!g_stop.exchange(true)) return;
    // A second Ctrl-C ends the process at once, and its servers and seat programs with it.
    kill_all_children_now();
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

int fail(const std::string& message) {
    std::fprintf(stderr, "hschool-hns league: %s\n", message.c_str());
    return kExitError;
}

// Written beside and renamed over, so a reader never sees half a file.
bool write_atomically(const fs::path& path, const std::string& bytes) {
    const fs::path temp = path.string() + ".tmp";
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        if (!out.flush()) return false;
    }
    std::error_code ec;
    fs::rename(temp, path, ec);
    return !ec;
}

struct Played {
    std::mutex mutex;
    std::vector<std::optional<MatchResult>> rows;
    int count = 0;
    std::string failure;
};

Result<LeagueTable> table_of(const std::vector<Entrant>& entrants, const Played& played, const LeagueInfo& info) {
    std::vector<MatchResult> rows;
    for (const auto& r : played.rows)
        if (r) rows.push_back(*r);
    return build_table(entrants, std::move(rows), info);
}

// Hands out matches in schedule order to `jobs` threads until all are played, a signal stops the
// league, or a match or its replay fails; every match handed out is played to its end.
void play_matches(const Schedule& schedule, const MatchRunner& runner, const fs::path& dir, const std::string& variant,
                  long long jobs, bool quiet, Played& played) {
    const int planned = static_cast<int>(schedule.matches.size());
    g_stop.store(false);
    std::signal(SIGINT, on_stop_signal);
    std::signal(SIGTERM, on_stop_signal);
    std::atomic<int> next{0};
    std::atomic<bool> failed{false};
    const auto worker = [&] {
        while (!g_stop.load() && !failed.load()) {
            const int i = next.fetch_add(1);
            if (i >= planned) return;
            const ScheduledMatch& m = schedule.matches[i];
            auto result = runner.play(m);
            std::string error = result ? "" : result.error();
            const std::string replay = m.id + kReplaySuffix;
            if (result && !write_atomically(dir / replay, result->replay)) error = "cannot write " + (dir / replay).string();
            std::lock_guard lock(played.mutex);
            if (!error.empty()) {
                if (played.failure.empty()) played.failure = error;
                failed.store(true);
                return;
            }
            played.rows[i] = MatchResult{m.id,          m.seed,  variant,          result->gameVersion, m.seats,
                                            result->scores, replay, result->programs};
            ++played.count;
            if (!quiet && played.count * kProgressSteps / planned != (played.count - 1) * kProgressSteps / planned)
                std::fprintf(stderr, "league: %d/%d matches\n", played.count, planned);
        }
    };
    std::vector<std::thread> threads;
    for (long long t = 0; t < std::min<long long>(jobs, planned); ++t) threads.emplace_back(worker);
    for (auto& t : threads) t.join();
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
}

void print_summary(const LeagueTable& t) {
    std::printf("%-16s %-18s %7s  %-17s %-11s %s\n", "entrant", "kind", "rating", "95% interval", "W-D-L", "vs baseline");
    for (const auto& e : t.entrants) {
        char record[48], vor[64] = "-";
        std::snprintf(record, sizeof record, "%d-%d-%d", e.wins, e.draws, e.losses);
        if (e.vor) std::snprintf(vor, sizeof vor, "%+.0f [%+.0f, %+.0f]", e.vor->value, e.vor->low, e.vor->high);
        std::printf("%-16s %-18.18s %7.1f  [%6.1f, %6.1f]  %-11s %s%s\n", e.name.c_str(), e.kind.c_str(), e.rating, e.low,
                    e.high, record, vor, e.provisional ? "  (provisional)" : "");
    }
}

}  // namespace

int run_league(const LeagueOptions& o) {
    std::vector<Entrant> entrants;
    for (const auto& spec : o.entrants) {
        auto e = parse_entrant(spec);
        if (!e) return fail(e.error());
        entrants.push_back(std::move(*e));
    }
    const long long cores = std::max(1u, std::thread::hardware_concurrency());
    const long long jobs = o.jobs > 0 ? o.jobs : std::min(cores, kLeagueMaxJobs);
    if (o.jobs < 0 || jobs > kLeagueMaxJobs)
        return fail("--jobs must be 1 to " + std::to_string(kLeagueMaxJobs) + " (given " + std::to_string(o.jobs) + ")");
    auto schedule = make_schedule(entrants, o.matches, o.seed);
    if (!schedule) return fail(schedule.error());
    if (o.out.empty()) return fail("--out DIR is required");
    if (o.program_grace_seconds < kLeagueMinProgramGrace || o.program_grace_seconds > kLeagueMaxProgramGrace)
        return fail("--program-grace must be " + std::to_string(kLeagueMinProgramGrace) + " to " + std::to_string(kLeagueMaxProgramGrace));
    // Built-ins only: the headless runner alone. Otherwise the server-backed one, which still
    // plays the built-ins' own matches headless.
    std::unique_ptr<MatchRunner> runner;
    const ServerRunner* serverRunner = nullptr;
    if (needs_server(entrants)) {
        auto server = find_server(o.server);
        if (!server) return fail(server.error());
        const fs::path tool = self_executable();
        if (tool.empty()) return fail("cannot find this program's own path (/proc/self/exe) for the seat programs");
        auto made = ServerRunner::create(entrants, ServerRunnerOptions{*server, tool, fs::absolute(o.out), o.variant,
                                                                       std::chrono::seconds(o.program_grace_seconds)},
                                         hschool::sim::hns::rooms_dir());
        if (!made) return fail(made.error());
        serverRunner = made->get();
        runner = std::move(*made);
    } else {
        auto made = HeadlessRunner::create(entrants, o.variant, hschool::sim::hns::rooms_dir());
        if (!made) return fail(made.error());
        runner = std::move(*made);
    }

    const fs::path dir(o.out);
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir)) return fail("cannot create the folder " + o.out + (ec ? ": " + ec.message() : ""));
    const int planned = static_cast<int>(schedule->matches.size());
    // Leagues play today's rules; the table names them and rates no match of another version.
    LeagueInfo info{o.variant, std::string(hschool::sim::hns::game_version_text(hschool::sim::hns::kCurrentGameVersion)),
                    o.seed,    schedule->matchesPerPairing,
                    planned,   LeagueState::Running};
    Played played;
    played.rows.resize(planned);
    const auto write_table = [&](const LeagueInfo& at) -> Result<LeagueTable> {
        auto table = table_of(entrants, played, at);
        if (!table) return table;
        if (!write_atomically(dir / kTableFile, pretty_json(table_json(*table))))
            return Result<LeagueTable>(hschool::unexpected("cannot write " + (dir / kTableFile).string()));
        return table;
    };
    // The empty table first: it proves the folder writable before any match is played.
    if (auto first = write_table(info); !first) return fail(first.error());

    play_matches(*schedule, *runner, dir, o.variant, jobs, o.quiet, played);
    info.state = played.count == planned ? LeagueState::Finished : LeagueState::Stopped;
    auto table = write_table(info);
    if (!table) return fail(table.error());
    if (!played.failure.empty()) return fail(played.failure + " (the table of the " + std::to_string(played.count) +
                                              " matches played is in " + (dir / kTableFile).string() + ")");
    print_summary(*table);
    if (serverRunner != nullptr)
        for (const auto& line : serverRunner->notes()) std::printf("%s\n", line.c_str());
    if (info.state == LeagueState::Stopped) {
        std::fprintf(stderr, "league: stopped after %d of %d matches; %s has their table\n", played.count, planned,
                     (dir / kTableFile).string().c_str());
        return kLeagueExitStopped;
    }
    return kExitOk;
}

}  // namespace hschool::tools::hns
