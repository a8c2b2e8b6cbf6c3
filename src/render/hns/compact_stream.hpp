#pragma once
// One group of viewers' compact watch stream (protocol/hns_compact.hpp): the same scenes as the
// global stream, but each pixel block goes once into a dictionary the viewers keep, sprites refer
// to blocks, a label change is a relabel, and only placements that moved are sent. What the viewers
// draw is the global stream's board, pixel for pixel.
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "protocol/hns_compact.hpp"
#include "render/hns/compact_blocks.hpp"
#include "render/hns/scene.hpp"
#include "render/hns/stream.hpp"

namespace hschool::render::hns {

// The dictionary's bounds, well under what a receiver must keep (hns_compact::kMaxLiveBlocks,
// kMaxLiveBlockBytes); past them the least recently used blocks are forgotten.
inline constexpr std::size_t kMaxDictionaryBlocks = 256;
inline constexpr std::size_t kMaxDictionaryBytes = 8u << 20;

class CompactStream {
public:
    CompactStream() = default;
    // Smaller bounds, for tests that make the dictionary forget.
    CompactStream(std::size_t max_blocks, std::size_t max_bytes) : max_blocks_(max_blocks), max_bytes_(max_bytes) {}

    bool started() const { return started_; }

    // This tick's diff for viewers that hold what this stream sent (a stream not started yet gives
    // a keyframe). `prune` also forgets every block the scene does not use: a keyframe for other
    // viewers follows in the same tick, and all of them must then hold the same dictionary.
    Frame next(const Scene& scene, std::uint32_t tick, bool prune = false);
    // The whole board for viewers that hold nothing; from here on the stream assumes its viewers
    // hold exactly this board and the blocks it uses.
    Frame keyframe(const Scene& scene, std::uint32_t tick);

    std::size_t dictionary_blocks() const { return dictionary_.size(); }
    std::size_t dictionary_bytes() const { return dictionary_bytes_; }

private:
    struct Entry {
        CompactBlockPtr block;
        std::uint16_t id = 0;
        std::uint64_t last_used = 0;
    };
    struct SentSprite {
        bool from_block = false;
        std::uint16_t block_id = 0;  // from_block
        std::uint16_t width = 0, height = 0;
        std::string label;
    };

    // The scene's blocks, one per item (null for items without one, or always-sent sprites).
    std::vector<CompactBlockPtr> blocks_of(const Scene& scene);
    void forget(Frame& frame, const CompactBlock* block);
    void make_room(Frame& frame, const std::vector<CompactBlockPtr>& used, bool prune);
    void emit_item(Frame& frame, const SceneItem& item, const CompactBlockPtr& block, std::unordered_set<std::uint16_t>* defined);
    std::uint16_t take_id();

    std::size_t max_blocks_ = kMaxDictionaryBlocks;
    std::size_t max_bytes_ = kMaxDictionaryBytes;
    bool started_ = false;
    std::uint64_t frames_ = 0;
    std::unordered_map<const CompactBlock*, Entry> dictionary_;
    std::size_t dictionary_bytes_ = 0;
    std::vector<std::uint16_t> free_ids_;
    std::uint16_t next_id_ = 0;
    std::unordered_map<std::uint16_t, SentSprite> sprites_;
    std::unordered_map<std::uint16_t, protocol::sprite_v1::DefineObject> placements_;
    std::vector<std::uint16_t> drawn_;  // ids placed last frame, in order (bands excluded)
};

// A keyframe as sent to a viewer that skipped frames to catch up: the same messages, the resync flag set.
Frame with_resync(Frame keyframe);

}  // namespace hschool::render::hns
