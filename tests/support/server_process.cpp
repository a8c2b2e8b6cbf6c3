#include "server_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <condition_variable>
#include <random>
#include <regex>

namespace hschool::test {

// Its listening line: a second on a quiet machine (a sanitized server builds its rooms slowly).
inline constexpr auto kStartTimeout = kWait;

std::filesystem::path ServerProcess::binary() { return HSCHOOL_SERVER_BINARY; }
std::filesystem::path ServerProcess::source_dir() { return HSCHOOL_SOURCE_DIR; }

ServerProcess::ServerProcess(std::vector<std::string> extra_args) : ServerProcess(std::move(extra_args), Launch{}) {}

ServerProcess::ServerProcess(std::vector<std::string> extra_args, const Launch& launch) {
    // Leagues at nice 10 only: beside the suite's other tests and the fuzzers a SCHED_IDLE thread waits minutes.
    std::vector<std::string> args{binary().string(), "--address", "127.0.0.1", "--port", "0", "--hns-league-priority", "low"};
    args.insert(args.end(), extra_args.begin(), extra_args.end());
    // Built before fork: the child only makes system calls until exec.
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    int fds[2];
    if (pipe(fds) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        close(fds[1]);
        if (launch.max_open_files) {
            const rlimit limit{*launch.max_open_files, *launch.max_open_files};
            if (setrlimit(RLIMIT_NOFILE, &limit) != 0) _exit(126);
        }
        for (const auto& [name, value] : launch.env) setenv(name.c_str(), value.c_str(), 1);
        execv(argv[0], argv.data());
        _exit(127);
    }
    close(fds[1]);
    reader_ = std::thread([this, fd = fds[0]] { drain_output(fd); });
    const auto deadline = std::chrono::steady_clock::now() + kStartTimeout;
    const std::regex listening(R"(event=listening address=\S+ port=(\d+))");
    while (std::chrono::steady_clock::now() < deadline) {
        std::smatch match;
        const std::string text = output();
        if (std::regex_search(text, match, listening)) {
            port_ = static_cast<std::uint16_t>(std::stoi(match[1]));
            return;
        }
        int status = 0;
        if (waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = -1;
            start_exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            finish_output();
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

ServerProcess::~ServerProcess() {
    if (pid_ > 0) stop(SIGKILL);
    if (reader_.joinable()) reader_.join();
}

std::optional<int> ServerProcess::stop(int signal, std::chrono::milliseconds timeout) {
    if (pid_ <= 0) return std::nullopt;
    kill(pid_, signal);
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
        int status = 0;
        if (waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = -1;
            finish_output();
            if (WIFEXITED(status)) return WEXITSTATUS(status);
            return 128 + WTERMSIG(status);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
    finish_output();
    return std::nullopt;
}

std::optional<int> ServerProcess::exited() {
    if (pid_ <= 0) return std::nullopt;
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) != pid_) return std::nullopt;
    pid_ = -1;
    finish_output();
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// The process is gone: what it wrote last is read to the end of the pipe before anyone looks, or a
// test reading output() right after the exit could miss its last lines.
void ServerProcess::finish_output() {
    if (reader_.joinable()) reader_.join();
}

std::string ServerProcess::output() const {
    std::lock_guard lock(output_mutex_);
    return output_;
}

void ServerProcess::drain_output(int fd) {
    char buffer[4096];
    while (true) {
        const ssize_t n = read(fd, buffer, sizeof buffer);
        if (n <= 0) break;
        std::lock_guard lock(output_mutex_);
        output_.append(buffer, static_cast<std::size_t>(n));
    }
    close(fd);
}

TempDir::TempDir() {
    std::random_device random;
    path_ = std::filesystem::temp_directory_path() / ("hschool-test-" + std::to_string(getpid()) + "-" + std::to_string(random()));
    std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
}

}  // namespace hschool::test
