#include "render/hns/art_cache.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

#include "protocol/sprite_pixels.hpp"
#include "render/hns/art.hpp"
#include "render/hns/ids.hpp"

namespace hschool::render::hns {
namespace {

std::mutex g_mutex;
std::condition_variable g_built;         // a key left g_building
std::unordered_map<std::string, Block> g_blocks;
std::unordered_set<std::string> g_building;  // keys some thread is drawing now
std::size_t g_bytes = 0;  // compressed bytes held by g_blocks
std::atomic<std::size_t> g_compressed{0};

Block compress(const Canvas& canvas) {
    g_compressed.fetch_add(1, std::memory_order_relaxed);
    return std::make_shared<const protocol::Bytes>(protocol::sprite_v1::compress_rgba(canvas.pixels()));
}

// Draws and compresses outside the lock, one thread per key: 64 replay viewers jumping to the same
// tick all miss the same 2x cone, and each drawing its own 7.4 MB canvas at once was most of the
// server's RSS peak (issue 19). The others wait for the first and take its block.
// Each thread's own view of the blocks it has used: a frame asks for dozens, and taking the
// shared lock for each let a preempted low-priority replay thread holding it stall every match.
struct ThreadBlocks {
    std::unordered_map<std::string, Block> blocks;
    void remember(const std::string& key, const Block& block) {
        if (blocks.size() >= kMaxThreadCachedBlocks) blocks.clear();  // pointers only: the shared cache keeps the bytes
        blocks.emplace(key, block);
    }
};
thread_local ThreadBlocks t_blocks;

Block cached(const std::string& key, const std::function<Canvas()>& draw) {
    if (auto it = t_blocks.blocks.find(key); it != t_blocks.blocks.end()) return it->second;
    {
        std::unique_lock lock(g_mutex);
        g_built.wait(lock, [&] { return !g_building.contains(key); });
        if (auto it = g_blocks.find(key); it != g_blocks.end()) {
            t_blocks.remember(key, it->second);
            return it->second;
        }
        g_building.insert(key);
    }
    Block block;
    try {
        block = compress(draw());
    } catch (...) {
        std::lock_guard lock(g_mutex);
        g_building.erase(key);
        g_built.notify_all();
        throw;
    }
    std::lock_guard lock(g_mutex);
    g_building.erase(key);
    g_built.notify_all();
    if (g_blocks.size() >= kMaxCachedBlocks || g_bytes + block->size() > kMaxCachedBytes) return block;
    auto [it, inserted] = g_blocks.emplace(key, std::move(block));
    if (inserted) g_bytes += it->second->size();
    t_blocks.remember(key, it->second);  // only what the shared cache keeps: a thread holds no bytes of its own
    return it->second;
}

std::string key_of(std::initializer_list<int> parts, const char* family) {
    std::string key = family;
    for (int p : parts) key += ':' + std::to_string(p);
    return key;
}

}  // namespace

Block cog_block(sim::hns::Team team, int rot, int scale) {
    return cached(key_of({static_cast<int>(team), rot, scale}, "cog"), [&] { return draw_cog(team, rot, scale); });
}

Block cone_block(int aim_brads, bool seeker, int range, int cone_deg, int scale) {
    const int art_aim = ((aim_brads + kConeArtStepBrads / 2) / kConeArtStepBrads * kConeArtStepBrads) & 255;
    return cached(key_of({art_aim, seeker ? 1 : 0, range, cone_deg, scale}, "cone"),
                  [&] { return draw_cone(art_aim, seeker, range, cone_deg, scale); });
}

Block object_block(sim::hns::ObjectKind kind, int w, int h, sim::hns::LockOwner locked_by, int scale) {
    return cached(key_of({static_cast<int>(kind), w, h, static_cast<int>(locked_by), scale}, "object"),
                  [&] { return draw_object(kind, w, h, locked_by).scaled(scale); });
}

Block padlock_block(int scale) {
    return cached(key_of({scale}, "padlock"), [&] { return draw_padlock().scaled(scale); });
}

Block spotted_ring_block(int scale) {
    return cached(key_of({scale}, "ring"), [&] { return draw_spotted_ring().scaled(scale); });
}

std::vector<Block> band_blocks(const std::string& room_key, const sim::hns::Room& room, int scale) {
    const std::string key = "bands:" + std::to_string(scale) + ':' + room_key;
    std::vector<Block> bands;
    std::unique_ptr<Canvas> bed;  // drawn only if some band is missing
    for (int b = 0, y0 = 0; y0 < room.height; ++b, y0 += kMapBandLogicalHeight) {
        const int rows = std::min(kMapBandLogicalHeight, room.height - y0);
        bands.push_back(cached(key + ':' + std::to_string(b), [&] {
            if (!bed) bed = std::make_unique<Canvas>(draw_room(room).scaled(scale));
            Canvas band(bed->width(), rows * scale);
            for (int y = 0; y < band.height(); ++y)
                for (int x = 0; x < band.width(); ++x) band.put(x, y, bed->at(x, y0 * scale + y));
            return band;
        }));
    }
    return bands;
}

std::size_t blocks_compressed() { return g_compressed.load(std::memory_order_relaxed); }

}  // namespace hschool::render::hns
