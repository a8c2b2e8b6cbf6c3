#pragma once
// A v5 player's queued commands: one Input is one tick's mask, popped by one step each.
// Bounded: a full FIFO drops its oldest command; a sequence not above the last queued is ignored.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "server/arena/limits.hpp"

namespace hschool::server {

struct QueuedInput {
    std::uint32_t seq = 0;
    std::uint8_t mask = 0;
};

class InputFifo {
public:
    // False when ignored (a stale or repeated sequence).
    bool push(std::uint32_t seq, std::uint8_t mask) {
        if (seq <= last_queued_) return false;
        last_queued_ = seq;
        if (size_ == ring_.size()) pop();  // the oldest command goes: the newest intent wins
        ring_[(head_ + size_) % ring_.size()] = {seq, mask};
        ++size_;
        return true;
    }
    std::optional<QueuedInput> pop() {
        if (size_ == 0) return std::nullopt;
        const QueuedInput front = ring_[head_];
        head_ = (head_ + 1) % ring_.size();
        --size_;
        return front;
    }
    std::size_t size() const { return size_; }

private:
    std::array<QueuedInput, kV5InputFifo> ring_{};
    std::size_t head_ = 0;
    std::size_t size_ = 0;
    std::uint32_t last_queued_ = 0;  // so sequences start at 1
};

}  // namespace hschool::server
