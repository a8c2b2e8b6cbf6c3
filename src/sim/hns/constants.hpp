#pragma once
// Hide-and-seek's fixed numbers (spec §3.1). Everything a config may change lives in GameConfig;
// these are the reference's compile-time constants.
#include <cstdint>

namespace hschool::sim::hns {

inline constexpr const char* kGameName = "hide-and-seek";
inline constexpr int kTargetFps = 24;

// The board. All three shipped rooms are 720x400; a room of another size is refused at load.
inline constexpr int kMapWidth = 720;
inline constexpr int kMapHeight = 400;
inline constexpr int kFovCellSize = 8;
inline constexpr int kFovGridW = (kMapWidth + kFovCellSize - 1) / kFovCellSize;
inline constexpr int kFovGridH = (kMapHeight + kFovCellSize - 1) / kFovCellSize;
inline constexpr int kFovCellCount = kFovGridW * kFovGridH;

// Bodies and motion.
inline constexpr int kPlayerHalf = 6;
inline constexpr int kPlayerSolidSpan = 2 * kPlayerHalf;
inline constexpr int kMovementSlideMaxScan = 3;

// Aim: 256 brads per turn, unit vectors scaled by 1024.
inline constexpr int kAimBradsTurn = 256;
inline constexpr int kAimUnitScale = 1024;

// Objects.
inline constexpr int kCrateSize = 64;
inline constexpr int kPanelLong = 128;
inline constexpr int kPanelShort = 32;
inline constexpr int kRampLong = 80;
inline constexpr int kRampShort = 40;
inline constexpr int kLockCooldownTicks = 24;
inline constexpr int kGrabBreakTicks = 24;
inline constexpr int kVaultSpeed = 5;
// The vault's reach uses the constant, not config.vaultTicks, as the reference does.
inline constexpr int kVaultReachTicks = 10;
inline constexpr int kMaxObjects = 16;
// The deal's pad box: the body plus 2 px on each side (reference coversAnyPad).
inline constexpr int kPadBoxHalf = kPlayerHalf + 2;
inline constexpr int kPadBoxSpan = kPlayerSolidSpan + 5;

// Seats.
inline constexpr int kSeats = 6;
inline constexpr int kMaxPlayers = 32;

// Shouts.
inline constexpr int kShoutMaxChars = 10;
inline constexpr int kShoutTicks = 3 * kTargetFps;
inline constexpr int kShoutCooldownTicks = kTargetFps;
inline constexpr int kShoutRange = kMapWidth / 5;

// Hashed colour per side (§3.2): 3 for hiders (team Red), 13 for seekers.
inline constexpr std::uint8_t kHiderColor = 3;
inline constexpr std::uint8_t kSeekerColor = 13;

// Input mask bits (§1.2).
inline constexpr std::uint8_t kBtnUp = 0x01;
inline constexpr std::uint8_t kBtnDown = 0x02;
inline constexpr std::uint8_t kBtnLeft = 0x04;
inline constexpr std::uint8_t kBtnRight = 0x08;
inline constexpr std::uint8_t kBtnSelect = 0x10;
inline constexpr std::uint8_t kBtnA = 0x20;
inline constexpr std::uint8_t kBtnB = 0x40;
inline constexpr std::uint8_t kBtnC = 0x80;

}  // namespace hschool::sim::hns
