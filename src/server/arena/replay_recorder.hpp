#pragma once
// --record FILE: the loop thread records each arena step into memory; a background thread
// appends the bytes to the file, so disk I/O never stalls the tick.
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>

#include "sim/replay/replay_writer.hpp"

namespace hschool::server {

class ReplayRecorder {
public:
    // Nothing (with the reason in error) when the file cannot be created.
    static std::unique_ptr<ReplayRecorder> open(const std::filesystem::path& file,
                                                const sim::arena::ArenaSettings& settings, std::string& error);
    ~ReplayRecorder();  // writes what is left and closes the file

    // Loop thread only.
    void record(std::uint32_t tick, std::span<const sim::arena::ArenaCommand> commands, std::uint64_t hash);

private:
    ReplayRecorder(std::FILE* file, const sim::arena::ArenaSettings& settings);
    void write_loop();

    std::FILE* file_;
    sim::replay::ReplayWriter writer_;
    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<protocol::Bytes> chunks_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace hschool::server
