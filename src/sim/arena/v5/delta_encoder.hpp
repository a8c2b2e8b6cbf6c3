#pragma once
// One v5 connection's side of the delta stream: remembers the artefacts and window of the last
// Frame it queued (the client's replica is exactly that window's players) and codes the next Frame
// against them. Any base works, so a connection that was skipped for some ticks simply gets a
// larger, coalesced delta; the chain never breaks. Used by one thread at a time (the network
// thread that writes the connection).
#include <cstdint>
#include <memory>
#include <vector>

#include "protocol/v5.hpp"
#include "sim/arena/v5/tick_artifacts.hpp"

namespace hschool::sim::arena::v5 {

// A base older than this many ticks gets a keyframe instead of a delta (design §2.1).
inline constexpr std::uint32_t kKeyframeAfterTicks = 32;

class DeltaEncoder {
public:
    // The Frame for t against the last one this encoder made; the first is a keyframe. The Frame
    // is the calling thread's scratch: valid until that thread's next call of any encoder.
    const protocol::v5::Frame& next(const std::shared_ptr<const TickArtifacts>& t, std::uint16_t self_slot);
    // The window the last Frame was built for (tests check the replica against it).
    const Window& window() const { return window_; }

private:
    // The base is read from the tick's shared artefacts (hot in cache: every connection of the
    // thread reads them) rather than from a per-connection copy, which cost a cache miss per entry.
    // At most kKeyframeAfterTicks + 1 artefacts stay alive for a connection's sake.
    std::shared_ptr<const TickArtifacts> base_;
    Window window_;
    std::uint32_t last_far_tick_ = 0;
};

// The smallest record that takes `from` to `to` (same slot and id), or none when nothing changed.
bool make_update(const Visible& from, const Visible& to, protocol::v5::Update& out);

}  // namespace hschool::sim::arena::v5
