// The league's fixed reference points beside the baselines (src/sim/hns/reference_seats.*): idle
// never moves, random repeats for its seed and differs across seeds, both re-step from their
// replays, and the baselines played as policies are byte for byte the baselines of `run`.
#include <gtest/gtest.h>

#include "sim/hns/match.hpp"
#include "sim/hns/reference_seats.hpp"
#include "sim/hns/room_files.hpp"
#include "sim/hns/verify.hpp"

namespace hns = hschool::sim::hns;

namespace {

hns::GameConfig certification(std::int64_t seed) {
    auto config = hns::variant_config("certification");
    EXPECT_TRUE(config) << config.error;
    config->seed = seed;
    auto pinned = hns::resolve_room_spec(*config);
    EXPECT_TRUE(pinned) << pinned.error;
    return *pinned;
}

std::string play(std::int64_t seed, const std::shared_ptr<const hns::SeatPolicy>& first,
                 const std::shared_ptr<const hns::SeatPolicy>& second) {
    hns::MatchOptions options;
    for (int s = 0; s < 6; ++s) options.policies[s] = s % 2 == 0 ? first : second;
    auto outcome = hns::run_match(certification(seed), options);
    EXPECT_TRUE(outcome) << outcome.error;
    return outcome ? outcome->replay : "";
}

hns::ReplayData parsed(const std::string& replay) {
    auto data = hns::parse_replay(replay);
    EXPECT_TRUE(data) << data.error;
    return data ? *data : hns::ReplayData{};
}

}  // namespace

TEST(LeagueReferenceSeats, IdleNeverPressesAButton) {
    const auto data = parsed(play(4, hns::idle_seat(), hns::baseline_seat(hns::Baseline::Burrow)));
    int burrowInputs = 0;
    for (const auto& in : data.inputs) {
        if (in.player % 2 == 0) EXPECT_EQ(in.mask, 0) << "idle seat " << int(in.player);
        else ++burrowInputs;
    }
    EXPECT_GT(burrowInputs, 0);
    EXPECT_TRUE(hns::verify_replay(data).ok);
}

TEST(LeagueReferenceSeats, RandomRepeatsForItsSeedAndVerifies) {
    const auto random = hns::random_seat();
    const std::string a = play(9, random, hns::idle_seat());
    EXPECT_EQ(a, play(9, random, hns::idle_seat()));
    EXPECT_NE(a, play(10, random, hns::idle_seat()));
    const auto data = parsed(a);
    int moves = 0;
    for (const auto& in : data.inputs) moves += in.player % 2 == 0 && in.mask != 0 ? 1 : 0;
    EXPECT_GT(moves, 10);
    const auto report = hns::verify_replay(data);
    EXPECT_TRUE(report.ok) << report.message();
    // Draws differ by slot and turn, and never touch the sim's own generator.
    EXPECT_NE(hns::random_seat_draw(9, 0, 0, 1, 0), hns::random_seat_draw(9, 0, 2, 1, 0));
    EXPECT_NE(hns::random_seat_draw(9, 0, 0, 1, 0), hns::random_seat_draw(9, 0, 0, 2, 0));
    EXPECT_NE(hns::random_seat_draw(9, 0, 0, 1, 0), hns::random_seat_draw(9, 1, 0, 1, 0));
}

TEST(LeagueReferenceSeats, BaselinesAsPoliciesAreTheBaselines) {
    for (std::int64_t seed : {42, 7}) {
        hns::MatchOptions classic;
        classic.seats = {hns::Baseline::Burrow, hns::Baseline::Scatter, hns::Baseline::Burrow,
                         hns::Baseline::Scatter, hns::Baseline::Burrow, hns::Baseline::Scatter};
        const auto expected = hns::run_match(certification(seed), classic);
        ASSERT_TRUE(expected) << expected.error;
        EXPECT_EQ(play(seed, hns::baseline_seat(hns::Baseline::Burrow), hns::baseline_seat(hns::Baseline::Scatter)),
                  expected->replay);
    }
}
