#include "net/fanout.hpp"

#include <algorithm>

namespace hschool::net {

std::size_t push_tick_to_all(const OutboxList& outboxes, const Frame& frame) {
    std::size_t dropped = 0;
    for (const auto& outbox : outboxes) dropped += outbox->push_tick(frame);
    return dropped;
}

void DirectFanOut::deliver(std::uint32_t, Frame frame, std::shared_ptr<const OutboxList> outboxes, ProtocolTag tag) {
    metrics_.frames_dropped(tag, push_tick_to_all(*outboxes, frame));
}

void BroadcastGroup::add(const ConnectionRef& connection) {
    members_.push_back(connection);
    changed_ = true;
}

void BroadcastGroup::remove(ConnectionId id) {
    const auto found = std::find_if(members_.begin(), members_.end(), [&](const ConnectionRef& c) { return c.id == id; });
    if (found == members_.end()) return;
    *found = std::move(members_.back());
    members_.pop_back();
    changed_ = true;
}

void BroadcastGroup::deliver(FanOut& fanout, const Frame& frame, ProtocolTag tag) {
    if (changed_) {
        std::vector<OutboxList> lists;
        for (const auto& member : members_) {
            if (member.shard >= lists.size()) lists.resize(member.shard + 1);
            lists[member.shard].push_back(member.outbox);
        }
        shards_.assign(lists.size(), nullptr);
        for (std::size_t shard = 0; shard < lists.size(); ++shard)
            if (!lists[shard].empty()) shards_[shard] = std::make_shared<const OutboxList>(std::move(lists[shard]));
        changed_ = false;
    }
    for (std::size_t shard = 0; shard < shards_.size(); ++shard)
        if (shards_[shard]) fanout.deliver(static_cast<std::uint32_t>(shard), frame, shards_[shard], tag);
}

}  // namespace hschool::net
