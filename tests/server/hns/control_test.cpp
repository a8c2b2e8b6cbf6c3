// POST /control/restart and /control/kick answers (spec §2.1): exact status and body texts.
#include <gtest/gtest.h>

#include <initializer_list>

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

// A kick with each query is refused with 400 and `body`, and nobody is kicked.
void expect_kick_refused(std::initializer_list<const char*> queries, const char* body) {
    for (const char* q : queries) {
        const auto d = decide_control(ControlRoute::Kick, "POST", params(q), ControlState{});
        EXPECT_EQ(d.status, 400) << q;
        EXPECT_EQ(d.body, body);
        EXPECT_TRUE(d.kick_identity.empty());
    }
}

TEST(HnsControl, KickWithoutIdentityIs400) { expect_kick_refused({"", "identity=", "identity=%20%20"}, "missing identity\n"); }

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
    expect_kick_refused({"identity=%FF", "identity=a%E2%80%AEb", "identity=a%C2%9Bb"},
                        "identity must be UTF-8 text without control or bidi characters\n");
}

TEST(HnsControl, OtherMethodsFallThroughToTheCatchAll) {
    const auto d = decide_control(ControlRoute::Restart, "GET", params(""), ControlState{});
    EXPECT_EQ(d.status, 200);
    EXPECT_EQ(d.body, "HNS server");
    EXPECT_FALSE(d.queue_restart);
}

}  // namespace
}  // namespace hschool::server::hns
