#include "render/hns/stream.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <unordered_set>

#include "render/hns/ids.hpp"

namespace hschool::render::hns {
namespace {

namespace sv = protocol::sprite_v1;

}  // namespace

std::vector<protocol::Bytes> Frame::ws_messages(std::size_t cap) const {
    if (message_ends.empty()) return {protocol::Bytes{}};
    std::vector<protocol::Bytes> out;
    for (const auto& [begin, end] : sv::chunk_ranges(message_ends, cap))
        out.emplace_back(bytes.begin() + static_cast<std::ptrdiff_t>(begin), bytes.begin() + static_cast<std::ptrdiff_t>(end));
    return out;
}

void Stream::emit(Frame& frame, const sv::ServerMessage& message) {
    if (const auto error = sv::append(frame.bytes, message)) {
        std::fprintf(stderr, "hschool: bug: cannot render a Sprite v1 message: %s\n", sv::describe(*error));
        std::abort();
    }
    frame.message_ends.push_back(frame.bytes.size());
}

Frame Stream::next(const Scene& scene) {
    Frame frame;
    const bool first = !started_;
    if (first) {
        emit(frame, sv::ClearObjects{});
        emit(frame, sv::DefineLayer{kMapLayer, sv::layer_type::kMap, sv::layer_flag::kZoomable});
        emit(frame, sv::SetViewport{kMapLayer, static_cast<std::uint16_t>(scene.viewport_width),
                                    static_cast<std::uint16_t>(scene.viewport_height)});
        started_ = true;
    }
    std::vector<std::uint16_t> drawn;
    drawn.reserve(scene.items.size());
    for (const SceneItem& item : scene.items) {
        if (item.first_frame_only && !first) continue;
        if (item.sprite) {
            const SceneSprite& s = *item.sprite;
            auto it = sprites_.find(s.id);
            const bool same = it != sprites_.end() && it->second.width == s.width && it->second.height == s.height &&
                              it->second.label == s.label;
            if (!same || s.always_send) {
                sv::DefineSprite define{s.id, s.width, s.height, {}, s.label};
                if (!sprites_off_) define.pixels = *s.block;
                emit(frame, define);
                sprites_[s.id] = SentSprite{s.width, s.height, s.label};
            }
        }
        if (item.sprite_only) continue;
        const auto& object = item.object;
        auto placed = placements_.find(object.object_id);
        if (!(scene.dedup_placements && placed != placements_.end() && placed->second == object)) {
            emit(frame, object);
            placements_[object.object_id] = object;
        }
        if (!item.first_frame_only) drawn.push_back(object.object_id);
    }
    // Ids drawn last frame and not this one are deleted, and forgotten so a return re-sends them.
    const std::unordered_set<std::uint16_t> now(drawn.begin(), drawn.end());
    for (const std::uint16_t id : drawn_) {
        if (now.count(id)) continue;
        emit(frame, sv::DeleteObject{id});
        placements_.erase(id);
    }
    drawn_ = std::move(drawn);
    return frame;
}

}  // namespace hschool::render::hns
