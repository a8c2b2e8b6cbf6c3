#include "server/hns/streams/replay_library.hpp"

#include <functional>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace hschool::server::hns {

namespace {

struct Library {
    std::mutex mutex;
    std::unordered_multimap<std::size_t, std::weak_ptr<const WatchedReplay>> replays;  // by the bytes' hash
};

Library& library() {
    static Library instance;
    return instance;
}

}  // namespace

Expected<std::shared_ptr<const WatchedReplay>> watch_replay(std::string bytes) {
    using R = Expected<std::shared_ptr<const WatchedReplay>>;
    const std::size_t key = std::hash<std::string>{}(bytes);
    Library& lib = library();
    {
        std::lock_guard lock(lib.mutex);
        std::erase_if(lib.replays, [](const auto& entry) { return entry.second.expired(); });
        const auto [begin, end] = lib.replays.equal_range(key);
        for (auto it = begin; it != end; ++it)
            if (auto watched = it->second.lock(); watched && watched->bytes == bytes) return R::ok(std::move(watched));
    }
    auto parsed = sim::hns::parse_replay(bytes);
    if (!parsed) return R::fail("replay is unreadable: " + parsed.error);
    auto watched = std::make_shared<WatchedReplay>();
    watched->bytes = std::move(bytes);
    watched->data = std::move(*parsed);
    auto keyframes = sim::hns::ReplayKeyframes::create(watched->data);  // after the move: they keep &data
    if (!keyframes) return R::fail("replay cannot be re-stepped: " + keyframes.error);
    watched->keyframes = std::move(*keyframes);
    std::shared_ptr<const WatchedReplay> shared = std::move(watched);
    std::lock_guard lock(lib.mutex);
    // Two first viewers at once may both have parsed it: the one already listed wins.
    const auto [begin, end] = lib.replays.equal_range(key);
    for (auto it = begin; it != end; ++it)
        if (auto listed = it->second.lock(); listed && listed->bytes == shared->bytes) return R::ok(std::move(listed));
    lib.replays.emplace(key, shared);
    return R::ok(std::move(shared));
}

}  // namespace hschool::server::hns
