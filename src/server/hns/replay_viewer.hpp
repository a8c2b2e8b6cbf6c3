#pragma once
// /replay?match=ID (spec §2.8, §4.5): a saved replay re-stepped on the server for one viewer,
// verifying every hash as it goes, drawn as the global stream plus the chrome sprite 4090, driven
// by the transport keys (play, pause, restart, step, seek "s:<tick>", speed). One thread per
// viewer, ended when its socket closes.
#include <atomic>
#include <memory>
#include <string>
#include <variant>

#include "server/hns/admission.hpp"
#include "server/hns/hns_metrics.hpp"
#include "server/hns/peer.hpp"

namespace hschool::server::hns {

inline constexpr int kReplayForwardTicks = 120;  // '.' and '>' (§2.8)

// Parses the replay now (a broken file is a 422 before the upgrade); the viewer's thread starts
// when the socket attaches. `viewers` counts live viewers, for the hub's cap.
std::variant<Rejection, std::shared_ptr<PeerSink>> open_replay_viewer(std::string replay_bytes, HnsMetrics& metrics,
                                                                      std::shared_ptr<std::atomic<int>> viewers);
// Blocks until every viewer thread counted by `viewers` has ended (shutdown).
void wait_for_replay_viewers(const std::atomic<int>& viewers);

// Applies one transport text to the playback state: pure, so tests need no socket.
struct Transport {
    bool playing = true;
    bool loop = false;
    int speed_index = 0;  // into kPlaybackSpeeds
    int seek_to = -1;     // a tick to jump to (restart: 0), or −1
};
void apply_transport_text(Transport& transport, std::string_view text, int current_tick, int final_tick);

}  // namespace hschool::server::hns
