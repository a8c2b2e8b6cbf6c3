#include "render/hns/chrome.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>

#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include "protocol/sprite_pixels.hpp"
#include "protocol/sprite_v1.hpp"
#include "sim/hns/constants.hpp"

namespace hschool::render::hns {
namespace {

namespace json = boost::json;
using sim::hns::GamePhase;
using sim::hns::LockOwner;
using sim::hns::ObjectKind;
using sim::hns::Team;

const char* phase_text(GamePhase p) {
    return p == GamePhase::Lobby ? "lobby" : p == GamePhase::Playing ? "playing" : "gameover";
}
const char* team_text(Team t) { return t == Team::Red ? "red" : "blue"; }
const char* role_text(Team t) { return t == Team::Red ? "hiders" : "seekers"; }
const char* lock_text(LockOwner o) {
    return o == LockOwner::None ? "none" : o == LockOwner::Hiders ? "hiders" : "seekers";
}
const char* kind_text(ObjectKind k) { return k == ObjectKind::Crate ? "crate" : k == ObjectKind::Panel ? "panel" : "ramp"; }

std::string hex16(std::uint64_t v) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

int player_for_slot(const sim::hns::Sim& sim, int slot) {
    const auto& players = sim.players();
    for (int i = 0; i < static_cast<int>(players.size()); ++i)
        if (players[static_cast<std::size_t>(i)].joinOrder == slot) return i;
    return -1;
}

// The reference's sideOf: game 1 slots 0, 2, 4 hide; sides swap each game.
Team side_of(int slot, int game_index) { return (slot + game_index) % 2 == 0 ? Team::Red : Team::Blue; }

int locked_count(const sim::hns::Sim& sim, LockOwner owner) {
    return static_cast<int>(std::count_if(sim.objects().begin(), sim.objects().end(),
                                          [owner](const auto& o) { return o.lockedBy == owner; }));
}

int sealed_count(const sim::hns::Sim& sim) {
    return static_cast<int>(std::count_if(sim.players().begin(), sim.players().end(),
                                          [](const auto& p) { return p.team == Team::Red && p.sealed; }));
}

// Seat names, kinds, fallback turns, scores and the end verdict are private to the sim; its
// results document is their one public form.
struct SeatFacts {
    json::array names, kinds, fallback, scores;
    json::string reason, end_rule;
};

SeatFacts seat_facts(const sim::hns::Sim& sim) {
    const json::object results = json::parse(sim.results_json()).as_object();
    return SeatFacts{results.at("names").as_array(), results.at("policyKinds").as_array(),
                     results.at("fallbackTurns").as_array(), results.at("scores").as_array(),
                     results.at("reason").as_string(), results.at("endRule").as_string()};
}

json::value at_or(const json::array& a, int i, json::value fallback) {
    return i >= 0 && i < static_cast<int>(a.size()) ? a[static_cast<std::size_t>(i)] : fallback;
}

std::string policy_name(std::string_view address) { return std::string(address.substr(0, address.find('#'))); }

json::array objects_json(const sim::hns::Sim& sim) {
    json::array out;
    for (const auto& o : sim.objects())
        out.push_back(json::object{{"id", o.id},
                                   {"kind", kind_text(o.kind)},
                                   {"box", json::array{o.x, o.y, o.w, o.h}},
                                   {"locked", lock_text(o.lockedBy)},
                                   {"held", o.heldBy >= 0}});
    return out;
}

json::object plate_json(const sim::hns::Sim& sim, const SeatFacts& facts, int slot) {
    const int index = player_for_slot(sim, slot);
    const std::string fallback_name = "Seat " + std::to_string(slot + 1);
    const json::value name = at_or(facts.names, slot, json::string(fallback_name));
    const std::string name_text = name.is_string() ? std::string(name.as_string()) : fallback_name;
    json::object plate{{"s", slot},
                       {"team", team_text(index >= 0 ? sim.players()[static_cast<std::size_t>(index)].team
                                                     : side_of(slot, sim.game_index()))},
                       {"alias", sim.alias(slot)},
                       {"name", name_text},
                       {"pol", policy_name(name_text)},
                       {"kind", at_or(facts.kinds, slot, "scripted")},
                       {"seen", 0},
                       {"unseen", 0},
                       {"locks", 0},
                       {"vaults", 0},
                       {"fb", at_or(facts.fallback, slot, 0)},
                       {"holding", ""},
                       {"sealed", false}};
    if (index < 0) return plate;
    const auto& p = sim.players()[static_cast<std::size_t>(index)];
    plate["seen"] = p.seatSeenTicks;
    plate["unseen"] = std::max(0, sim.hunt_ticks_played() - p.seatSeenTicks);
    plate["locks"] = p.locks;
    plate["vaults"] = p.vaults;
    plate["sealed"] = p.sealed;
    if (p.holding >= 0 && p.holding < static_cast<int>(sim.objects().size()))
        plate["holding"] = sim.objects()[static_cast<std::size_t>(p.holding)].id;
    return plate;
}

json::object teams_json(const sim::hns::Sim& sim, const SeatFacts& facts, int seats) {
    json::object out;
    for (const Team team : {Team::Red, Team::Blue}) {
        int seen = 0, unseen = 0, sealed = 0;
        for (const auto& p : sim.players()) {
            if (p.team != team) continue;
            seen += p.seatSeenTicks;
            unseen += std::max(0, sim.hunt_ticks_played() - p.seatSeenTicks);
            sealed += p.sealed ? 1 : 0;
        }
        json::array policies;
        for (int slot = 0; slot < seats; ++slot) {
            const int index = player_for_slot(sim, slot);
            if (index < 0 || sim.players()[static_cast<std::size_t>(index)].team != team) continue;
            if (slot < static_cast<int>(facts.names.size())) policies.push_back(facts.names[static_cast<std::size_t>(slot)]);
        }
        const LockOwner owner = team == Team::Red ? LockOwner::Hiders : LockOwner::Seekers;
        out[team_text(team)] = json::object{{"role", role_text(team)},
                                            {"seen", seen},
                                            {"unseen", unseen},
                                            {"locked", locked_count(sim, owner)},
                                            {"sealed", sealed},
                                            {"exposed", sim.exposed_now()},
                                            {"policies", std::move(policies)}};
    }
    return out;
}

}  // namespace

std::string chrome_label(const sim::hns::Sim& sim, const ChromeExtras& extras) {
    const auto& c = sim.config();
    const SeatFacts facts = seat_facts(sim);
    const int seats = std::max(c.numAgents, static_cast<int>(sim.players().size()));
    const int games = std::max(1, c.maxGames);
    json::array roster;
    for (int slot = 0; slot < seats; ++slot) roster.push_back(plate_json(sim, facts, slot));
    json::object state{
        {"t", sim.tick_count()},
        {"mt", c.maxTicks() * games},
        {"ph", phase_text(sim.phase())},
        {"mp", sim.match_phase() == sim::hns::MatchPhase::Prep ? "prep" : "hunt"},
        {"game", sim.game_index() + 1},
        {"games", games},
        {"turn", c.turnTicks > 0 ? std::max(0, sim.game_tick()) / c.turnTicks + 1 : 1},
        {"turns", c.prepTurns + c.huntTurns},
        {"phaseLeft", sim.phase_ticks_left() / sim::hns::kTargetFps},
        {"room", sim.room().name},
        {"hidden", sim.hidden_ticks()},
        {"seen", sim.seen_ticks()},
        {"margin", sim.current_margin()},
        {"sealed", sealed_count(sim)},
        {"objects", objects_json(sim)},
        {"teams", teams_json(sim, facts, seats)},
        {"roster", std::move(roster)},
        {"events", extras.events},
        {"paused", extras.paused},
        {"speed", extras.speed},
        {"end", extras.end},
        {"mismatch", nullptr},
    };
    if (extras.mismatch)
        state["mismatch"] = json::object{{"tick", extras.mismatch->tick},
                                         {"expected", hex16(extras.mismatch->expected)},
                                         {"got", hex16(extras.mismatch->got)}};
    // The endcard is state, not an event: a viewer who seeks to the end still sees the verdict.
    if (sim.phase() == GamePhase::GameOver || !sim.game_margins().empty()) {
        json::array margins(sim.game_margins().begin(), sim.game_margins().end());
        json::array scores;
        for (int slot = 0; slot < seats; ++slot) scores.push_back(at_or(facts.scores, slot, 0.0));
        state["over"] = json::object{{"gameMargins", std::move(margins)},
                                     {"scores", std::move(scores)},
                                     {"reason", facts.reason},
                                     {"endRule", facts.end_rule},
                                     {"game", sim.game_index() + 1},
                                     {"games", games},
                                     {"done", static_cast<int>(sim.game_margins().size()) >= c.maxGames}};
    }
    std::string label = json::serialize(state);
    // A label is at most 64 KiB on the wire; an event burst gives way before the board state does.
    if (label.size() > protocol::sprite_v1::kMaxLabelBytes) {
        state["events"] = json::array{};
        label = json::serialize(state);
    }
    return label;
}

SceneItem chrome_item(std::string label) {
    static const Block transparent =
        std::make_shared<const protocol::Bytes>(protocol::sprite_v1::compress_rgba(protocol::Bytes{0, 0, 0, 0}));
    SceneItem item;
    item.sprite = SceneSprite{static_cast<std::uint16_t>(kChromeSpriteId), 1, 1, transparent, std::move(label), true};
    item.sprite_only = true;
    return item;
}

}  // namespace hschool::render::hns
