#pragma once
// One viewer's (or one group of in-step viewers') retained-mode Sprite v1 stream (spec §1.3):
// the snapshot header first, then per tick only what changed against what this stream was sent.
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "protocol/bytes.hpp"
#include "protocol/sprite_v1.hpp"
#include "render/hns/scene.hpp"

namespace hschool::render::hns {

struct Frame {
    protocol::Bytes bytes;                  // the tick's messages back to back
    std::vector<std::size_t> message_ends;  // offset just past each message
    // The tick's WebSocket messages: one empty message when nothing changed (clients count
    // messages), else the packet split on message boundaries at `cap` bytes (§1.4).
    std::vector<protocol::Bytes> ws_messages(std::size_t cap = protocol::sprite_v1::kChunkBytes) const;
};

class Stream {
public:
    // Sprites Off (0x87): from now on every Define Sprite keeps id, size and label but no pixels.
    void set_sprites_off(bool on) { sprites_off_ = on; }
    bool sprites_off() const { return sprites_off_; }
    bool started() const { return started_; }
    // The socket's picture came whole from a shared keyframe of another encoder (the compact
    // stream): from now on it needs no header of its own.
    void mark_started() { started_ = true; }
    // Forgets what the viewer holds: the next frame starts over with the header (0x04 clears) and
    // the first-frame-only items (the map bands). Sprites Off stays as it was.
    void restart() {
        const bool off = sprites_off_;
        *this = Stream{};
        sprites_off_ = off;
    }

    // This viewer's frame for the scene; updates what the viewer is known to hold.
    Frame next(const Scene& scene);

private:
    struct SentSprite {
        std::uint16_t width = 0, height = 0;
        std::string label;
    };
    void emit(Frame& frame, const protocol::sprite_v1::ServerMessage& message);

    bool started_ = false;
    bool sprites_off_ = false;
    std::unordered_map<std::uint16_t, SentSprite> sprites_;
    std::unordered_map<std::uint16_t, protocol::sprite_v1::DefineObject> placements_;
    std::vector<std::uint16_t> drawn_;  // ids placed last frame, in order (bands excluded)
};

}  // namespace hschool::render::hns
