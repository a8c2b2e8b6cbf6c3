#pragma once
// Delivering one tick frame to everyone who receives a stream (the arena, one school). The loop
// hands each network thread its share of a group in one task, so a tick costs the loop one task
// per (group, thread) instead of one locked push per connection, and each outbox is filled by
// the thread that also writes it.
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "net/outbox.hpp"
#include "net/transport_metrics.hpp"
#include "net/ws_connection.hpp"

namespace hschool::net {

using OutboxList = std::vector<std::shared_ptr<Outbox>>;

class FanOut {
public:
    virtual ~FanOut() = default;
    // Pushes frame into every outbox of the list, counting drops under its protocol.
    virtual void deliver(std::uint32_t shard, Frame frame, std::shared_ptr<const OutboxList> outboxes, ProtocolTag tag) = 0;
    // Runs work for a shard's connections on the thread that writes them (v5: per-connection encodes).
    virtual void run(std::uint32_t shard, std::function<void()> task) = 0;
};

// Pushes on the calling thread (unit tests, and a server without network threads).
class DirectFanOut final : public FanOut {
public:
    explicit DirectFanOut(TransportMetrics& metrics) : metrics_(metrics) {}
    void deliver(std::uint32_t shard, Frame frame, std::shared_ptr<const OutboxList> outboxes, ProtocolTag tag) override;
    void run(std::uint32_t, std::function<void()> task) override { task(); }

private:
    TransportMetrics& metrics_;
};

// Fills a list of outboxes with one frame; returns the frames the rings dropped.
std::size_t push_tick_to_all(const OutboxList& outboxes, const Frame& frame);

// The connections of one stream, kept per shard (network thread) as immutable lists that are
// rebuilt after a change, so a thread can read this tick's list while the loop edits the group.
class BroadcastGroup {
public:
    void add(const ConnectionRef& connection);
    void remove(ConnectionId id);
    bool empty() const { return members_.empty(); }
    std::size_t size() const { return members_.size(); }
    void deliver(FanOut& fanout, const Frame& frame, ProtocolTag tag);

private:
    std::vector<ConnectionRef> members_;
    std::vector<std::shared_ptr<const OutboxList>> shards_;
    bool changed_ = false;
};

}  // namespace hschool::net
