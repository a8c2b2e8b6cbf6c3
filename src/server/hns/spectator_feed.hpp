#pragma once
// The /global and /admin viewers of one match (issue 19): those in step share one encoded diff per
// tick, framed once; a new viewer gets a keyframe (the header and the full board); one that falls
// behind has its backlog dropped and gets a keyframe once its socket has drained. So a match pays
// about one encode per tick whatever the number of spectators, and a slow spectator keeps watching
// with bounded memory. Match thread only.
#include <array>
#include <cstddef>
#include <map>
#include <vector>

#include "render/hns/scene.hpp"
#include "render/hns/stream.hpp"
#include "server/hns/peer.hpp"

namespace hschool::server::hns {

struct SpectatorTick {
    std::size_t deltas = 0;     // shared diffs encoded (at most one per Sprites On/Off group)
    std::size_t keyframes = 0;  // keyframes encoded (at most one per group, shared by every viewer that needed one)
    std::size_t resyncs = 0;    // viewers whose backlog was dropped this tick
    std::size_t bytes = 0;      // payload bytes queued, summed over viewers
};

class SpectatorFeed {
public:
    struct Viewer {
        int id = 0;
        Peer* peer = nullptr;
        // The socket's own stream: not started() means it needs a keyframe (a new socket, or a
        // restart reset it); sprites_off() picks its group. Set to the keyframe's state when it gets one.
        render::hns::Stream* own = nullptr;
    };

    // This tick's frames for every viewer (the list is the match's spectators now: the feed
    // forgets those no longer in it).
    SpectatorTick send(const render::hns::Scene& scene, const std::vector<Viewer>& viewers);

    // Viewers waiting for their socket to drain before their keyframe.
    std::size_t behind() const;
    // No spectator is left: forget them all without encoding anything.
    void forget_all() { members_.clear(); }

private:
    enum class Phase { NeedsKeyframe, InStep, Behind };
    struct Member {
        Phase phase = Phase::NeedsKeyframe;
        bool sprites_off = false;
    };
    void send_group(bool sprites_off, const render::hns::Scene& scene, const std::vector<Viewer>& viewers, SpectatorTick& tick);

    std::map<int, Member> members_;
    // What every in-step viewer of the group holds at least, [0] Sprites On, [1] Off.
    std::array<render::hns::Stream, 2> shared_;
};

// The frame's WebSocket messages, each made shareable (a frame of one message gives up its bytes
// instead of being copied).
std::vector<SharedMessagePtr> shared_messages(render::hns::Frame frame);

}  // namespace hschool::server::hns
