#pragma once
// A room document (spec §3.18): walls, regions, doors, anchors and object spawns, parsed from
// its JSON text and validated as the reference's room.nim does. Reading the file is the loader's
// job (room_files.hpp); this parses text only.
#include <string>
#include <string_view>
#include <vector>

#include "sim/hns/expected.hpp"

namespace hschool::sim::hns {

struct Rect {
    int x = 0, y = 0, w = 0, h = 0;
    bool contains(int px, int py) const { return px >= x && px < x + w && py >= y && py < y + h; }
    bool overlaps(const Rect& o) const {
        return x < o.x + o.w && o.x < x + w && y < o.y + o.h && o.y < y + h;
    }
};

enum class ObjectAxis : int { H = 0, V = 1 };
enum class AnchorKind : int { Pocket = 0, Pad = 1, Patrol = 2 };
enum class AnchorTeam : int { Any = 0, Hiders = 1, Seekers = 2 };

struct Region {
    std::string id, name;
    Rect box;
    std::vector<std::string> doors;
};

struct Door {
    std::string id;
    int x = 0, y = 0, w = 0;
    bool vertical = true;
};

struct Anchor {
    std::string id;
    AnchorKind kind = AnchorKind::Pocket;
    int x = 0, y = 0;
    AnchorTeam team = AnchorTeam::Any;
};

struct ObjectSpawn {
    int x = 0, y = 0;
    bool crate = false, panel = false, ramp = false;
    ObjectAxis axis = ObjectAxis::H;
};

struct Point {
    int x = 0, y = 0;
};

struct Room {
    std::string name;
    int width = 0, height = 0;
    std::vector<Rect> walls;
    std::vector<Region> regions;
    std::vector<Door> doors;
    std::vector<Anchor> anchors;
    std::vector<ObjectSpawn> spawns;

    // Pads of one team in document order (the deal and the join use this order).
    std::vector<Point> pads(AnchorTeam team) const;
    bool wall_at(int x, int y) const;  // outside the board counts as wall
};

inline constexpr int kRoomDoorWidthDefault = 56;
inline constexpr int kRoomMinSpawns = 14;
inline constexpr int kRoomMinPockets = 6;
inline constexpr int kRoomPadsPerTeam = 3;
inline constexpr std::size_t kRoomMaxItems = 256;  // per array: rooms are small, files are not trusted

// Parses and validates; the error names the field ("anchors[3].at") or the broken rule.
Expected<Room> parse_room(std::string_view json_text);

// The compact document pinned into a config echo as mapSpec (key order of §3.18).
std::string room_to_json(const Room& room);

// The room pool of §3.17: "all" picks pool[seed mod 3]; a single name picks itself.
inline constexpr const char* kRoomNames[3] = {"warren", "atrium", "long_hall"};
bool room_pool_valid(std::string_view pool);
std::string room_for_seed(std::string_view pool, long long seed);

}  // namespace hschool::sim::hns
