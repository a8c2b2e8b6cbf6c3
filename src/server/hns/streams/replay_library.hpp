#pragma once
// The replays being watched, each parsed once and with one set of keyframes shared by all its
// /replay viewers (issue 19): 64 viewers of one replay hold one parsed file and at most
// kMaxReplayKeyframes sim copies between them, plus one cursor each. Thread-safe.
#include <memory>
#include <string>

#include "server/hns/contract/expected.hpp"
#include "sim/hns/replay.hpp"
#include "sim/hns/replay_seek.hpp"

namespace hschool::server::hns {

struct WatchedReplay {
    std::string bytes;  // the file, to tell two replays with the same hash apart
    sim::hns::ReplayData data;
    std::shared_ptr<sim::hns::ReplayKeyframes> keyframes;  // they point into `data`
};

// The replay these bytes are, shared with every viewer already watching it; an error (why the file
// cannot be read or re-stepped) otherwise. Forgotten when its last viewer goes.
Expected<std::shared_ptr<const WatchedReplay>> watch_replay(std::string bytes);

}  // namespace hschool::server::hns
