#include "child_process.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <thread>

extern char** environ;

namespace hschool::tools::hns {
namespace {

constexpr auto kExitPoll = std::chrono::milliseconds(10);
constexpr int kExecFailedCode = 127;  // the shell's "command not found"
// Descriptors above this are closed one by one where close_range is missing.
constexpr int kMaxInheritedFd = 4096;

std::array<std::atomic<pid_t>, kMaxLiveChildren> g_live{};
static_assert(std::atomic<pid_t>::is_always_lock_free, "read from a signal handler");

void remember(pid_t pid) {
    for (auto& slot : g_live) {
        pid_t empty = 0;
        if (slot.compare_exchange_strong(empty, pid)) return;
    }
}

void forget(pid_t pid) {
    for (auto& slot : g_live) {
        pid_t expected = pid;
        if (slot.compare_exchange_strong(expected, 0)) return;
    }
}

Ending ending_of_status(int status) {
    Ending e;
    e.exited = WIFEXITED(status);
    if (e.exited) e.code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status)) e.signal = WTERMSIG(status);
    return e;
}

// Only async-signal-safe calls between fork and exec: the league runs threads.
[[noreturn]] void exec_child(const char* path, char* const* argv, char* const* envp, const char* log) {
    ::setpgid(0, 0);
    const int out = ::open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int in = ::open("/dev/null", O_RDONLY);
    if (out < 0 || in < 0) ::_exit(kExecFailedCode);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(out, 2);
    if (::close_range(3, ~0U, 0) != 0)
        for (int fd = 3; fd < kMaxInheritedFd; ++fd) ::close(fd);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    for (const int sig : {SIGINT, SIGTERM, SIGPIPE, SIGHUP}) ::signal(sig, SIG_DFL);
    ::execve(path, argv, envp);
    constexpr char kFailed[] = "hschool-hns league: cannot start this program (exec failed)\n";
    [[maybe_unused]] const auto written = ::write(2, kFailed, sizeof kFailed - 1);
    ::_exit(kExecFailedCode);
}

}  // namespace

std::string Ending::text() const { return exited ? "exit " + std::to_string(code) : "signal " + std::to_string(signal); }

ChildProcess::ChildProcess(const SpawnSpec& spec) {
    if (spec.argv.empty()) {
        error_ = "no program";
        return;
    }
    // Everything exec needs is built before fork.
    std::vector<std::string> env;
    for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
        const std::string entry(*e);
        const std::string key = entry.substr(0, entry.find('='));
        bool overridden = false;
        for (const auto& [k, v] : spec.env) overridden = overridden || k == key;
        if (!overridden) env.push_back(entry);
    }
    for (const auto& [k, v] : spec.env) env.push_back(k + "=" + v);
    std::vector<char*> argv, envp;
    auto args = spec.argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    for (auto& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
    const std::string log = spec.log.string();

    pid_ = ::fork();
    if (pid_ == 0) exec_child(argv[0], argv.data(), envp.data(), log.c_str());
    if (pid_ < 0) {
        error_ = std::string("fork: ") + std::strerror(errno);
        return;
    }
    ::setpgid(pid_, pid_);  // both sides set it: no window where a signal to the group misses it
    remember(pid_);
}

ChildProcess::~ChildProcess() {
    if (started() && !reaped_) finish(std::chrono::milliseconds(0));
}

std::optional<Ending> ChildProcess::poll() {
    if (ending_ || !started()) return ending_;
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid == 0) return std::nullopt;
    Ending e;
    e.exited = info.si_code == CLD_EXITED;
    (e.exited ? e.code : e.signal) = info.si_status;
    ending_ = e;
    return ending_;
}

void ChildProcess::signal_group(int sig) const {
    if (started() && !reaped_) ::kill(-pid_, sig);
}

std::pair<Ending, bool> ChildProcess::finish(std::chrono::milliseconds grace) {
    if (!started()) return {Ending{}, false};
    if (reaped_) return {ending_.value_or(Ending{}), false};
    const bool running = !poll();
    if (running) {
        signal_group(SIGTERM);
        const auto until = std::chrono::steady_clock::now() + grace;
        while (!poll() && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(kExitPoll);
    }
    // The leader is unreaped, so the group id still names this group: its leftovers die too.
    signal_group(SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    reaped_ = true;
    forget(pid_);
    if (!ending_) ending_ = ending_of_status(status);
    return {*ending_, running};
}

void kill_all_children_now() {
    for (auto& slot : g_live)
        if (const pid_t pid = slot.load(); pid > 0) ::kill(-pid, SIGKILL);
}

std::uint16_t free_loopback_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return 0;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    std::uint16_t port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
        port = ntohs(addr.sin_port);
    ::close(fd);
    return port;
}

std::filesystem::path self_executable() {
    std::error_code ec;
    auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path() : path;
}

}  // namespace hschool::tools::hns
