#include "server/arena/replay_recorder.hpp"
#include "util/log.hpp"

#include <cerrno>
#include <cstring>

namespace hschool::server {

inline constexpr std::size_t kReplayChunkBytes = 16 * 1024;  // hand-off size under heavy input
inline constexpr std::uint32_t kReplayHandoffTicks = 20;      // and at least this often, so a crash loses little

std::unique_ptr<ReplayRecorder> ReplayRecorder::open(const std::filesystem::path& file,
                                                     const sim::arena::ArenaSettings& settings, std::string& error) {
    std::FILE* handle = std::fopen(file.c_str(), "wb");
    if (!handle) {
        error = "cannot write replay file " + file.string() + ": " + std::strerror(errno);
        return nullptr;
    }
    return std::unique_ptr<ReplayRecorder>(new ReplayRecorder(handle, settings));
}

ReplayRecorder::ReplayRecorder(std::FILE* file, const sim::arena::ArenaSettings& settings)
    : file_(file), writer_(settings), thread_([this] { write_loop(); }) {}

ReplayRecorder::~ReplayRecorder() {
    {
        std::lock_guard lock(mutex_);
        chunks_.push_back(writer_.take_chunk());
        stopping_ = true;
    }
    ready_.notify_one();
    thread_.join();
    std::fclose(file_);
}

void ReplayRecorder::record(std::uint32_t tick, std::span<const sim::arena::ArenaCommand> commands, std::uint64_t hash) {
    writer_.record(tick, commands, hash);
    if (writer_.pending_bytes() < kReplayChunkBytes && tick % kReplayHandoffTicks != 0) return;
    {
        std::lock_guard lock(mutex_);
        chunks_.push_back(writer_.take_chunk());
    }
    ready_.notify_one();
}

void ReplayRecorder::write_loop() {
    std::unique_lock lock(mutex_);
    while (true) {
        ready_.wait(lock, [this] { return stopping_ || !chunks_.empty(); });
        while (!chunks_.empty()) {
            protocol::Bytes chunk = std::move(chunks_.front());
            chunks_.pop_front();
            lock.unlock();
            if (std::fwrite(chunk.data(), 1, chunk.size(), file_) != chunk.size() || std::fflush(file_) != 0)
                logging::error("event=replay_write_failed error=\"{}\"", std::strerror(errno));
            lock.lock();
        }
        if (stopping_) return;
    }
}

}  // namespace hschool::server
