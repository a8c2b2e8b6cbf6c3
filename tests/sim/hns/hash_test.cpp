// gameHash: the field order of §5.1 pinned by an independent fold, and the reference's lobby
// hashes (vectors/lobby_and_deals.json).
#include <gtest/gtest.h>

#include "hns_test_support.hpp"

using namespace hns_test;

namespace {

struct Fold {
    std::uint64_t h = 14695981039346656037ULL;
    void operator()(std::int64_t v) { h = (h ^ static_cast<std::uint64_t>(v)) * 1099511628211ULL; }
};

// The §5.1 order, written out from the public accessors; a reorder in hash.cpp breaks this.
std::uint64_t spec_order_hash(const hns::Sim& sim, int gameOverTimer, int startWaitTimer, bool timeLimit,
                              int nextJoin, int matchPrepTicks) {
    Fold f;
    f(sim.tick_count());
    f(static_cast<int>(sim.phase()));
    f(gameOverTimer);
    f(sim.game_start_tick());
    f(startWaitTimer);
    f(timeLimit);
    f(nextJoin);
    f(static_cast<std::int64_t>(sim.players().size()));
    for (const auto& p : sim.players()) {
        for (int v : {p.x, p.y, p.homeX, p.homeY, p.velX, p.velY, p.carryX, p.carryY}) f(v);
        f(p.flipH);
        f(p.aimBrads);
        f(static_cast<int>(p.team));
        f(p.alive);
        f(p.lastShoutTick);
        f(p.joinOrder);
        f(p.color);
    }
    for (const auto& p : sim.players())
        for (int v : {p.holding, static_cast<int>(p.airborne), p.vaultLeft, p.vaultDirBrads, p.lockCooldown,
                      p.pushBlockedTicks})
            f(v);
    f(static_cast<std::int64_t>(sim.objects().size()));
    for (const auto& o : sim.objects())
        for (int v : {static_cast<int>(o.kind), static_cast<int>(o.axis), o.x, o.y, static_cast<int>(o.lockedBy), o.heldBy})
            f(v);
    f(static_cast<int>(sim.match_phase()));
    f(matchPrepTicks);
    f(sim.game_index());
    f(sim.hidden_ticks());
    f(sim.seen_ticks());
    for (const auto& p : sim.players()) f(p.seatSeenTicks);
    f(static_cast<std::int64_t>(sim.sealed_mask()));
    f(sim.geometry_epoch());
    f(static_cast<std::int64_t>(sim.shouts().size()));
    return f.h;
}

// Steps `sim` with `seats` idle inputs once per hash in the vector's hashTicks1to5, checking each; how many.
int expect_hashes_of_ticks_one_to_five(hns::Sim& sim, const boost::json::value& v, std::size_t seats) {
    const std::vector<hns::Input> zero(seats);
    int checked = 0;
    for (const auto& h : v.at("hashTicks1to5").as_array()) {
        sim.step(zero, zero);
        EXPECT_EQ(sim.hash(), hex(h)) << v.at("variant").as_string() << " seed " << v.at("seed").as_int64()
                                      << " tick " << sim.tick_count();
        ++checked;
    }
    return checked;
}

}  // namespace

TEST(HnsHash, FieldOrderIsTheSpecOrder) {
    hns::Sim sim = make_sim("certification", 42);
    EXPECT_EQ(sim.hash(), spec_order_hash(sim, 0, 0, false, 0, 180));
    join_six(sim);
    EXPECT_EQ(sim.hash(), spec_order_hash(sim, 0, 0, false, 6, 180));
    // The derived values of §5.1 for the certification deal.
    EXPECT_EQ(sim.hash(), 0x387662c10162238dULL);
}

TEST(HnsHash, EmptyLobbyTicksOneToFive) {
    const auto doc = vector_json("lobby_and_deals.json");
    int checked = 0;
    for (const auto& v : doc.at("emptyLobby").as_array()) {
        hns::Sim sim = make_sim(std::string(v.at("variant").as_string()), v.at("seed").as_int64());
        checked += expect_hashes_of_ticks_one_to_five(sim, v, 0);
    }
    EXPECT_EQ(checked, 30);
}

TEST(HnsHash, SixJoinedBeforeStepOneThenTicksOneToFive) {
    const auto doc = vector_json("lobby_and_deals.json");
    int checked = 0;
    for (const auto& v : doc.at("sixJoinedBeforeStep1").as_array()) {
        hns::Sim sim = make_sim(std::string(v.at("variant").as_string()), v.at("seed").as_int64());
        join_six(sim);
        EXPECT_EQ(sim.hash(), hex(v.at("hashAfterJoinBeforeStep1")));
        checked += expect_hashes_of_ticks_one_to_five(sim, v, 6);
    }
    EXPECT_EQ(checked, 30);
}
