#include "server/hns/streams/spectator_feed.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "server/hns/contract/limits.hpp"

namespace hschool::server::hns {

std::size_t bytes_of(const std::vector<net::SharedMessagePtr>& messages) {
    std::size_t bytes = 0;
    for (const auto& m : messages) bytes += m->payload().size();
    return bytes;
}

bool queue_or_drop(net::WsConnection& peer, const std::vector<net::SharedMessagePtr>& messages, std::size_t cap) {
    const std::size_t backlog = peer.shared_backlog();
    // An empty lane always takes the frame, so a frame larger than the bound cannot loop forever.
    if (peer.reader_lagging() || (backlog > 0 && backlog + bytes_of(messages) > cap)) {
        peer.drop_shared_backlog();
        return false;
    }
    for (const auto& m : messages)
        if (!peer.send_shared(m)) break;  // the socket is going: its close event removes it
    return true;
}

std::vector<net::SharedMessagePtr> shared_messages(render::hns::Frame frame) {
    std::vector<net::SharedMessagePtr> out;
    if (!frame.message_ends.empty() && frame.bytes.size() <= protocol::sprite_v1::kChunkBytes) {
        out.push_back(std::make_shared<const net::SharedMessage>(std::move(frame.bytes)));
        return out;
    }
    for (auto& message : frame.ws_messages()) out.push_back(std::make_shared<const net::SharedMessage>(std::move(message)));
    return out;
}

std::size_t SpectatorFeed::behind() const {
    return static_cast<std::size_t>(std::count_if(members_.begin(), members_.end(), [](const auto& m) { return m.second.phase == Phase::Behind; }));
}

SpectatorTick SpectatorFeed::send(const render::hns::Scene& scene, const std::vector<Viewer>& viewers, std::uint32_t tick_number) {
    SpectatorTick tick;
    std::set<int> present;
    for (const Viewer& v : viewers) {
        present.insert(v.id);
        auto [it, added] = members_.try_emplace(v.id);
        Member& m = it->second;
        const Group group = v.compact ? Group::Compact : v.own->sprites_off() ? Group::SpritesOff : Group::SpritesOn;
        if (added || !v.own->started() || group != m.group) {  // new, restarted, or regrouped
            m.phase = Phase::NeedsKeyframe;
        } else if (m.phase == Phase::Behind && ready_for_keyframe(*v.peer)) {
            m.phase = Phase::NeedsKeyframe;
        }
        m.group = group;
    }
    for (auto it = members_.begin(); it != members_.end();) it = present.count(it->first) ? std::next(it) : members_.erase(it);
    send_group(Group::SpritesOn, scene, viewers, tick);
    send_group(Group::SpritesOff, scene, viewers, tick);
    send_compact(scene, viewers, tick_number, tick);
    return tick;
}

void SpectatorFeed::send_group(Group group, const render::hns::Scene& scene, const std::vector<Viewer>& viewers,
                               SpectatorTick& tick) {
    const bool sprites_off = group == Group::SpritesOff;
    std::vector<const Viewer*> in_step, keyed;
    for (const Viewer& v : viewers) {
        const Member& m = members_.at(v.id);
        if (m.group != group) continue;
        if (m.phase == Phase::InStep) in_step.push_back(&v);
        else if (m.phase == Phase::NeedsKeyframe) keyed.push_back(&v);
    }
    render::hns::Stream& shared = shared_[sprites_off ? 1 : 0];
    if (!in_step.empty()) {
        const auto messages = shared_messages(shared.next(scene));
        const std::size_t bytes = bytes_of(messages);
        ++tick.deltas;
        for (const Viewer* v : in_step) {
            if (queue_or_drop(*v->peer, messages, kSpectatorBacklogBytes)) {
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

void SpectatorFeed::send_compact(const render::hns::Scene& scene, const std::vector<Viewer>& viewers, std::uint32_t tick_number,
                                 SpectatorTick& tick) {
    std::vector<const Viewer*> in_step, keyed;
    for (const Viewer& v : viewers) {
        const Member& m = members_.at(v.id);
        if (m.group != Group::Compact) continue;
        if (m.phase == Phase::InStep) in_step.push_back(&v);
        else if (m.phase == Phase::NeedsKeyframe) keyed.push_back(&v);
    }
    if (!in_step.empty()) {
        // Before a keyframe of the same tick the diff forgets what the scene does not use, so that
        // afterwards every viewer of the group holds the same dictionary.
        const auto messages = shared_messages(compact_.next(scene, tick_number, !keyed.empty()));
        const std::size_t bytes = bytes_of(messages);
        ++tick.deltas;
        for (const Viewer* v : in_step) {
            Member& m = members_.at(v->id);
            if (queue_or_drop(*v->peer, messages, kCompactBacklogBytes)) {
                tick.compact_bytes += bytes;
            } else {
                m.phase = Phase::Behind;
                m.resyncing = true;
                ++tick.compact_resyncs;
            }
        }
    }
    if (keyed.empty()) return;
    if (in_step.empty()) compact_ = render::hns::CompactStream{};  // nobody holds the old dictionary
    const render::hns::Frame key = compact_.keyframe(scene, tick_number);
    std::optional<std::vector<net::SharedMessagePtr>> plain, resynced;  // made when some viewer needs them
    ++tick.keyframes;
    for (const Viewer* v : keyed) {
        Member& m = members_.at(v->id);
        auto& messages = m.resyncing ? resynced : plain;
        if (!messages) messages = shared_messages(m.resyncing ? render::hns::with_resync(key) : key);
        v->peer->drop_shared_backlog();  // a keyframe rebuilds the board: nothing before it matters
        for (const auto& message : *messages)
            if (!v->peer->send_shared(message)) break;
        tick.compact_bytes += bytes_of(*messages);
        v->own->mark_started();
        m.phase = Phase::InStep;
        m.resyncing = false;
    }
}

}  // namespace hschool::server::hns
