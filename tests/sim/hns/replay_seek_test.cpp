// Seeking with keyframes (issue 19 point 5): going back, seeking and restarting give byte-identical
// sim hashes to stepping from tick 0, cost at most one keyframe interval of steps, keep at most
// kMaxReplayKeyframes keyframes however long the replay (shared by its viewers), and still name the
// first bad tick.
#include <gtest/gtest.h>

#include <climits>

#include "hns_test_support.hpp"
#include "sim/hns/constants.hpp"
#include "sim/hns/match.hpp"
#include "sim/hns/replay.hpp"
#include "sim/hns/replay_seek.hpp"

using namespace hns_test;

namespace {

using Status = hns::ReplayStepper::Status;

// The hash of the sim after every tick, stepping from 0 without keyframes: [t] is after tick t.
std::vector<std::uint64_t> hashes_from_zero(const hns::ReplayData& d) {
    auto stepper = hns::ReplayStepper::create(d);
    EXPECT_TRUE(stepper);
    std::vector<std::uint64_t> out{stepper->sim().hash()};
    while (stepper->step() == Status::Stepped) out.push_back(stepper->sim().hash());
    return out;
}

// A replay of about `ticks` ticks: certification with more hunt turns.
std::string long_replay(int ticks) {
    auto config = hns::variant_config("certification");
    EXPECT_TRUE(config);
    config->maxGames = 1;
    config->huntTurns = ticks / config->turnTicks;
    auto resolved = hns::resolve_room_spec(*config);
    EXPECT_TRUE(resolved) << resolved.error;
    auto outcome = hns::run_match(*resolved, hns::MatchOptions{});
    EXPECT_TRUE(outcome) << outcome.error;
    return outcome->replay;
}

void seek_to(hns::ReplaySeeker& seeker, int target, int* steps = nullptr) {
    int stepped = 0;
    ASSERT_TRUE(seeker.seek(target, INT_MAX, [&](Status) { ++stepped; }));
    ASSERT_EQ(seeker.sim().tick_count(), target);
    if (steps) *steps = stepped;
}

TEST(ReplaySeeker, SeekingBackAndForthGivesTheHashesOfSteppingFromZero) {
    auto d = hns::parse_replay(read_file(vector_dir() + "/cert_formula.cowldhns"));
    ASSERT_TRUE(d) << d.error;
    const auto want = hashes_from_zero(*d);
    ASSERT_EQ(want.size(), 950u);
    auto seeker = hns::ReplaySeeker::create(*d);
    ASSERT_TRUE(seeker) << seeker.error;
    seek_to(*seeker, 949);  // 'e'
    EXPECT_EQ(seeker->sim().hash(), want[949]);
    EXPECT_EQ(seeker->keyframes().size(), 4u);  // ticks 0, 256, 512, 768
    for (int target : {948, 947, 600, 512, 511, 256, 255, 1, 0, 700, 949, 100}) {
        int steps = 0;
        seek_to(*seeker, target, &steps);
        EXPECT_EQ(seeker->sim().hash(), want[static_cast<std::size_t>(target)]) << "at " << target;
        EXPECT_LT(steps, hns::kReplayKeyframeInterval) << "seek to " << target;
        for (int i = 1; i <= 3 && target + i <= 949; ++i) {
            EXPECT_EQ(seeker->step(), Status::Stepped);
            EXPECT_EQ(seeker->sim().hash(), want[static_cast<std::size_t>(target + i)]) << "after " << target;
        }
    }
    EXPECT_EQ(seeker->stepper().checked(), 103);  // a restored keyframe brings its own verification counts
}

TEST(ReplaySeeker, KeyframesStayBoundedOnALongReplayAndBackStaysOneInterval) {
    auto d = hns::parse_replay(long_replay(6000));
    ASSERT_TRUE(d) << d.error;
    auto seeker = hns::ReplaySeeker::create(*d);
    ASSERT_TRUE(seeker);
    const int end = seeker->final_tick();
    ASSERT_GT(end, 16 * hns::kReplayKeyframeInterval);  // long enough to thin the keyframes
    seek_to(*seeker, end);
    const int interval = seeker->keyframes().interval();
    EXPECT_LE(seeker->keyframes().size(), hns::kMaxReplayKeyframes);
    EXPECT_GT(interval, hns::kReplayKeyframeInterval);
    EXPECT_LE(interval, std::max(hns::kReplayKeyframeInterval, end / 4));
    const auto want = hashes_from_zero(*d);
    // 'b' twenty times from the end: each costs less than one interval, never `end` steps.
    for (int back = 1; back <= 20; ++back) {
        int steps = 0;
        seek_to(*seeker, end - back, &steps);
        EXPECT_LT(steps, interval);
        EXPECT_EQ(seeker->sim().hash(), want[static_cast<std::size_t>(end - back)]);
    }
}

TEST(ReplaySeeker, ViewersOfOneReplayShareItsKeyframes) {
    auto d = hns::parse_replay(read_file(vector_dir() + "/cert_formula.cowldhns"));
    ASSERT_TRUE(d);
    const auto want = hashes_from_zero(*d);
    auto shared = hns::ReplayKeyframes::create(*d);
    ASSERT_TRUE(shared) << shared.error;
    hns::ReplaySeeker first(*shared), second(*shared);
    seek_to(first, 949);
    EXPECT_EQ(shared->get()->size(), 4u);
    // The second viewer's 'e' starts from the first one's last keyframe, not from tick 0.
    int steps = 0;
    seek_to(second, 949, &steps);
    EXPECT_LT(steps, hns::kReplayKeyframeInterval);
    EXPECT_EQ(second.sim().hash(), want[949]);
    EXPECT_EQ(shared->get()->size(), 4u);  // nothing taken twice
}

TEST(ReplaySeeker, ABudgetSpreadsASeekOverCallsAndStopsAtTheTarget) {
    auto d = hns::parse_replay(read_file(vector_dir() + "/cert_zero.cowldhns"));
    ASSERT_TRUE(d);
    auto seeker = hns::ReplaySeeker::create(*d);
    int calls = 0;
    while (!seeker->seek(900, 100, [](Status) {})) ++calls;
    EXPECT_EQ(calls, 8);  // 9 calls of at most 100 ticks
    EXPECT_EQ(seeker->sim().tick_count(), 900);
}

TEST(ReplaySeeker, AFlippedMaskIsStillReportedAtTheFirstBadTickAfterSeeking) {
    auto d = hns::parse_replay(read_file(vector_dir() + "/cert_formula.cowldhns"));
    ASSERT_TRUE(d);
    const auto good = hns::verify_replay(*d);
    ASSERT_TRUE(good.ok);
    // Flip one hider's B in game 1's prep (as HnsReplay.FlippingOneMaskByteNamesThatTick does).
    for (auto& in : d->inputs) {
        if (in.player % 2 == 0 && in.ms >= 2000 && in.ms <= 6000) {
            in.mask ^= hns::kBtnB;
            break;
        }
    }
    const auto bad = hns::verify_replay(*d);
    ASSERT_FALSE(bad.ok);
    ASSERT_TRUE(bad.error.empty()) << bad.message();
    ASSERT_GT(bad.mismatchTick, 0);
    auto seeker = hns::ReplaySeeker::create(*d);
    // The first pass (a seek to the end, as 'e' does) steps every tick and meets the bad one first.
    int first = 0;
    ASSERT_TRUE(seeker->seek(949, INT_MAX, [&](Status s) {
        if (s == Status::Mismatch && first == 0) first = seeker->sim().tick_count();
    }));
    EXPECT_EQ(first, bad.mismatchTick);
    // Back from a restored keyframe, stepping meets it again at the same tick, with the same hashes.
    for (int from : {0, bad.mismatchTick - 1}) {
        seek_to(*seeker, from);
        Status s = Status::Stepped;
        while ((s = seeker->step()) == Status::Stepped) {
        }
        EXPECT_EQ(s, Status::Mismatch);
        EXPECT_EQ(seeker->sim().tick_count(), bad.mismatchTick) << "from " << from;
        EXPECT_EQ(seeker->stepper().expected_hash(), bad.expected);
        EXPECT_EQ(seeker->stepper().got_hash(), bad.got);
    }
}

}  // namespace
