#pragma once
// The match state: cogs, objects, shouts, clocks and counters. Every field gameHash reads is
// here; the order of fields in the hash is fixed in hash.cpp, not by this declaration.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/hns/config.hpp"
#include "sim/hns/room.hpp"

namespace hschool::sim::hns {

enum class GamePhase : int { Lobby = 0, Playing = 1, GameOver = 2 };
enum class MatchPhase : int { Prep = 0, Hunt = 1 };
enum class ObjectKind : int { Crate = 0, Panel = 1, Ramp = 2 };
enum class LockOwner : int { None = 0, Hiders = 1, Seekers = 2 };

struct Input {
    std::uint8_t mask = 0;
    bool up() const { return mask & 0x01; }
    bool down() const { return mask & 0x02; }
    bool left() const { return mask & 0x04; }
    bool right() const { return mask & 0x08; }
    bool select() const { return mask & 0x10; }
    bool a() const { return mask & 0x20; }
    bool b() const { return mask & 0x40; }
    bool c() const { return mask & 0x80; }
};

struct Player {
    int x = 0, y = 0;
    int homeX = 0, homeY = 0;
    int velX = 0, velY = 0;
    int carryX = 0, carryY = 0;
    bool flipH = false;
    int aimBrads = 0;
    Team team = Team::Red;
    bool alive = true;
    int holding = -1;
    bool airborne = false;
    int vaultLeft = 0;
    int vaultDirBrads = 0;
    int vaultFromX = 0, vaultFromY = 0;
    int lockCooldown = 0;
    int pushBlockedTicks = 0;
    int lastShoutTick = -1;
    int joinOrder = 0;
    std::string address;
    std::uint8_t color = 0;
    // Measured, never scored.
    int seatSeenTicks = 0;
    int sealedTicks = 0;
    int grabs = 0;
    int locks = 0;
    int vaults = 0;
    int pushedPx = 0;
    int shouts = 0;
    bool sealed = false;
};

struct GameObject {
    std::string id;
    ObjectKind kind = ObjectKind::Crate;
    ObjectAxis axis = ObjectAxis::H;
    int x = 0, y = 0, w = 0, h = 0;
    LockOwner lockedBy = LockOwner::None;
    int heldBy = -1;
    int spawnX = 0, spawnY = 0;
    Rect rect() const { return Rect{x, y, w, h}; }
};

struct Shout {
    std::string address;
    Team team = Team::Red;
    std::string text;
    int tick = 0;
    int x = 0, y = 0;
};

// What the driver is told happened to a cog's last action (never hashed).
enum class ActionResult : int {
    None, Grabbed, GrabFailed, Dropped, Locked, Unlocked, LockRefused, Vaulted, VaultFailed, PushStuck
};
const char* action_result_text(ActionResult r);

// One cog's cached fog: the shadowcast per (cell, epoch) and the cone-filtered grid per aim.
struct FovCache {
    bool valid = false;
    int originCx = 0, originCy = 0, aimBrads = 0, epoch = 0;
    std::vector<char> visible;
    bool cellValid = false;
    int cellCx = 0, cellCy = 0;
    std::vector<char> cellVisible;
};

}  // namespace hschool::sim::hns
