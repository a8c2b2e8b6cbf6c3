#include "render/hns/compact_stream.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "render/hns/ids.hpp"

namespace hschool::render::hns {
namespace {

namespace hc = protocol::hns_compact;
namespace sv = protocol::sprite_v1;

void emit(Frame& frame, const hc::ServerMessage& message) {
    if (const auto error = hc::append(frame.bytes, message)) {
        std::fprintf(stderr, "hschool: bug: cannot encode a compact stream message: %s\n", sv::describe(*error));
        std::abort();
    }
    frame.message_ends.push_back(frame.bytes.size());
}

}  // namespace

std::vector<CompactBlockPtr> CompactStream::blocks_of(const Scene& scene) {
    std::vector<CompactBlockPtr> blocks;
    blocks.reserve(scene.items.size());
    for (const SceneItem& item : scene.items) {
        const bool packed = item.sprite && !item.sprite->always_send && item.sprite->block;
        blocks.push_back(packed ? compact_block(item.sprite->block, item.sprite->width, item.sprite->height) : nullptr);
    }
    return blocks;
}

std::uint16_t CompactStream::take_id() {
    if (!free_ids_.empty()) {
        const std::uint16_t id = free_ids_.back();
        free_ids_.pop_back();
        return id;
    }
    return next_id_++;  // at most kMaxDictionaryBlocks live, so this never wraps onto a live id
}

void CompactStream::forget(Frame& frame, const CompactBlock* block) {
    auto it = dictionary_.find(block);
    if (it == dictionary_.end()) return;
    const std::uint16_t id = it->second.id;
    emit(frame, hc::ForgetBlock{id});
    free_ids_.push_back(id);
    // A sprite made from it is made again when it is next drawn: the id may name another block by then.
    std::erase_if(sprites_, [id](const auto& sent) { return sent.second.from_block && sent.second.block_id == id; });
    dictionary_bytes_ -= it->second.block->zlib.size();
    dictionary_.erase(it);
}

// Forgets what the scene does not use: all of it when pruning, else the least recently used until
// the scene's new blocks fit under the bounds. Forgets come first, so a receiver never holds more.
void CompactStream::make_room(Frame& frame, const std::vector<CompactBlockPtr>& used, bool prune) {
    std::unordered_set<const CompactBlock*> in_scene;
    std::size_t new_blocks = 0, new_bytes = 0;
    for (const auto& block : used) {
        if (!block || !in_scene.insert(block.get()).second) continue;
        if (!dictionary_.contains(block.get())) {
            ++new_blocks;
            new_bytes += block->zlib.size();
        }
    }
    std::vector<const Entry*> idle;
    for (const auto& [key, entry] : dictionary_)
        if (!in_scene.contains(key)) idle.push_back(&entry);
    std::sort(idle.begin(), idle.end(), [](const Entry* a, const Entry* b) { return a->last_used < b->last_used || (a->last_used == b->last_used && a->id < b->id); });
    std::vector<const CompactBlock*> doomed;
    std::size_t blocks = dictionary_.size(), bytes = dictionary_bytes_;
    for (const Entry* entry : idle) {
        if (!prune && blocks + new_blocks <= max_blocks_ && bytes + new_bytes <= max_bytes_) break;
        doomed.push_back(entry->block.get());
        --blocks;
        bytes -= entry->block->zlib.size();
    }
    for (const CompactBlock* block : doomed) forget(frame, block);
}

void CompactStream::emit_item(Frame& frame, const SceneItem& item, const CompactBlockPtr& block,
                              std::unordered_set<std::uint16_t>* defined) {
    if (item.sprite) {
        const SceneSprite& s = *item.sprite;
        auto sent = sprites_.find(s.id);
        if (!block) {  // always-sent sprites (tethers, shouts): their art follows from size and label
            const bool same = sent != sprites_.end() && !sent->second.from_block && sent->second.width == s.width &&
                              sent->second.height == s.height && sent->second.label == s.label;
            if (!same) {
                emit(frame, sv::DefineSprite{s.id, s.width, s.height, *s.block, s.label});
                sprites_[s.id] = SentSprite{false, 0, s.width, s.height, s.label};
            }
        } else {
            auto [it, added] = dictionary_.try_emplace(block.get());
            Entry& entry = it->second;
            if (added) {
                entry.block = block;
                entry.id = take_id();
                dictionary_bytes_ += block->zlib.size();
            }
            entry.last_used = frames_;
            const bool first_in_keyframe = defined && defined->insert(entry.id).second;
            if (added || first_in_keyframe)
                emit(frame, hc::DefineBlock{entry.id, block->width, block->height, block->scale, block->zlib});
            if (sent == sprites_.end() || !sent->second.from_block || sent->second.block_id != entry.id) {
                emit(frame, hc::UseBlock{s.id, entry.id, s.label});
            } else if (sent->second.label != s.label) {
                emit(frame, hc::Relabel{s.id, s.label});
            }
            sprites_[s.id] = SentSprite{true, entry.id, s.width, s.height, s.label};
        }
    }
    if (item.sprite_only) return;
    auto placed = placements_.find(item.object.object_id);
    if (placed == placements_.end() || !(placed->second == item.object)) {
        emit(frame, item.object);
        placements_[item.object.object_id] = item.object;
    }
}

Frame CompactStream::next(const Scene& scene, std::uint32_t tick, bool prune) {
    if (!started_) return keyframe(scene, tick);
    ++frames_;
    Frame frame;
    emit(frame, hc::FrameMark{tick, 0});
    const auto blocks = blocks_of(scene);
    make_room(frame, blocks, prune);
    std::vector<std::uint16_t> drawn;
    drawn.reserve(scene.items.size());
    for (std::size_t i = 0; i < scene.items.size(); ++i) {
        const SceneItem& item = scene.items[i];
        if (item.first_frame_only) continue;  // the bands: placed by the keyframe, never moved
        emit_item(frame, item, blocks[i], nullptr);
        if (!item.sprite_only) drawn.push_back(item.object.object_id);
    }
    const std::unordered_set<std::uint16_t> now(drawn.begin(), drawn.end());
    for (const std::uint16_t id : drawn_) {
        if (now.contains(id)) continue;
        emit(frame, sv::DeleteObject{id});
        placements_.erase(id);
    }
    drawn_ = std::move(drawn);
    return frame;
}

Frame CompactStream::keyframe(const Scene& scene, std::uint32_t tick) {
    ++frames_;
    Frame frame;
    emit(frame, hc::FrameMark{tick, hc::frame_flag::kKeyframe});
    emit(frame, sv::ClearObjects{});
    emit(frame, sv::DefineLayer{kMapLayer, sv::layer_type::kMap, sv::layer_flag::kZoomable});
    emit(frame, sv::SetViewport{kMapLayer, static_cast<std::uint16_t>(scene.viewport_width), static_cast<std::uint16_t>(scene.viewport_height)});
    const auto blocks = blocks_of(scene);
    // The receiver starts from an empty table: keep the ids of the scene's blocks, drop the rest unsaid.
    std::unordered_set<const CompactBlock*> in_scene;
    for (const auto& block : blocks)
        if (block) in_scene.insert(block.get());
    for (auto it = dictionary_.begin(); it != dictionary_.end();) {
        if (in_scene.contains(it->first)) {
            ++it;
            continue;
        }
        free_ids_.push_back(it->second.id);
        dictionary_bytes_ -= it->second.block->zlib.size();
        it = dictionary_.erase(it);
    }
    sprites_.clear();
    placements_.clear();
    std::unordered_set<std::uint16_t> defined;
    std::vector<std::uint16_t> drawn;
    for (std::size_t i = 0; i < scene.items.size(); ++i) {
        const SceneItem& item = scene.items[i];
        emit_item(frame, item, blocks[i], &defined);
        if (!item.sprite_only && !item.first_frame_only) drawn.push_back(item.object.object_id);
    }
    drawn_ = std::move(drawn);
    started_ = true;
    return frame;
}

Frame with_resync(Frame keyframe) {
    // The frame mark leads every frame: type, u32 tick, flags.
    if (keyframe.bytes.size() > 5 && keyframe.bytes[0] == hc::id::kFrame) keyframe.bytes[5] |= hc::frame_flag::kResync;
    return keyframe;
}

}  // namespace hschool::render::hns
