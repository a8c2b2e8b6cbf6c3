#include "server/hns/spectator_feed.hpp"

#include <algorithm>
#include <set>

#include "server/hns/limits.hpp"

namespace hschool::server::hns {

namespace {

std::size_t bytes_of(const std::vector<SharedMessagePtr>& messages) {
    std::size_t bytes = 0;
    for (const auto& m : messages) bytes += m->payload().size();
    return bytes;
}

// Queues the messages unless the viewer's backlog is full; false (backlog dropped) when it is.
bool queue_or_drop(Peer& peer, const std::vector<SharedMessagePtr>& messages, std::size_t bytes) {
    const std::size_t backlog = peer.shared_backlog();
    // An empty lane always takes the frame, so a frame larger than the bound cannot loop forever.
    if (backlog > 0 && backlog + bytes > kSpectatorBacklogBytes) {
        peer.drop_shared_backlog();
        return false;
    }
    for (const auto& m : messages)
        if (!peer.send_shared(m)) break;  // the socket is going: its close event removes it
    return true;
}

}  // namespace

std::vector<SharedMessagePtr> shared_messages(render::hns::Frame frame) {
    std::vector<SharedMessagePtr> out;
    if (!frame.message_ends.empty() && frame.bytes.size() <= protocol::sprite_v1::kChunkBytes) {
        out.push_back(std::make_shared<const SharedMessage>(std::move(frame.bytes)));
        return out;
    }
    for (auto& message : frame.ws_messages()) out.push_back(std::make_shared<const SharedMessage>(std::move(message)));
    return out;
}

std::size_t SpectatorFeed::behind() const {
    return static_cast<std::size_t>(std::count_if(members_.begin(), members_.end(), [](const auto& m) { return m.second.phase == Phase::Behind; }));
}

SpectatorTick SpectatorFeed::send(const render::hns::Scene& scene, const std::vector<Viewer>& viewers) {
    SpectatorTick tick;
    std::set<int> present;
    for (const Viewer& v : viewers) {
        present.insert(v.id);
        auto [it, added] = members_.try_emplace(v.id);
        Member& m = it->second;
        const bool off = v.own->sprites_off();
        if (added || !v.own->started() || off != m.sprites_off) m.phase = Phase::NeedsKeyframe;  // new, restarted, or regrouped
        else if (m.phase == Phase::Behind && v.peer->shared_backlog() == 0) m.phase = Phase::NeedsKeyframe;
        m.sprites_off = off;
    }
    for (auto it = members_.begin(); it != members_.end();) it = present.count(it->first) ? std::next(it) : members_.erase(it);
    send_group(false, scene, viewers, tick);
    send_group(true, scene, viewers, tick);
    return tick;
}

void SpectatorFeed::send_group(bool sprites_off, const render::hns::Scene& scene, const std::vector<Viewer>& viewers,
                               SpectatorTick& tick) {
    std::vector<const Viewer*> in_step, keyed;
    for (const Viewer& v : viewers) {
        const Member& m = members_.at(v.id);
        if (m.sprites_off != sprites_off) continue;
        if (m.phase == Phase::InStep) in_step.push_back(&v);
        else if (m.phase == Phase::NeedsKeyframe) keyed.push_back(&v);
    }
    render::hns::Stream& shared = shared_[sprites_off ? 1 : 0];
    if (!in_step.empty()) {
        const auto messages = shared_messages(shared.next(scene));
        const std::size_t bytes = bytes_of(messages);
        ++tick.deltas;
        for (const Viewer* v : in_step) {
            if (queue_or_drop(*v->peer, messages, bytes)) {
                tick.bytes += bytes;
            } else {
                members_.at(v->id).phase = Phase::Behind;
                ++tick.resyncs;
            }
        }
    }
    if (keyed.empty()) return;
    render::hns::Stream fresh;
    fresh.set_sprites_off(sprites_off);
    const auto messages = shared_messages(fresh.next(scene));
    const std::size_t bytes = bytes_of(messages);
    ++tick.keyframes;
    for (const Viewer* v : keyed) {
        v->peer->drop_shared_backlog();  // the keyframe's header clears the board: nothing before it matters
        for (const auto& m : messages)
            if (!v->peer->send_shared(m)) break;
        tick.bytes += bytes;
        *v->own = fresh;
        members_.at(v->id).phase = Phase::InStep;
    }
    // The fresh stream knows only this tick's board, which every in-step viewer holds too (they may
    // hold more, e.g. a sprite not drawn now): from here on the group's diffs assume no more than that.
    shared = std::move(fresh);
}

}  // namespace hschool::server::hns
