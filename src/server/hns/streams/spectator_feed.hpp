#pragma once
// The /global and /admin viewers of one match (issue 19): those in step share one encoded diff per
// tick, framed once; a new viewer gets a keyframe (the header and the full board); one that falls
// behind has its backlog dropped and gets a keyframe once its socket has drained and its reader has
// caught up. Three groups share an encode each: Sprites On, Sprites Off (the contract stream) and
// the compact stream of our own browser (issue 31). So a match pays about one encode per tick and
// group whatever the number of spectators, and a slow spectator keeps watching with bounded
// memory. Match thread only.
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "render/hns/compact_stream.hpp"
#include "render/hns/scene.hpp"
#include "render/hns/stream.hpp"
#include "net/ws_connection.hpp"

namespace hschool::server::hns {

struct SpectatorTick {
    std::size_t deltas = 0;         // shared diffs encoded (at most one per group)
    std::size_t keyframes = 0;      // keyframes encoded (at most one per group, shared by every viewer that needed one)
    std::size_t resyncs = 0;        // contract viewers whose backlog was dropped this tick
    std::size_t compact_resyncs = 0;  // compact viewers whose backlog was dropped this tick
    std::size_t bytes = 0;          // contract payload bytes queued, summed over viewers
    std::size_t compact_bytes = 0;  // compact payload bytes queued, summed over viewers
};

class SpectatorFeed {
public:
    struct Viewer {
        int id = 0;
        net::WsConnection* peer = nullptr;
        // The socket's own stream: not started() means it needs a keyframe (a new socket, or a
        // restart reset it); sprites_off() picks its contract group. Set to the keyframe's state when it gets one.
        render::hns::Stream* own = nullptr;
        bool compact = false;  // asked for the compact stream (stream=compact)
    };

    // This tick's frames for every viewer (the list is the match's spectators now: the feed
    // forgets those no longer in it). `tick` is the sim's tick count, for the compact frame mark.
    SpectatorTick send(const render::hns::Scene& scene, const std::vector<Viewer>& viewers, std::uint32_t tick);

    // Viewers waiting for their socket to drain before their keyframe.
    std::size_t behind() const;
    // No spectator is left: forget them all without encoding anything.
    void forget_all() { members_.clear(); }

private:
    enum class Phase { NeedsKeyframe, InStep, Behind };
    enum class Group { SpritesOn, SpritesOff, Compact };
    struct Member {
        Phase phase = Phase::NeedsKeyframe;
        Group group = Group::SpritesOn;
        bool resyncing = false;  // its next keyframe follows dropped frames
    };
    void send_group(Group group, const render::hns::Scene& scene, const std::vector<Viewer>& viewers, SpectatorTick& tick);
    void send_compact(const render::hns::Scene& scene, const std::vector<Viewer>& viewers, std::uint32_t tick_number,
                      SpectatorTick& tick);

    std::map<int, Member> members_;
    // What every in-step viewer of the group holds at least, [0] Sprites On, [1] Off.
    std::array<render::hns::Stream, 2> shared_;
    render::hns::CompactStream compact_;  // what every in-step compact viewer holds, exactly
};

// The frame's WebSocket messages, each made shareable (a frame of one message gives up its bytes
// instead of being copied).
std::vector<net::SharedMessagePtr> shared_messages(render::hns::Frame frame);

// Queues the messages on the viewer's stream lane unless its backlog would pass `cap` or its reader
// is lagging; false (backlog dropped: the viewer must be resynced) when it does not.
bool queue_or_drop(net::WsConnection& peer, const std::vector<net::SharedMessagePtr>& messages, std::size_t cap);
// A viewer that was dropped may have its keyframe: nothing of it is queued and its reader keeps up.
inline bool ready_for_keyframe(const net::WsConnection& peer) { return peer.shared_backlog() == 0 && !peer.reader_lagging(); }
std::size_t bytes_of(const std::vector<net::SharedMessagePtr>& messages);

}  // namespace hschool::server::hns
