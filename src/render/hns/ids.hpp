#pragma once
// Sprite and object ids, sizes and z of every family the reference draws (spec §4.1, §4.2):
// labels and ids are the contract bots read.
#include <cstdint>

namespace hschool::render::hns {

inline constexpr int kGlobalScale = 2;  // RenderScale of the global stream
inline constexpr int kPlayerScale = 1;

inline constexpr int kMapBandSpriteBase = 30;
inline constexpr int kMapBandObjectBase = 40;
inline constexpr int kMapBandLogicalHeight = 48;  // 192 wire rows / scale², as the reference bands
inline constexpr int kMapBandZ = -32768;

inline constexpr int kCogSpriteBase = 100;  // + team·16 + rot
inline constexpr int kCogRotations = 16;
inline constexpr int kCogObjectBase = 1000;  // + slot (join order)
inline constexpr int kCogCanvas = 72;
inline constexpr int kCogDrawOffset = 36;
inline constexpr int kCogBodyPx = 34;
inline constexpr int kCogGlobalZ = 2;
inline constexpr int kCogAirborneZ = 500;

inline constexpr int kObjectSpriteBase = 2000;  // + object index
inline constexpr int kObjectObjectBase = 2200;
inline constexpr int kPadlockSpriteId = 2300;
inline constexpr int kPadlockObjectBase = 2320;
inline constexpr int kPadlockPx = 14;
inline constexpr int kSpottedRingSpriteId = 2340;
inline constexpr int kSpottedRingObjectBase = 2350;
inline constexpr int kSpottedRingPx = kCogBodyPx + 8;
inline constexpr int kConeSpriteBase = 2400;
inline constexpr int kConeObjectBase = 2500;
inline constexpr int kConeZ = -900;
inline constexpr int kTetherSpriteBase = 2600;
inline constexpr int kTetherObjectBase = 2650;
inline constexpr int kShoutSpriteBase = 2700;
inline constexpr int kShoutObjectBase = 2760;
inline constexpr int kShoutMaxCount = 8;
inline constexpr int kShoutZ = 400;

inline constexpr std::uint8_t kMapLayer = 0;

// rot = ((aim + 8)·16 div 256) mod 16, as the reference's cogRotIndex.
inline constexpr int cog_rot(int aim_brads) { return (((aim_brads + 8) * kCogRotations) / 256) % kCogRotations; }
inline constexpr int cog_sprite_id(int team, int rot) { return kCogSpriteBase + team * kCogRotations + rot; }

}  // namespace hschool::render::hns
