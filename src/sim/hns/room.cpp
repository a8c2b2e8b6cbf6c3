#include "sim/hns/room.hpp"

#include <boost/json.hpp>
#include <algorithm>
#include <set>

#include "sim/hns/constants.hpp"
#include "sim/hns/pixel_rows.hpp"

namespace hschool::sim::hns {
namespace json = boost::json;
namespace {

// A small cursor over one JSON object that remembers the first error with its field path.
struct Reader {
    std::string error;

    bool fail(const std::string& field, const std::string& what) {
        if (error.empty()) error = field + ": " + what;
        return false;
    }
    bool integer(const json::value* v, const std::string& field, int& out) {
        if (v == nullptr) return fail(field, "missing");
        if (!v->is_int64() && !v->is_uint64()) return fail(field, "must be an integer");
        const auto n = v->is_int64() ? v->as_int64() : static_cast<std::int64_t>(v->as_uint64());
        if (n < -100000 || n > 100000) return fail(field, "out of range");
        out = static_cast<int>(n);
        return true;
    }
    bool string(const json::value* v, const std::string& field, std::string& out) {
        if (v == nullptr) return fail(field, "missing");
        if (!v->is_string()) return fail(field, "must be a string");
        out = std::string(v->as_string());
        return true;
    }
    const json::array* array(const json::value* v, const std::string& field) {
        if (v == nullptr) return fail(field, "missing"), nullptr;
        if (!v->is_array()) return fail(field, "must be an array"), nullptr;
        if (v->as_array().size() > kRoomMaxItems) return fail(field, "too many entries"), nullptr;
        return &v->as_array();
    }
    bool ints(const json::value* v, const std::string& field, int* out, std::size_t n) {
        const json::array* a = array(v, field);
        if (a == nullptr) return false;
        if (a->size() != n) return fail(field, "must have " + std::to_string(n) + " integers");
        for (std::size_t i = 0; i < n; ++i) {
            if (!integer(&(*a)[i], field + "[" + std::to_string(i) + "]", out[i])) return false;
        }
        return true;
    }
    bool rect(const json::value* v, const std::string& field, Rect& r) {
        int a[4];
        if (!ints(v, field, a, 4)) return false;
        r = Rect{a[0], a[1], a[2], a[3]};
        return true;
    }
    bool object(const json::value& v, const std::string& field) {
        return v.is_object() ? true : fail(field, "must be an object");
    }
};

const json::value* key(const json::value& obj, const char* name) {
    return obj.as_object().if_contains(name);
}

std::string at(const char* list, std::size_t i) { return std::string(list) + "[" + std::to_string(i) + "]"; }

// Where a body's footprint touches a wall, one bit per centre, so validation does not scan a
// footprint per anchor and per grid cell.
struct WallMask {
    PixelRows nearWall;
    explicit WallMask(const Room& room) {
        PixelRows walls;
        for (const Rect& w : room.walls) {
            const int x0 = std::max(w.x, 0), x1 = std::min(w.x + w.w, kMapWidth);
            for (int y = std::max(w.y, 0); y < std::min(w.y + w.h, kMapHeight); ++y)
                if (x0 < x1) walls.fill(y, x0, x1, true);
        }
        nearWall = walls.dilated(kPlayerHalf);
    }
};

// Off the board counts as wall.
bool footprint_clear(const WallMask& walls, int x, int y) {
    if (x - kPlayerHalf < 0 || y - kPlayerHalf < 0 || x + kPlayerHalf >= kMapWidth || y + kPlayerHalf >= kMapHeight)
        return false;
    return !walls.nearWall.test(x, y);
}

std::string validate(const Room& room) {
    if (room.width != kMapWidth || room.height != kMapHeight)
        return "w/h: the board must be 720x400";
    if (room.walls.empty()) return "walls: must not be empty";
    const WallMask walls(room);
    for (std::size_t i = 0; i < room.walls.size(); ++i) {
        const Rect& w = room.walls[i];
        if (w.w <= 0 || w.h <= 0) return at("walls", i) + ": is empty";
        if (w.x < 0 || w.y < 0 || w.x + w.w > room.width || w.y + w.h > room.height)
            return at("walls", i) + ": leaves the board";
    }
    std::set<std::string> region_ids;
    for (std::size_t i = 0; i < room.regions.size(); ++i) {
        const Region& r = room.regions[i];
        if (!region_ids.insert(r.id).second) return at("regions", i) + ".id: duplicated " + r.id;
        for (const auto& d : r.doors) {
            bool known = false;
            for (const auto& door : room.doors) known = known || door.id == d;
            if (!known) return at("regions", i) + ".doors: unknown door " + d;
        }
    }
    for (std::size_t i = 0; i < room.doors.size(); ++i) {
        const Door& d = room.doors[i];
        int joined = 0;
        for (const auto& r : room.regions)
            for (const auto& id : r.doors) joined += id == d.id ? 1 : 0;
        if (joined != 2) return at("doors", i) + ": must join exactly 2 regions";
        if (room.wall_at(d.x, d.y)) return at("doors", i) + ".at: inside a wall";
    }
    int pockets = 0;
    for (std::size_t i = 0; i < room.anchors.size(); ++i) {
        const Anchor& a = room.anchors[i];
        if (!footprint_clear(walls, a.x, a.y)) return at("anchors", i) + ".at: no clearance for a body";
        pockets += a.kind == AnchorKind::Pocket ? 1 : 0;
    }
    for (std::size_t i = 0; i < room.spawns.size(); ++i) {
        const ObjectSpawn& s = room.spawns[i];
        if (!s.crate && !s.panel && !s.ramp) return at("objectSpawns", i) + ".kinds: accepts no kind";
        if (!footprint_clear(walls, s.x, s.y)) return at("objectSpawns", i) + ".at: not on floor";
    }
    if (room.spawns.size() < static_cast<std::size_t>(kRoomMinSpawns)) return "objectSpawns: fewer than 14";
    if (pockets < kRoomMinPockets) return "anchors: fewer than 6 pockets";
    if (room.pads(AnchorTeam::Hiders).size() != kRoomPadsPerTeam) return "anchors: need exactly 3 hider pads";
    if (room.pads(AnchorTeam::Seekers).size() != kRoomPadsPerTeam) return "anchors: need exactly 3 seeker pads";
    // Every region reachable from every seeker pad on the 8 px grid with body clearance.
    std::vector<char> open(kFovCellCount);
    for (int cy = 0; cy < kFovGridH; ++cy)
        for (int cx = 0; cx < kFovGridW; ++cx)
            open[cy * kFovGridW + cx] =
                footprint_clear(walls, cx * kFovCellSize + kFovCellSize / 2, cy * kFovCellSize + kFovCellSize / 2);
    std::vector<char> seen;
    int flooded = -1;  // the start cell of the flood in `seen`
    for (const Point& pad : room.pads(AnchorTeam::Seekers)) {
        const int start = (pad.y / kFovCellSize) * kFovGridW + pad.x / kFovCellSize;
        // Two open starts in one component flood the same cells: that check has passed already.
        if (flooded >= 0 && open[start] && open[flooded] && seen[start]) continue;
        flooded = start;
        seen.assign(kFovCellCount, 0);
        std::vector<int> queue{start};
        seen[start] = 1;
        for (std::size_t head = 0; head < queue.size(); ++head) {
            const int cx = queue[head] % kFovGridW, cy = queue[head] / kFovGridW;
            const int nb[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
            for (const auto& d : nb) {
                const int nx = cx + d[0], ny = cy + d[1];
                if (nx < 0 || ny < 0 || nx >= kFovGridW || ny >= kFovGridH) continue;
                const int i = ny * kFovGridW + nx;
                if (seen[i] || !open[i]) continue;
                seen[i] = 1;
                queue.push_back(i);
            }
        }
        for (std::size_t r = 0; r < room.regions.size(); ++r) {
            const Rect& b = room.regions[r].box;
            bool reached = false;
            const int x0 = std::max(0, b.x / kFovCellSize), y0 = std::max(0, b.y / kFovCellSize);
            const int x1 = std::min((b.x + b.w - 1) / kFovCellSize, kFovGridW - 1);
            const int y1 = std::min((b.y + b.h - 1) / kFovCellSize, kFovGridH - 1);
            for (int cy = y0; cy <= y1; ++cy)
                for (int cx = x0; cx <= x1; ++cx) reached = reached || seen[cy * kFovGridW + cx];
            if (!reached) return at("regions", r) + ": unreachable from a seeker pad";
        }
    }
    return {};
}

}  // namespace

std::vector<Point> Room::pads(AnchorTeam team) const {
    std::vector<Point> out;
    for (const auto& a : anchors)
        if (a.kind == AnchorKind::Pad && a.team == team) out.push_back({a.x, a.y});
    return out;
}

bool Room::wall_at(int x, int y) const {
    if (x < 0 || y < 0 || x >= width || y >= height) return true;
    for (const auto& w : walls)
        if (w.contains(x, y)) return true;
    return false;
}

Expected<Room> parse_room(std::string_view json_text) {
    boost::system::error_code ec;
    json::value doc = json::parse(json_text, ec);
    if (ec) return Expected<Room>::fail("not JSON: " + ec.message());
    Reader rd;
    if (!rd.object(doc, "room")) return Expected<Room>::fail(rd.error);
    Room room;
    rd.string(key(doc, "name"), "name", room.name);
    rd.integer(key(doc, "w"), "w", room.width);
    rd.integer(key(doc, "h"), "h", room.height);
    if (const json::array* walls = rd.array(key(doc, "walls"), "walls")) {
        for (std::size_t i = 0; i < walls->size(); ++i) {
            Rect r;
            if (rd.rect(&(*walls)[i], at("walls", i), r)) room.walls.push_back(r);
        }
    }
    if (const json::array* regions = rd.array(key(doc, "regions"), "regions")) {
        for (std::size_t i = 0; i < regions->size(); ++i) {
            const json::value& v = (*regions)[i];
            const std::string f = at("regions", i);
            if (!rd.object(v, f)) break;
            Region r;
            rd.string(key(v, "id"), f + ".id", r.id);
            rd.string(key(v, "name"), f + ".name", r.name);
            rd.rect(key(v, "box"), f + ".box", r.box);
            if (const json::array* doors = rd.array(key(v, "doors"), f + ".doors")) {
                for (std::size_t j = 0; j < doors->size(); ++j) {
                    std::string d;
                    if (rd.string(&(*doors)[j], f + ".doors[" + std::to_string(j) + "]", d)) r.doors.push_back(d);
                }
            }
            room.regions.push_back(std::move(r));
        }
    }
    if (const json::array* doors = rd.array(key(doc, "doors"), "doors")) {
        for (std::size_t i = 0; i < doors->size(); ++i) {
            const json::value& v = (*doors)[i];
            const std::string f = at("doors", i);
            if (!rd.object(v, f)) break;
            Door d;
            int xy[2] = {0, 0};
            rd.string(key(v, "id"), f + ".id", d.id);
            rd.ints(key(v, "at"), f + ".at", xy, 2);
            d.x = xy[0];
            d.y = xy[1];
            d.w = kRoomDoorWidthDefault;
            if (key(v, "w") != nullptr) rd.integer(key(v, "w"), f + ".w", d.w);
            std::string axis = "v";
            if (key(v, "axis") != nullptr) rd.string(key(v, "axis"), f + ".axis", axis);
            if (axis != "v" && axis != "h") rd.fail(f + ".axis", "must be h or v");
            d.vertical = axis == "v";
            room.doors.push_back(std::move(d));
        }
    }
    if (const json::array* anchors = rd.array(key(doc, "anchors"), "anchors")) {
        for (std::size_t i = 0; i < anchors->size(); ++i) {
            const json::value& v = (*anchors)[i];
            const std::string f = at("anchors", i);
            if (!rd.object(v, f)) break;
            Anchor a;
            int xy[2] = {0, 0};
            std::string kind, team;
            rd.string(key(v, "id"), f + ".id", a.id);
            rd.string(key(v, "kind"), f + ".kind", kind);
            rd.ints(key(v, "at"), f + ".at", xy, 2);
            a.x = xy[0];
            a.y = xy[1];
            if (kind == "pocket") a.kind = AnchorKind::Pocket;
            else if (kind == "pad") a.kind = AnchorKind::Pad;
            else if (kind == "patrol") a.kind = AnchorKind::Patrol;
            else rd.fail(f + ".kind", "unknown anchor kind");
            const json::value* t = key(v, "team");
            if (t != nullptr && !t->is_null()) rd.string(t, f + ".team", team);
            if (team == "" || team == "null") a.team = AnchorTeam::Any;
            else if (team == "hiders") a.team = AnchorTeam::Hiders;
            else if (team == "seekers") a.team = AnchorTeam::Seekers;
            else rd.fail(f + ".team", "unknown anchor team");
            room.anchors.push_back(std::move(a));
        }
    }
    if (const json::array* spawns = rd.array(key(doc, "objectSpawns"), "objectSpawns")) {
        for (std::size_t i = 0; i < spawns->size(); ++i) {
            const json::value& v = (*spawns)[i];
            const std::string f = at("objectSpawns", i);
            if (!rd.object(v, f)) break;
            ObjectSpawn s;
            int xy[2] = {0, 0};
            rd.ints(key(v, "at"), f + ".at", xy, 2);
            s.x = xy[0];
            s.y = xy[1];
            std::string axis = "h";
            if (key(v, "axis") != nullptr) rd.string(key(v, "axis"), f + ".axis", axis);
            if (axis != "v" && axis != "h") rd.fail(f + ".axis", "must be h or v");
            s.axis = axis == "v" ? ObjectAxis::V : ObjectAxis::H;
            if (const json::array* kinds = rd.array(key(v, "kinds"), f + ".kinds")) {
                for (std::size_t j = 0; j < kinds->size(); ++j) {
                    std::string k;
                    if (!rd.string(&(*kinds)[j], f + ".kinds", k)) break;
                    if (k == "crate") s.crate = true;
                    else if (k == "panel") s.panel = true;
                    else if (k == "ramp") s.ramp = true;
                    else rd.fail(f + ".kinds", "unknown kind " + k);
                }
            }
            room.spawns.push_back(s);
        }
    }
    if (!rd.error.empty()) return Expected<Room>::fail(rd.error);
    std::string problem = validate(room);
    if (!problem.empty()) return Expected<Room>::fail(problem);
    return Expected<Room>::ok(std::move(room));
}

std::string room_to_json(const Room& room) {
    json::object o;
    o["name"] = room.name;
    o["w"] = room.width;
    o["h"] = room.height;
    o["symmetry"] = "symNone";
    json::array walls;
    for (const auto& w : room.walls) walls.push_back(json::array{w.x, w.y, w.w, w.h});
    o["walls"] = std::move(walls);
    json::array regions;
    for (const auto& r : room.regions) {
        json::object ro;
        ro["id"] = r.id;
        ro["name"] = r.name;
        ro["box"] = json::array{r.box.x, r.box.y, r.box.w, r.box.h};
        json::array d;
        for (const auto& id : r.doors) d.push_back(json::string(id));
        ro["doors"] = std::move(d);
        regions.push_back(std::move(ro));
    }
    o["regions"] = std::move(regions);
    json::array doors;
    for (const auto& d : room.doors) {
        json::object dobj;
        dobj["id"] = d.id;
        dobj["at"] = json::array{d.x, d.y};
        dobj["w"] = d.w;
        dobj["axis"] = d.vertical ? "v" : "h";
        doors.push_back(std::move(dobj));
    }
    o["doors"] = std::move(doors);
    json::array anchors;
    for (const auto& a : room.anchors) {
        json::object ao;
        ao["id"] = a.id;
        ao["kind"] = a.kind == AnchorKind::Pad ? "pad" : a.kind == AnchorKind::Patrol ? "patrol" : "pocket";
        ao["at"] = json::array{a.x, a.y};
        ao["team"] = a.team == AnchorTeam::Hiders ? "hiders" : a.team == AnchorTeam::Seekers ? "seekers" : "";
        anchors.push_back(std::move(ao));
    }
    o["anchors"] = std::move(anchors);
    json::array spawns;
    for (const auto& s : room.spawns) {
        json::object so;
        so["at"] = json::array{s.x, s.y};
        json::array kinds;
        if (s.crate) kinds.push_back("crate");
        if (s.panel) kinds.push_back("panel");
        if (s.ramp) kinds.push_back("ramp");
        so["kinds"] = std::move(kinds);
        so["axis"] = s.axis == ObjectAxis::V ? "v" : "h";
        spawns.push_back(std::move(so));
    }
    o["objectSpawns"] = std::move(spawns);
    return json::serialize(o);
}

bool room_pool_valid(std::string_view pool) {
    if (pool == "all") return true;
    for (const char* n : kRoomNames)
        if (pool == n) return true;
    return false;
}

std::string room_for_seed(std::string_view pool, long long seed) {
    if (pool != "all") return std::string(pool);
    long long i = seed % 3;
    if (i < 0) i += 3;
    return kRoomNames[i];
}

}  // namespace hschool::sim::hns
