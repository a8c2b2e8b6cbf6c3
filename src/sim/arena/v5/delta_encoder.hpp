#pragma once
// One v5 connection's side of the delta stream: remembers exactly what it last queued (its replica
// of the client's replica) and codes the next Frame against it. Any base works, so a connection
// that was skipped for some ticks simply gets a larger, coalesced delta; the chain never breaks.
// Used by one thread at a time (the network thread that writes the connection).
#include <cstdint>
#include <vector>

#include "protocol/v5.hpp"
#include "sim/arena/v5/tick_artifacts.hpp"

namespace hschool::sim::arena::v5 {

// A base older than this many ticks gets a keyframe instead of a delta (design §2.1).
inline constexpr std::uint32_t kKeyframeAfterTicks = 32;

class DeltaEncoder {
public:
    // The Frame for t against the last one this encoder made; the first is a keyframe.
    const protocol::v5::Frame& next(const TickArtifacts& t, std::uint16_t self_slot);
    // The window the last Frame was built for (tests check the replica against it).
    const Window& window() const { return window_; }

private:
    std::vector<Visible> replica_;  // what the client holds after the last Frame, by slot
    std::vector<Visible> now_;
    protocol::v5::Frame frame_;
    Window window_;
    std::uint32_t base_tick_ = 0;
    std::uint32_t last_far_tick_ = 0;
    bool started_ = false;
};

// The smallest record that takes `from` to `to` (same slot and id), or none when nothing changed.
bool make_update(const Visible& from, const Visible& to, protocol::v5::Update& out);

}  // namespace hschool::sim::arena::v5
