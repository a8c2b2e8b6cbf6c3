#pragma once
// The replay chrome (spec §4.5): the JSON label of Define Sprite 4090, 1×1 and transparent,
// re-sent on every replay /global frame so the viewer's scorebug, transport and endcard follow.
#include <cstdint>
#include <optional>
#include <string>

#include <boost/json/array.hpp>

#include "render/hns/scene.hpp"
#include "sim/hns/sim.hpp"

namespace hschool::render::hns {

inline constexpr int kChromeSpriteId = 4090;

struct ChromeMismatch {
    int tick = 0;
    std::uint64_t expected = 0, got = 0;  // gameHash values, written as 16 lowercase hex digits
};

// What the replay player knows and the sim does not.
struct ChromeExtras {
    bool paused = false;
    int speed = 1;                           // ticks per frame
    int end = 0;                             // the replay's final tick
    std::optional<ChromeMismatch> mismatch;  // the first hash mismatch, if any
    boost::json::array events;               // this frame's broadcast events (§4.5 "events")
};

// The label: the reference's buildStateJson keys t, mt, ph, mp, game, games, turn, turns,
// phaseLeft, room, hidden, seen, margin, sealed, objects, teams, roster, events, over (only once
// a game is filed or the match is over), plus paused, speed, end and mismatch (null or
// {"tick","expected","got"}).
std::string chrome_label(const sim::hns::Sim& sim, const ChromeExtras& extras);

// Sprite 4090 carrying `label`, to append to a global scene: sent every frame, no object placed.
SceneItem chrome_item(std::string label);

}  // namespace hschool::render::hns
