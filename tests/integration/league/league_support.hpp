#pragma once
// The league tests' pieces: a drop-in config with tokens, the server in drop-in or replay mode,
// and `hschool-hns seat` as a real child process.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <fstream>
#include <map>
#include <thread>

#include "hns_client.hpp"

extern char** environ;

namespace hschool::test::league {

using namespace hschool::test::hns;

inline constexpr int kSeats = 6;

inline std::string token_of(int slot) { return "token-" + std::to_string(slot); }

// A short two-game episode on warren with the league's tokens and player names.
inline std::string league_config(const std::string& extra = "") {
    return R"({"roomPool":"warren","seed":42,"prepTurns":2,"huntTurns":3,"startWaitTicks":0,"gameOverTicks":24,)"
           R"("tokens":["token-0","token-1","token-2","token-3","token-4","token-5"],)"
           R"("players":[{"name":"alpha"},{"name":"bravo"},{"name":"charlie"},{"name":"delta"},{"name":"echo"},{"name":"foxtrot"}])" +
           extra + "}";
}

// The runner's files of one drop-in episode, under `dir`.
struct LeagueFiles {
    std::filesystem::path config, results, replay, events, metrics;
    explicit LeagueFiles(const std::filesystem::path& dir)
        : config(dir / "config.json"), results(dir / "results.json"), replay(dir / "replay.cowldhns"),
          events(dir / "events.jsonl"), metrics(dir / "metrics.json") {}
};

inline ServerProcess::Launch dropin_launch(const LeagueFiles& files, std::uint16_t port, const std::string& linger_ms = "500") {
    ServerProcess::Launch launch;
    launch.env = {{"COGAME_CONFIG_URI", "file://" + files.config.string()},
                  {"COGAME_RESULTS_URI", "file://" + files.results.string()},
                  {"COGAME_SAVE_REPLAY_URI", "file://" + files.replay.string()},
                  {"COGAME_EVENTS_URI", "file://" + files.events.string()},
                  {"COGAME_METRICS_URI", "file://" + files.metrics.string()},
                  {"COGAME_HOST", "127.0.0.1"},
                  {"COGAME_PORT", std::to_string(port)},
                  {"HSCHOOL_DROPIN_LINGER_MS", linger_ms}};
    return launch;
}

// Waits (bounded) for a server that ends by itself; its exit status.
inline std::optional<int> wait_exit(ServerProcess& server, std::chrono::milliseconds timeout = 60s) {
    const auto until = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < until) {
        if (auto status = server.exited()) return status;
        std::this_thread::sleep_for(50ms);
    }
    return std::nullopt;
}

// `hschool-hns seat ...` as a child process, its stdout and stderr in a file.
class SeatProcess {
public:
    SeatProcess(const std::vector<std::string>& args, const std::filesystem::path& log) : log_(log) {
        std::vector<std::string> argv{HSCHOOL_HNS_TOOL, "seat"};
        argv.insert(argv.end(), args.begin(), args.end());
        std::vector<char*> raw;
        for (auto& a : argv) raw.push_back(a.data());
        raw.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        posix_spawn_file_actions_adddup2(&actions, 1, 2);
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        if (posix_spawn(&pid_, raw[0], &actions, nullptr, raw.data(), environ) != 0) pid_ = -1;
        posix_spawn_file_actions_destroy(&actions);
    }
    ~SeatProcess() {
        if (pid_ > 0 && !status_) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
    }
    SeatProcess(const SeatProcess&) = delete;
    SeatProcess& operator=(const SeatProcess&) = delete;

    bool started() const { return pid_ > 0; }
    // The exit status once it has exited (128 + signal when killed), waiting at most `timeout`.
    std::optional<int> wait(std::chrono::milliseconds timeout = 60s) {
        const auto until = std::chrono::steady_clock::now() + timeout;
        while (!status_ && pid_ > 0 && std::chrono::steady_clock::now() < until) {
            int raw = 0;
            if (::waitpid(pid_, &raw, WNOHANG) == pid_) status_ = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
            else std::this_thread::sleep_for(20ms);
        }
        return status_;
    }
    std::string log() const { return read_file(log_); }

private:
    std::filesystem::path log_;
    pid_t pid_ = -1;
    std::optional<int> status_;
};

inline std::vector<std::string> seat_args(std::uint16_t port, int slot, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"--url", "ws://127.0.0.1:" + std::to_string(port) + "/player?slot=" + std::to_string(slot) +
                                               "&token=" + token_of(slot),
                                  "--connect-attempts", "40"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

inline std::vector<json::value> json_lines(const std::string& text) {
    std::vector<json::value> rows;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) rows.push_back(parse(line));
    return rows;
}

}  // namespace hschool::test::league
