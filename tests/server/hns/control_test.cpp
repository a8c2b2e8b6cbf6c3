// POST /control/restart and /control/kick answers (spec §2.1): exact status and body texts.
#include <gtest/gtest.h>

#include "server/hns/contract/control.hpp"

namespace hschool::server::hns {
namespace {

QueryParams params(std::string_view text) { return *parse_query(text); }

TEST(HnsControl, RestartIs202AndQueuesARestart) {
    const auto d = decide_control(ControlRoute::Restart, "POST", params(""), ControlState{});
    EXPECT_EQ(d.status, 202);
    EXPECT_EQ(d.body, "restart queued\n");
    EXPECT_TRUE(d.queue_restart);
}

TEST(HnsControl, KickWithIdentityIs202AndCleansIt) {
    const auto d = decide_control(ControlRoute::Kick, "POST", params("identity=+bad+bot+"), ControlState{});
    EXPECT_EQ(d.status, 202);
    EXPECT_EQ(d.body, "kick queued\n");
    EXPECT_EQ(d.kick_identity, "bad_bot");
    EXPECT_FALSE(d.queue_restart);
}

TEST(HnsControl, KickWithoutIdentityIs400) {
    for (const char* q : {"", "identity=", "identity=%20%20"}) {
        const auto d = decide_control(ControlRoute::Kick, "POST", params(q), ControlState{});
        EXPECT_EQ(d.status, 400) << q;
        EXPECT_EQ(d.body, "missing identity\n");
        EXPECT_TRUE(d.kick_identity.empty());
    }
}

TEST(HnsControl, ReplayModeRefusesBothWith409BeforeAnyOtherCheck) {
    const ControlState replay{true};
    for (auto route : {ControlRoute::Restart, ControlRoute::Kick}) {
        const auto d = decide_control(route, "POST", params(""), replay);
        EXPECT_EQ(d.status, 409);
        EXPECT_EQ(d.body, "match controls are disabled for replays\n");
        EXPECT_FALSE(d.queue_restart);
        EXPECT_TRUE(d.kick_identity.empty());
    }
}

TEST(HnsControl, OptionsIs204) {  // its CORS headers depend on the request's Origin: hns_routes.cpp
    const auto d = decide_control(ControlRoute::Kick, "OPTIONS", params(""), ControlState{true});
    EXPECT_EQ(d.status, 204);
    EXPECT_EQ(d.body, "");
}

TEST(HnsControl, KickOfAnIdentityThatIsNotCleanTextIs400) {
    for (const char* q : {"identity=%FF", "identity=a%E2%80%AEb", "identity=a%C2%9Bb"}) {
        const auto d = decide_control(ControlRoute::Kick, "POST", params(q), ControlState{});
        EXPECT_EQ(d.status, 400) << q;
        EXPECT_EQ(d.body, "identity must be UTF-8 text without control or bidi characters\n");
        EXPECT_TRUE(d.kick_identity.empty());
    }
}

TEST(HnsControl, OtherMethodsFallThroughToTheCatchAll) {
    const auto d = decide_control(ControlRoute::Restart, "GET", params(""), ControlState{});
    EXPECT_EQ(d.status, 200);
    EXPECT_EQ(d.body, "HNS server");
    EXPECT_FALSE(d.queue_restart);
}

}  // namespace
}  // namespace hschool::server::hns
