#pragma once
// What a drawing receiver holds after a Sprite v1 stream or a compact watch stream: layers,
// sprites with their decoded pixels, objects, and (compact) the block dictionary. The tests apply
// both streams of one match to two boards and compare what each would draw, object by object and
// pixel by pixel. A receiver checks every block and sprite it is sent (decode_checked's rules); the
// board checks and decodes each distinct one once, by its exact bytes, and shares the pixels: a match
// re-sends the same cones and blocks every few ticks, and checking them again was most of its time.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include "protocol/block_pixels.hpp"
#include "protocol/hns_compact.hpp"
#include "protocol/sprite_pixels.hpp"
#include "protocol/sprite_v1.hpp"

namespace sprite_board {

namespace sv = hschool::protocol::sprite_v1;
namespace hc = hschool::protocol::hns_compact;
using hschool::protocol::Bytes;
using hschool::protocol::ByteView;
using Pixels = std::shared_ptr<const Bytes>;

struct Sprite {
    std::uint16_t width = 0, height = 0;
    Pixels rgba;  // null: pixels stripped
    std::string label;
};

struct Visible {
    std::uint16_t object = 0;
    std::int16_t x = 0, y = 0, z = 0;
    std::uint8_t layer = 0;
    std::uint16_t width = 0, height = 0;
    Pixels rgba;
    std::string label;
};

class Board {
public:
    // Applies one WebSocket message; the error's name when the receiver would close.
    // As sv::decode_server_checked: nothing is applied when any sprite's pixels fail their check.
    std::optional<std::string> apply_sprite_v1(ByteView message) {
        auto decoded = sv::decode_server(message);
        if (!decoded) return sv::error_name(decoded.error());
        for (const auto& m : *decoded)
            if (const auto* sprite = std::get_if<sv::DefineSprite>(&m))
                if (const auto& checked = sprite_pixels(*sprite); checked.error) return sv::error_name(*checked.error);
        for (const auto& m : *decoded)
            if (auto error = apply(m)) return error;
        return std::nullopt;
    }
    // As hc::decode_checked: nothing is applied when any block or sprite fails its check.
    std::optional<std::string> apply_compact(ByteView message) {
        auto decoded = hc::decode(message);
        if (!decoded) return sv::error_name(decoded.error());
        for (const auto& m : *decoded) {
            const Checked* checked = nullptr;
            if (const auto* block = std::get_if<hc::DefineBlock>(&m)) checked = &block_pixels(*block);
            if (const auto* sprite = std::get_if<sv::DefineSprite>(&m)) checked = &sprite_pixels(*sprite);
            if (checked && checked->error) return sv::error_name(*checked->error);
        }
        for (const auto& m : *decoded) {
            auto error = std::visit([&](const auto& one) { return apply(one); }, m);
            if (error) return error;
        }
        return std::nullopt;
    }

    // Placed objects in the receiver's draw order (z, then y, then id), each with its sprite.
    std::vector<Visible> visible() const {
        std::vector<Visible> out;
        for (const auto& [id, o] : objects_) {
            Visible v{id, o.x, o.y, o.z, o.layer, 0, 0, nullptr, ""};
            if (auto it = sprites_.find(o.sprite_id); it != sprites_.end()) {
                v.width = it->second.width;
                v.height = it->second.height;
                v.rgba = it->second.rgba;
                v.label = it->second.label;
            }
            out.push_back(std::move(v));
        }
        std::stable_sort(out.begin(), out.end(), [](const Visible& a, const Visible& b) {
            return a.z != b.z ? a.z < b.z : a.y != b.y ? a.y < b.y : a.object < b.object;
        });
        return out;
    }

    // The picture: every visible sprite blended source-over onto transparent black, clipped to the viewport.
    Bytes composite(int width, int height) const {
        std::vector<double> acc(static_cast<std::size_t>(width) * height * 4, 0.0);
        for (const Visible& v : visible()) {
            if (!v.rgba) continue;
            for (int sy = 0; sy < v.height; ++sy) {
                const int y = v.y + sy;
                if (y < 0 || y >= height) continue;
                for (int sx = 0; sx < v.width; ++sx) {
                    const int x = v.x + sx;
                    if (x < 0 || x >= width) continue;
                    const std::uint8_t* s = v.rgba->data() + (static_cast<std::size_t>(sy) * v.width + sx) * 4;
                    if (s[3] == 0) continue;
                    double* d = acc.data() + (static_cast<std::size_t>(y) * width + x) * 4;
                    const double a = s[3] / 255.0;
                    for (int c = 0; c < 3; ++c) d[c] = s[c] * a + d[c] * (1 - a);
                    d[3] = a + d[3] * (1 - a);
                }
            }
        }
        Bytes out(acc.size());
        for (std::size_t i = 0; i < acc.size(); ++i) out[i] = static_cast<std::uint8_t>(std::clamp(acc[i] * (i % 4 == 3 ? 255.0 : 1.0) + 0.5, 0.0, 255.0));
        return out;
    }

    std::size_t blocks() const { return blocks_.size(); }
    const std::map<std::uint16_t, sv::DefineObject>& objects() const { return objects_; }
    std::optional<hc::FrameMark> last_mark() const { return mark_; }

private:
    std::optional<std::string> apply(const sv::ServerMessage& m) {
        return std::visit([&](const auto& one) { return apply(one); }, m);
    }
    std::optional<std::string> apply(const sv::DefineSprite& m) {
        sprites_[m.sprite_id] = Sprite{m.width, m.height, sprite_pixels(m).rgba, m.label};
        return std::nullopt;
    }
    std::optional<std::string> apply(const sv::DefineObject& m) {
        if (!layers_.contains(m.layer)) return "UnknownLayer";
        objects_[m.object_id] = m;
        return std::nullopt;
    }
    std::optional<std::string> apply(const sv::DeleteObject& m) {
        objects_.erase(m.object_id);
        return std::nullopt;
    }
    std::optional<std::string> apply(const sv::ClearObjects&) {
        objects_.clear();
        return std::nullopt;
    }
    std::optional<std::string> apply(const sv::SetViewport& m) {
        if (!layers_.contains(m.layer)) return "UnknownLayer";
        return std::nullopt;
    }
    std::optional<std::string> apply(const sv::DefineLayer& m) {
        layers_[m.layer] = m.type;
        return std::nullopt;
    }
    std::optional<std::string> apply(const hc::FrameMark& m) {
        if (m.flags & hc::frame_flag::kKeyframe) blocks_.clear();  // a keyframe starts the dictionary afresh
        mark_ = m;
        return std::nullopt;
    }
    std::optional<std::string> apply(const hc::DefineBlock& m) {
        if (!blocks_.contains(m.block_id) && blocks_.size() >= hc::kMaxLiveBlocks) return "TooManyBlocks";
        blocks_[m.block_id] = Block{m.width, m.height, block_pixels(m).rgba};
        return std::nullopt;
    }
    std::optional<std::string> apply(const hc::UseBlock& m) {
        auto it = blocks_.find(m.block_id);
        if (it == blocks_.end()) return "UnknownBlock";
        const Block& block = it->second;
        sprites_[m.sprite_id] = Sprite{block.width, block.height, block.rgba, m.label};
        return std::nullopt;
    }
    std::optional<std::string> apply(const hc::Relabel& m) {
        auto it = sprites_.find(m.sprite_id);
        if (it == sprites_.end()) return "UnknownSprite";
        it->second.label = m.label;
        return std::nullopt;
    }
    std::optional<std::string> apply(const hc::ForgetBlock& m) {
        blocks_.erase(m.block_id);
        return std::nullopt;
    }

    // What the receiver's check says of one sprite's or block's bytes, and its pixels when it passes.
    struct Checked {
        std::optional<sv::Error> error;
        Pixels rgba;  // null: failed, or pixels stripped
    };
    struct Block {
        std::uint16_t width = 0, height = 0;
        Pixels rgba;
    };

    // Keyed by every byte that decides the verdict (the dimensions, then the compressed bytes), so
    // two different blocks never share an answer. Shared by every board of the test binary.
    static std::string key_of(std::initializer_list<unsigned> dimensions, const Bytes& compressed) {
        std::string key;
        for (const unsigned d : dimensions) key += std::to_string(d) + ',';
        key.append(reinterpret_cast<const char*>(compressed.data()), compressed.size());
        return key;
    }
    // sv::check_pixels' verdict, then the pixels: once per distinct sprite.
    static const Checked& sprite_pixels(const sv::DefineSprite& m) {
        static std::unordered_map<std::string, Checked> cache;
        auto [it, added] = cache.try_emplace(key_of({m.width, m.height}, m.pixels));
        if (added) {
            it->second.error = sv::check_pixels(m);
            if (!it->second.error && !m.pixels.empty()) {
                auto pixels = sv::decompress_rgba(m.pixels, m.width, m.height);
                it->second.rgba = std::make_shared<const Bytes>(std::move(pixels).value());
            }
        }
        return it->second;
    }
    // hc::check_block's verdict (unpack_block's) and the pixels it unpacked: once per distinct block.
    static const Checked& block_pixels(const hc::DefineBlock& m) {
        static std::unordered_map<std::string, Checked> cache;
        auto [it, added] = cache.try_emplace(key_of({m.width, m.height, m.scale}, m.zlib));
        if (added) {
            auto pixels = hc::unpack_block(m);
            if (pixels) it->second.rgba = std::make_shared<const Bytes>(std::move(pixels).value());
            else it->second.error = pixels.error();
        }
        return it->second;
    }

    std::map<std::uint8_t, std::uint8_t> layers_;
    std::unordered_map<std::uint16_t, Sprite> sprites_;
    std::map<std::uint16_t, sv::DefineObject> objects_;
    std::unordered_map<std::uint16_t, Block> blocks_;
    std::optional<hc::FrameMark> mark_;
};

// Two sprites' pixels are the same; each distinct pair of buffers is compared once.
inline bool same_pixels(const Pixels& a, const Pixels& b) {
    if (a == b) return true;
    if (!a || !b) return false;
    static std::map<std::pair<const Bytes*, const Bytes*>, bool> seen;
    auto [it, added] = seen.try_emplace({a.get(), b.get()}, false);
    if (added) it->second = *a == *b;
    return it->second;
}

}  // namespace sprite_board
