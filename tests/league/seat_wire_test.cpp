// The league's built-ins over the wire (tools/hns: wire_seats, seat_session): builtin:random as an
// external seat draws, at every decision of a real match, the very order the headless RandomSeat
// draws from the sim; the registrations of the server-backed seats (idle as a manual seat that never
// presses, a prompt seat, a stand-in) are the ones the server reads.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "seat_session.hpp"
#include "sim/hns/match.hpp"
#include "sim/hns/reference_seats.hpp"
#include "sim/hns/room_files.hpp"
#include "wire_seats.hpp"

namespace hns = hschool::sim::hns;
namespace tools = hschool::tools::hns;
namespace json = boost::json;

namespace {

const char* wire_lock_text(hns::LockOwner owner) {
    return owner == hns::LockOwner::Hiders ? "hiders" : owner == hns::LockOwner::Seekers ? "seekers" : "none";
}

// The decision frame's parts random reads, shaped as the server's observation has them.
std::string wire_decision(const hns::Sim& sim, int slot, int turn) {
    json::array objects, pockets;
    for (const auto& o : sim.objects()) objects.push_back(json::object{{"id", o.id}, {"locked", wire_lock_text(o.lockedBy)}});
    for (const auto& a : sim.room().anchors)
        if (a.kind == hns::AnchorKind::Pocket) pockets.push_back(json::object{{"id", a.id}, {"at", json::array{a.x, a.y}}});
    json::object observation{{"game", sim.game_index() + 1},
                             {"role", sim.players()[static_cast<std::size_t>(slot)].team == hns::Team::Red ? "hider" : "seeker"},
                             {"room", json::object{{"pockets", std::move(pockets)}}},
                             {"objects", std::move(objects)}};
    return json::serialize(json::object{{"type", "decision"}, {"turn", turn}, {"seat", slot}, {"observation", std::move(observation)}});
}

// Plays RandomSeat headless and, at each of its decisions, checks the wire order against it.
class WireRecorder final : public hns::SeatPolicy {
public:
    explicit WireRecorder(int& compared) : compared_(compared) {}
    std::string_view name() const override { return "random"; }
    hns::Order order(const hns::Sim& sim, const hns::Driver& driver, int slot, int turn, const hns::BaselineParams& params) const override {
        const hns::Order expected = hns::random_seat()->order(sim, driver, slot, turn, params);
        const auto wire = tools::random_order_json(wire_decision(sim, slot, turn), sim.config().seed);
        EXPECT_TRUE(wire);
        if (!wire) return expected;
        hns::OrderContext ctx;
        for (const auto& o : sim.objects()) ctx.objectIds.push_back(o.id);
        for (const auto& a : sim.room().anchors) ctx.anchorIds.push_back(a.id);
        const auto parsed = hns::parse_order(*wire, ctx);
        EXPECT_TRUE(parsed && !parsed->rejected) << *wire;
        if (!parsed) return expected;
        const hns::Order& got = parsed->order;
        EXPECT_EQ(got.intent, expected.intent) << *wire;
        EXPECT_EQ(got.obj, expected.obj) << *wire;
        EXPECT_EQ(got.at, expected.at) << *wire;
        EXPECT_EQ(got.hasTo, expected.hasTo) << *wire;
        EXPECT_EQ(got.toX, expected.toX) << *wire;
        EXPECT_EQ(got.toY, expected.toY) << *wire;
        EXPECT_EQ(got.hasFace, expected.hasFace) << *wire;
        if (expected.hasFace) {
            EXPECT_EQ(got.faceX, expected.faceX) << *wire;
            EXPECT_EQ(got.faceY, expected.faceY) << *wire;
        }
        ++compared_;
        return expected;
    }

private:
    int& compared_;
};

json::object registration(const tools::SeatPolicy& policy) { return json::parse(tools::registration_text(policy)).as_object(); }

}  // namespace

TEST(LeagueSeatWire, RandomOverTheWireDrawsTheHeadlessSeatsOrders) {
    for (std::int64_t seed : {3, 11}) {
        auto config = hns::variant_config("certification");
        ASSERT_TRUE(config) << config.error;
        config->seed = seed;
        auto pinned = hns::resolve_room_spec(*config);
        ASSERT_TRUE(pinned) << pinned.error;
        int compared = 0;
        hns::MatchOptions options;
        for (int s = 0; s < 6; ++s)
            options.policies[s] = s % 2 == 0 ? std::make_shared<const WireRecorder>(compared) : hns::baseline_seat(hns::Baseline::Burrow);
        ASSERT_TRUE(hns::run_match(*pinned, options));
        // Three seats at each decision turn of both games, every one compared.
        EXPECT_GE(compared, 3 * 2 * pinned->huntTurns);
        EXPECT_EQ(compared % 6, 0);
    }
    EXPECT_FALSE(tools::random_order_json(R"({"type":"state"})", 1));
    EXPECT_FALSE(tools::random_order_json("not json", 1));
}

TEST(LeagueSeatWire, RegistrationsTheServerReads) {
    tools::SeatPolicy idle;
    idle.manual = true;
    idle.label = "idle";
    const auto i = registration(idle);
    EXPECT_EQ(i.at("mode"), "manual");
    EXPECT_TRUE(i.at("scripted").is_null());
    EXPECT_EQ(i.at("policy"), "idle");

    tools::SeatPolicy prompt;
    prompt.prompt = "Hide \"deep\"\n";
    const auto p = registration(prompt);
    EXPECT_EQ(p.at("prompt"), "Hide \"deep\"\n");
    EXPECT_EQ(p.at("policy"), "prompt");
    EXPECT_EQ(p.at("scripted"), "burrow");
    EXPECT_FALSE(p.contains("mode"));

    const auto standIn = registration(tools::SeatPolicy{"burrow", false, "stand-in"});
    EXPECT_EQ(standIn.at("prompt"), "");
    EXPECT_EQ(standIn.at("scripted"), "burrow");
    EXPECT_EQ(standIn.at("policy"), "stand-in");
}
