#include "sim/hns/seat_view.hpp"

#include <algorithm>
#include <boost/json.hpp>
#include <cstdint>

#include "sim/hns/constants.hpp"
#include "sim/hns/nim_json.hpp"

namespace hschool::sim::hns {
namespace json = boost::json;

namespace {

json::array xy(int x, int y) { return json::array{x, y}; }
json::array box(const Rect& r) { return json::array{r.x, r.y, r.w, r.h}; }

const char* role_text(Team team) { return team == Team::Red ? "hiders" : "seekers"; }
const char* phase_text(MatchPhase phase) { return phase == MatchPhase::Prep ? "prep" : "hunt"; }

const char* lock_text(LockOwner owner) {
    switch (owner) {
        case LockOwner::Hiders: return "hiders";
        case LockOwner::Seekers: return "seekers";
        case LockOwner::None: break;
    }
    return "none";
}

const char* kind_text(ObjectKind kind) {
    switch (kind) {
        case ObjectKind::Panel: return "panel";
        case ObjectKind::Ramp: return "ramp";
        case ObjectKind::Crate: break;
    }
    return "crate";
}

// The reference's playerIndexForSlot: cogs are found by the slot they joined into.
int index_for_seat(const Sim& sim, int seat) {
    const auto& players = sim.players();
    for (std::size_t i = 0; i < players.size(); ++i)
        if (players[i].joinOrder == seat) return static_cast<int>(i);
    return -1;
}

const SeatMemory* memory_of(const SeatViewInput& in, int slot) {
    return slot >= 0 && static_cast<std::size_t>(slot) < in.memory.size() ? &in.memory[slot] : nullptr;
}

json::value object_id(const Sim& sim, int index) {
    if (index < 0 || index >= static_cast<int>(sim.objects().size())) return nullptr;
    return json::value(sim.objects()[index].id);
}

json::array anchors_of(const Room& room, AnchorKind kind) {
    json::array out;
    for (const auto& a : room.anchors)
        if (a.kind == kind) out.push_back(json::object{{"id", a.id}, {"at", xy(a.x, a.y)}});
    return out;
}

// The static room; a seeker is told only its own pad, a hider every seeker pad.
json::object room_block(const Sim& sim, bool seeker, Point my_pad) {
    const Room& room = sim.room();
    json::array walls, doors, regions;
    for (const auto& w : room.walls) walls.push_back(box(w));
    for (const auto& d : room.doors)
        doors.push_back(json::object{{"id", d.id}, {"at", xy(d.x, d.y)}, {"w", d.w}, {"axis", d.vertical ? "v" : "h"}});
    for (const auto& r : room.regions) {
        json::array ids;
        for (const auto& id : r.doors) ids.push_back(json::value(id));
        regions.push_back(json::object{{"id", r.id}, {"name", r.name}, {"box", box(r.box)}, {"doors", std::move(ids)}});
    }
    json::object out;
    out["name"] = room.name;
    out["w"] = room.width;
    out["h"] = room.height;
    out["walls"] = std::move(walls);
    out["doors"] = std::move(doors);
    out["regions"] = std::move(regions);
    out["pockets"] = anchors_of(room, AnchorKind::Pocket);
    out["patrol"] = anchors_of(room, AnchorKind::Patrol);
    out["keep_clear_px"] = sim.config().keepClearPx;
    if (seeker) {
        out["your_pad"] = xy(my_pad.x, my_pad.y);
    } else {
        json::array pads;
        for (const auto& p : room.pads(AnchorTeam::Seekers)) pads.push_back(xy(p.x, p.y));
        out["seeker_pads"] = std::move(pads);
    }
    return out;
}

std::string region_id_at(const Room& room, int x, int y) {
    for (const auto& r : room.regions)
        if (r.box.contains(x, y)) return r.id;
    return "";
}

}  // namespace

Point shout_heard_at(const Shout& shout) {
    std::uint32_t h = 0x2545F491u;
    h = (h ^ static_cast<std::uint32_t>(shout.tick)) * 0x85EBCA6Bu;
    h = (h ^ static_cast<std::uint32_t>(shout.x)) * 0xC2B2AE35u;
    h = (h ^ static_cast<std::uint32_t>(shout.y)) * 0x27D4EB2Fu;
    h ^= h >> 15;
    constexpr std::uint32_t span = 2 * kShoutJitterPx + 1;
    return {std::clamp(shout.x + static_cast<int>(h % span) - kShoutJitterPx, 0, kMapWidth - 1),
            std::clamp(shout.y + static_cast<int>((h >> 16) % span) - kShoutJitterPx, 0, kMapHeight - 1)};
}

std::string seat_view_json(const SeatViewInput& in) { return nim_json_text(seat_view_object(in)); }

json::object seat_view_object(const SeatViewInput& in) {
    const Sim& sim = in.sim;
    const int index = index_for_seat(sim, in.seat);
    if (index < 0) return {};
    const auto& players = sim.players();
    const int count = static_cast<int>(players.size());
    const Player& me = players[index];
    const bool hiding = me.team == Team::Red;
    const GameConfig& cfg = sim.config();

    json::array objects;
    for (const GameObject& o : sim.objects()) {
        json::value holder = nullptr;
        if (o.heldBy >= 0 && o.heldBy < count) holder = sim.alias(o.heldBy);
        objects.push_back(json::object{{"id", o.id}, {"kind", kind_text(o.kind)}, {"box", box(o.rect())},
                                       {"locked", lock_text(o.lockedBy)}, {"held_by", std::move(holder)}});
    }

    json::array teammates;
    for (int i = 0; i < count; ++i) {
        const Player& p = players[i];
        if (i == index || p.team != me.team) continue;
        const SeatMemory* m = memory_of(in, p.joinOrder);
        teammates.push_back(json::object{{"id", sim.alias(i)}, {"pos", xy(p.x, p.y)},
                                         {"holding", object_id(sim, p.holding)},
                                         {"last_radio", m ? m->radio : std::string()}});
    }

    // 0 or 1 entries: the driver's memory of the nearest enemy seen in the last 72 ticks.
    json::array seen;
    const KnownEnemy enemy = in.driver.known_enemy(sim, index);
    if (enemy.known && enemy.index >= 0 && enemy.index < count)
        seen.push_back(json::object{
            {"id", sim.alias(enemy.index)}, {"pos", xy(enemy.x, enemy.y)}, {"ticks_ago", enemy.ticksAgo}});

    json::array heard;
    for (const Shout& s : sim.shouts()) {
        if (!sim.shout_audible_to(index, s)) continue;
        const Point at = shout_heard_at(s);
        heard.push_back(json::object{{"team", role_text(s.team)}, {"text", s.text}, {"at", xy(at.x, at.y)},
                                     {"ticks_ago", sim.tick_count() - s.tick}});
    }

    // The margin is the hiders' view; negated for a seeker so higher is always better.
    const int margin = hiding ? sim.current_margin() : -sim.current_margin();
    const int hunt_left = std::max(0, cfg.huntTicks() - std::max(0, sim.game_tick() - cfg.prepTicks()));
    const auto locked_by = [&](LockOwner owner) {
        return std::count_if(sim.objects().begin(), sim.objects().end(),
                             [&](const GameObject& o) { return o.lockedBy == owner; });
    };
    json::object fort;
    fort["locked_by_us"] = locked_by(hiding ? LockOwner::Hiders : LockOwner::Seekers);
    fort["locked_by_them"] = locked_by(hiding ? LockOwner::Seekers : LockOwner::Hiders);
    json::array sealed;
    for (int i = 0; i < count; ++i)
        if (players[i].team == Team::Red && players[i].sealed) sealed.push_back(json::value(sim.alias(i)));
    // A seeker may learn how many hiders are sealed, never which.
    if (hiding) fort["sealed"] = std::move(sealed);
    else fort["sealed_count"] = sealed.size();

    const SeatMemory* mine = memory_of(in, in.seat);
    json::value last_order = nullptr;
    if (mine && mine->last_order) {
        const Order& o = *mine->last_order;
        json::object node{{"intent", intent_text(o.intent)}, {"object", o.obj}, {"result", mine->last_result}};
        if (o.hasTo) node["to"] = xy(o.toX, o.toY);
        last_order = std::move(node);
    }

    const auto pads = sim.room().pads(hiding ? AnchorTeam::Hiders : AnchorTeam::Seekers);
    const Point my_pad = pads.empty() ? Point{} : pads[static_cast<std::size_t>(in.seat / 2) % pads.size()];

    json::object view;
    view["you"] = sim.alias(index);
    view["role"] = hiding ? "hider" : "seeker";
    view["game"] = sim.game_index() + 1;
    view["of"] = cfg.maxGames;
    view["phase"] = phase_text(sim.match_phase());
    view["turn"] = in.turn;
    view["turns"] = cfg.prepTurns + cfg.huntTurns;
    view["clock"] = json::object{{"phase", phase_text(sim.match_phase())},
                                 {"phase_left_s", sim.phase_ticks_left() / kTargetFps},
                                 {"hunt_len_s", cfg.huntTicks() / kTargetFps}};
    view["room"] = room_block(sim, !hiding, my_pad);
    view["you_at"] = json::object{{"pos", xy(me.x, me.y)}, {"aim", me.aimBrads},
                                  {"region", region_id_at(sim.room(), me.x, me.y)},
                                  {"holding", object_id(sim, me.holding)}, {"airborne", me.airborne}};
    view["objects"] = std::move(objects);
    view["teammates"] = std::move(teammates);
    view["seen_enemies"] = std::move(seen);
    view["heard"] = std::move(heard);
    view["exposure"] = json::object{{"team_seen_ticks", sim.seen_ticks()}, {"team_hidden_ticks", sim.hidden_ticks()},
                                    {"margin", static_cast<double>(margin) / 1000.0},
                                    {"you_seen_ticks", me.seatSeenTicks}, {"seen_now", sim.exposed_now()},
                                    {"hunt_ticks_left", hunt_left}};
    view["fort"] = std::move(fort);
    view["your_last_order"] = std::move(last_order);
    if (in.external) view["your_notes"] = mine ? mine->notes : std::string();
    return view;
}

OrderContext order_context(const Sim& sim) {
    OrderContext ctx;
    for (const auto& o : sim.objects()) {
        ctx.objectIds.push_back(o.id);
        if (o.kind == ObjectKind::Ramp) ctx.rampIds.push_back(o.id);
    }
    const Room& room = sim.room();
    for (const auto& a : room.anchors) ctx.anchorIds.push_back(a.id);
    for (const auto& d : room.doors) ctx.anchorIds.push_back(d.id);
    for (const auto& r : room.regions) ctx.anchorIds.push_back(r.id);
    ctx.maxX = room.width - 1;
    ctx.maxY = room.height - 1;
    return ctx;
}

std::string last_result_text(const Sim& sim, int slot) {
    const auto& results = sim.last_results();
    return slot < static_cast<int>(results.size()) ? action_result_text(results[static_cast<std::size_t>(slot)]) : "";
}

}  // namespace hschool::sim::hns
