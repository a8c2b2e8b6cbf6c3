#include "render/hns/compact_blocks.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <string_view>
#include <unordered_map>

#include "protocol/block_pixels.hpp"
#include "protocol/sprite_pixels.hpp"

namespace hschool::render::hns {
namespace {

// Content, not pointer: a block drawn again past the art cache's bound is a new pointer to the same
// bytes. 64 bits of hash with the length and size beside it; a few thousand blocks per process.
struct Key {
    std::size_t hash = 0, length = 0;
    std::uint16_t width = 0, height = 0;
    bool operator==(const Key&) const = default;
};
struct KeyHash {
    std::size_t operator()(const Key& k) const { return k.hash ^ (k.length << 1) ^ (std::size_t{k.width} << 17) ^ k.height; }
};

std::mutex g_mutex;
std::unordered_map<Key, CompactBlockPtr, KeyHash> g_packed;
std::size_t g_bytes = 0;
std::atomic<std::size_t> g_count{0};

struct ThreadMemo {
    struct Seen {
        std::weak_ptr<const protocol::Bytes> source;
        CompactBlockPtr packed;
    };
    std::unordered_map<const protocol::Bytes*, Seen> seen;
};
thread_local ThreadMemo t_memo;

CompactBlockPtr pack(const protocol::Bytes& snappy, std::uint16_t width, std::uint16_t height) {
    auto rgba = protocol::sprite_v1::decompress_rgba(snappy, width, height);
    if (!rgba) {
        std::fprintf(stderr, "hschool: bug: a scene block does not decompress: %s\n", protocol::sprite_v1::describe(rgba.error()));
        std::abort();
    }
    auto packed = protocol::hns_compact::pack_block(*rgba, width, height);
    g_count.fetch_add(1, std::memory_order_relaxed);
    return std::make_shared<const CompactBlock>(CompactBlock{width, height, packed.scale, std::move(packed.zlib)});
}

}  // namespace

CompactBlockPtr compact_block(const Block& block, std::uint16_t width, std::uint16_t height) {
    auto& seen = t_memo.seen;
    if (auto it = seen.find(block.get()); it != seen.end()) {
        if (it->second.source.lock() == block && it->second.packed->width == width && it->second.packed->height == height)
            return it->second.packed;
        seen.erase(it);  // the address was freed and reused
    }
    const Key key{std::hash<std::string_view>{}(std::string_view(reinterpret_cast<const char*>(block->data()), block->size())),
                  block->size(), width, height};
    CompactBlockPtr packed;
    {
        std::lock_guard lock(g_mutex);
        if (auto it = g_packed.find(key); it != g_packed.end()) packed = it->second;
    }
    if (!packed) {
        packed = pack(*block, width, height);  // outside the lock: a 2× cone takes ~20 ms
        std::lock_guard lock(g_mutex);
        if (auto it = g_packed.find(key); it != g_packed.end()) {
            packed = it->second;  // another thread packed it meanwhile: keep one pointer per content
        } else if (g_packed.size() < kMaxPackedBlocks && g_bytes + packed->zlib.size() <= kMaxPackedBytes) {
            g_packed.emplace(key, packed);
            g_bytes += packed->zlib.size();
        }
    }
    if (seen.size() >= kMaxThreadPackedBlocks) seen.clear();
    seen[block.get()] = {block, packed};
    return packed;
}

std::size_t compact_blocks_packed() { return g_count.load(std::memory_order_relaxed); }

}  // namespace hschool::render::hns
