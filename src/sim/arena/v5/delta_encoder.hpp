#pragma once
// One v5 connection's side of the delta stream: remembers the artefacts and window of the last
// Frame it queued (the client's replica is exactly that window's players) and codes the next Frame
// against them. Any base works, so a connection that was skipped for some ticks simply gets a
// larger, coalesced delta; the chain never breaks. Used by one thread at a time (the network
// thread that writes the connection).
#include <cstdint>
#include <memory>
#include <vector>

#include "protocol/bytes.hpp"
#include "protocol/v5.hpp"
#include "sim/arena/v5/tick_artifacts.hpp"

namespace hschool::sim::arena::v5 {

// A base older than this many ticks gets a keyframe instead of a delta (design §2.1).
inline constexpr std::uint32_t kKeyframeAfterTicks = 32;

class DeltaEncoder {
public:
    // Appends the Frame for t against the last one this encoder made (the first is a keyframe) to out.
    void encode_next(const std::shared_ptr<const TickArtifacts>& t, std::uint16_t self_slot, protocol::Bytes& out);
    // The connection is skipped at this tick: lets go of a base too old to delta from, so a
    // connection that stays behind pins no artefacts (at most kKeyframeAfterTicks + 1 stay alive).
    void skip(std::uint32_t tick);
    // Whether the encoder still holds the artefacts of its last Frame (tests).
    bool holds_base() const { return base_ != nullptr; }
    // The same, decoded: for tests and tools.
    protocol::v5::Frame next(const std::shared_ptr<const TickArtifacts>& t, std::uint16_t self_slot);
    // The window the last Frame was built for (tests check the replica against it).
    const Window& window() const { return window_; }
    // Frames coded from a tick's deltas; the others (keyframes, after a skip) were merged.
    std::uint64_t frames_from_deltas() const { return frames_from_deltas_; }

private:
    void merge(const TickArtifacts& t, const Window& now_window, bool keyframe);
    void code_from_deltas(const TickArtifacts& t, const Window& now_window);

    // The base is read from the tick's shared artefacts (hot in cache: every connection of the
    // thread reads them) rather than from a per-connection copy, which cost a cache miss per entry.
    std::shared_ptr<const TickArtifacts> base_;
    std::uint32_t base_tick_ = 0;  // the last Frame's tick, kept when base_ is let go
    bool started_ = false;
    Window window_;
    std::uint32_t last_far_tick_ = 0;
    std::uint64_t frames_from_deltas_ = 0;
};

// The smallest record that takes `from` to `to` (same slot and id), or none when nothing changed.
bool make_update(const Visible& from, const Visible& to, protocol::v5::Update& out);

}  // namespace hschool::sim::arena::v5
