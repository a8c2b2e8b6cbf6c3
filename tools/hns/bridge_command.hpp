#pragma once
// `hschool-hns bridge`: the training bridge on stdin/stdout. With one environment and JSON lines
// it is the reference's /bin/hide-and-seek-bridge, answer for answer (sim/hns/bridge_session.hpp).
// With --envs N it keeps N episodes and steps them side by side on a pool of threads, one request
// for all of them: a JSON line {"kind":"batch","requests":[…]} (or one request with "env": i), or
// with --framing binary the frames of bridge_frames.hpp. --replays DIR writes every finished
// episode's COWLDHNS replay there.
#include <string>

namespace hschool::tools::hns {

// A batch line may carry this much (a thousand environments' steps are ~100 KiB).
inline constexpr std::size_t kMaxBridgeBatchLineBytes = 4u << 20;

struct BridgeOptions {
    int envs = 1;
    int threads = 0;  // 0: one per environment, at most the hardware's cores
    std::string framing = "json";
    std::string replays;  // a folder; "" writes none
};

int run_bridge(const BridgeOptions& options);

}  // namespace hschool::tools::hns
