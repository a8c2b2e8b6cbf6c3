#pragma once
// Starts the real hschool-server binary on an ephemeral loopback port for integration tests.
#include <sys/resource.h>
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "wait.hpp"

namespace hschool::test {

class ServerProcess {
public:
    // How the child is started, beyond its arguments.
    struct Launch {
        std::optional<rlim_t> max_open_files;  // RLIMIT_NOFILE set in the child before exec, like `ulimit -n`
        std::vector<std::pair<std::string, std::string>> env;  // set in the child's environment before exec
    };

    // Starts the server with --port 0 and the given extra arguments; waits for its listening line.
    explicit ServerProcess(std::vector<std::string> extra_args = {});
    ServerProcess(std::vector<std::string> extra_args, const Launch& launch);
    ~ServerProcess();
    ServerProcess(const ServerProcess&) = delete;
    ServerProcess& operator=(const ServerProcess&) = delete;

    bool started() const { return port_ != 0; }
    std::uint16_t port() const { return port_; }
    pid_t pid() const { return pid_; }
    // When the server exited before it listened: its exit status (128 + signal when killed).
    std::optional<int> start_exit_status() const { return start_exit_status_; }
    // Sends a signal and waits for the exit; the exit status, or nothing if it did not exit in time.
    std::optional<int> stop(int signal, std::chrono::milliseconds timeout = kWait);
    // The exit status once the server has exited by itself, else nothing (it keeps running).
    std::optional<int> exited();
    std::string output() const;  // everything the server printed so far

    static std::filesystem::path binary();
    static std::filesystem::path source_dir();

private:
    void drain_output(int fd);
    void finish_output();

    pid_t pid_ = -1;
    std::uint16_t port_ = 0;
    std::optional<int> start_exit_status_;
    mutable std::mutex output_mutex_;
    std::string output_;
    std::thread reader_;
};

// A fresh empty directory under the system temp dir, removed when the object goes.
class TempDir {
public:
    TempDir();
    ~TempDir();
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

}  // namespace hschool::test
