#pragma once
// Helpers for the rendering tests: a sim for a variant and seed, frames as hex and as messages.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "protocol/sprite_pixels.hpp"
#include "render/hns/stream.hpp"
#include "sim/hns/constants.hpp"
#include "sim/hns/room_files.hpp"
#include "sim/hns/sim.hpp"
#include "../sim/hns/hns_test_support.hpp"

namespace render_test {
namespace hns = hschool::sim::hns;
namespace sv = hschool::protocol::sprite_v1;
using hschool::protocol::Bytes;

// The sims come from the hide-and-seek tests' own helpers (variant + seed, six trusted joins).
using hns_test::join_six;
using hns_test::make_sim;

inline void step(hns::Sim& sim, std::vector<std::uint8_t> masks = {}, std::vector<std::uint8_t> prev = {}) {
    std::vector<hns::Input> cur(6), before(6);
    for (std::size_t i = 0; i < masks.size(); ++i) cur[i].mask = masks[i];
    for (std::size_t i = 0; i < prev.size(); ++i) before[i].mask = prev[i];
    sim.step(cur, before);
}

// The certification deal (seed 42) with six seats, one step in: the state most tests start from.
using hns_test::started_certification;

// Slot 2 (a hider) locks box4 (object index 3): the lock most stream tests look at.
inline void lock_box4_by_slot2(hns::Sim& sim) {
    sim.place_player(2, 130, 340);  // facing box4
    std::vector<std::uint8_t> lock(6, 0);
    lock[2] = hns::kBtnA;
    step(sim, lock);
}

inline std::string hex(const Bytes& bytes, std::size_t from = 0, std::size_t count = std::string::npos) {
    std::string out;
    for (std::size_t i = from; i < bytes.size() && i - from < count; ++i) {
        char b[4];
        std::snprintf(b, sizeof b, "%02X", bytes[i]);
        if (!out.empty()) out += ' ';
        out += b;
    }
    return out;
}

// Every frame we send must pass the strictest receiver check.
inline std::vector<sv::ServerMessage> messages(const hschool::render::hns::Frame& frame) {
    auto decoded = sv::decode_server_checked(frame.bytes);
    EXPECT_TRUE(decoded.ok()) << (decoded.ok() ? "" : sv::describe(decoded.error()));
    return decoded.ok() ? *decoded : std::vector<sv::ServerMessage>{};
}

template <class T>
std::vector<T> only(const std::vector<sv::ServerMessage>& all) {
    std::vector<T> out;
    for (const auto& m : all)
        if (const auto* t = std::get_if<T>(&m)) out.push_back(*t);
    return out;
}

// The objects and sprites some messages define, by id (a later definition wins).
struct Definitions {
    std::map<int, sv::DefineObject> objects;
    std::map<int, sv::DefineSprite> sprites;
};
inline Definitions definitions(const std::vector<sv::ServerMessage>& all) {
    Definitions out;
    for (const auto& o : only<sv::DefineObject>(all)) out.objects[o.object_id] = o;
    for (const auto& s : only<sv::DefineSprite>(all)) out.sprites[s.sprite_id] = s;
    return out;
}

}  // namespace render_test
