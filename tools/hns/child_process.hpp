#pragma once
// Child processes of a server-backed league (issue 33): each one the leader of its own process
// group (a program's helpers die with it; the terminal's Ctrl-C reaches the league alone), its
// stdout and stderr in a log file, stdin from /dev/null. An exit is observed without reaping, so
// the group id stays reserved until finish() has killed whatever is left of the group.
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hschool::tools::hns {

// Live child groups the league keeps track of at once (64 jobs x 13 processes fit).
inline constexpr std::size_t kMaxLiveChildren = 1024;

struct SpawnSpec {
    std::vector<std::string> argv;  // argv[0] is an absolute path (no PATH search)
    std::vector<std::pair<std::string, std::string>> env;  // set over the league's own environment
    std::filesystem::path log;  // stdout and stderr, truncated
};

// How a child ended: its exit code, or the signal that ended it.
struct Ending {
    bool exited = false;
    int code = 0;    // when exited
    int signal = 0;  // otherwise
    std::string text() const;  // "exit 3", "signal 9"
};

class ChildProcess {
public:
    explicit ChildProcess(const SpawnSpec& spec);
    ~ChildProcess();  // finish(0): nothing outlives its owner
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    bool started() const { return pid_ > 0; }
    const std::string& error() const { return error_; }
    pid_t pid() const { return pid_; }
    // The ending once the leader has exited (not reaped yet); nothing while it runs.
    std::optional<Ending> poll();
    // Signals the whole group (harmless once it is gone).
    void signal_group(int sig) const;
    // Ends the group: SIGTERM if the leader still runs, up to `grace` for it to leave, then SIGKILL
    // to every member left; reaps the leader. Returns its ending and whether it had to be stopped.
    std::pair<Ending, bool> finish(std::chrono::milliseconds grace);

private:
    pid_t pid_ = -1;
    std::string error_;
    std::optional<Ending> ending_;
    bool reaped_ = false;
};

// From a signal handler: SIGKILL to every live child group (async-signal-safe).
void kill_all_children_now();

// A loopback TCP port nobody listens on right now (bound to 0, read back, closed); 0 on failure.
std::uint16_t free_loopback_port();

// This program's own absolute path (/proc/self/exe); empty when unknown.
std::filesystem::path self_executable();

}  // namespace hschool::tools::hns
