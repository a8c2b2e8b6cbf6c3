// Replays being watched are parsed once and share one set of keyframes among their viewers; a
// replay nobody watches any more is forgotten; a broken file is an error, not a viewer.
#include <gtest/gtest.h>

#include "../../sim/hns/hns_test_support.hpp"
#include "server/hns/streams/replay_library.hpp"

namespace hschool::server::hns {
namespace {

std::string vector_replay(const char* name) { return hns_test::read_file(hns_test::vector_dir() + "/" + name); }

TEST(ReplayLibrary, ViewersOfTheSameBytesShareOneParsedReplayAndItsKeyframes) {
    auto a = watch_replay(vector_replay("cert_formula.cowldhns"));
    auto b = watch_replay(vector_replay("cert_formula.cowldhns"));
    auto other = watch_replay(vector_replay("cert_zero.cowldhns"));
    ASSERT_TRUE(a) << a.error;
    ASSERT_TRUE(b) << b.error;
    ASSERT_TRUE(other) << other.error;
    EXPECT_EQ(*a, *b);
    EXPECT_EQ((*a)->keyframes, (*b)->keyframes);
    EXPECT_NE(*a, *other);
    // Once nobody watches it, the next viewer parses it afresh (nothing is kept for ever).
    a = {};
    b = {};
    auto again = watch_replay(vector_replay("cert_formula.cowldhns"));
    ASSERT_TRUE(again) << again.error;
    EXPECT_EQ((*again)->data.hashes.size(), 949u);
}

TEST(ReplayLibrary, ABrokenFileIsAnErrorWithItsReason) {
    const auto broken = watch_replay("not a replay");
    EXPECT_FALSE(broken);
    EXPECT_NE(broken.error.find("unreadable"), std::string::npos) << broken.error;
}

}  // namespace
}  // namespace hschool::server::hns
