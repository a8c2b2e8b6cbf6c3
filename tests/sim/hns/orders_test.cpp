// The order schema (§3.15): tolerant parsing, field repair, unknown_object rejection, and the
// no-intent reply that keeps the standing order.
#include <gtest/gtest.h>

#include "sim/hns/orders.hpp"

namespace hns = hschool::sim::hns;

namespace {

hns::OrderContext ctx() {
    hns::OrderContext c;
    c.objectIds = {"box1", "pan1", "ramp1"};
    c.rampIds = {"ramp1"};
    c.anchorIds = {"p1", "d1", "r2"};
    return c;
}

hns::ParsedOrder parse(const char* text) {
    auto p = hns::parse_order(text, ctx());
    EXPECT_TRUE(p) << p.error;
    return p ? *p : hns::ParsedOrder{};
}

}  // namespace

TEST(HnsOrders, IntentIsTolerantAndUnknownBecomesWatch) {
    EXPECT_EQ(parse(R"({"intent":"Move-To","to":[10,20]})").order.intent, hns::Intent::MoveTo);
    EXPECT_EQ(parse(R"({"intent":"move to","to":[10,20]})").order.intent, hns::Intent::MoveTo);
    EXPECT_EQ(parse(R"({"intent":"dance"})").order.intent, hns::Intent::Watch);
    EXPECT_TRUE(parse(R"({"intent":"dance"})").order.fromReply);
}

TEST(HnsOrders, UnknownOrIllegalObjectRejects) {
    EXPECT_TRUE(parse(R"({"intent":"lock","object":"nope"})").rejected);
    EXPECT_TRUE(parse(R"({"intent":"push"})").rejected);
    EXPECT_TRUE(parse(R"({"intent":"vault","object":"box1"})").rejected);
    EXPECT_FALSE(parse(R"({"intent":"vault","object":"ramp1"})").rejected);
    EXPECT_FALSE(parse(R"({"intent":"lock","object":"box1"})").rejected);
    EXPECT_FALSE(parse(R"({"intent":"move_to","object":"nope"})").rejected);
}

TEST(HnsOrders, PointsAreTruncatedAndClamped) {
    auto o = parse(R"({"intent":"move_to","to":[10.9,"20.5"],"face":{"x":-5,"y":9999}})").order;
    EXPECT_TRUE(o.hasTo);
    EXPECT_EQ(o.toX, 10);
    EXPECT_EQ(o.toY, 20);
    EXPECT_TRUE(o.hasFace);
    EXPECT_EQ(o.faceX, 0);
    EXPECT_EQ(o.faceY, 399);
    EXPECT_FALSE(parse(R"({"intent":"move_to","to":["x",1]})").order.hasTo);
    EXPECT_FALSE(parse(R"({"intent":"move_to","to":[1e300,1]})").order.hasTo);
}

TEST(HnsOrders, AtMustBeAPublishedIdAndIsCutToFourRunes) {
    EXPECT_EQ(parse(R"({"intent":"hide","at":"p1"})").order.at, "p1");
    EXPECT_EQ(parse(R"({"intent":"hide","at":"zz"})").order.at, "");
    EXPECT_EQ(parse(R"({"intent":"hide","at":"r2xxxx"})").order.at, "");
}

TEST(HnsOrders, TextChannelsAreSanitised) {
    auto o = parse(R"({"intent":"watch","say":"  {hi} there friend","radio":"a\nb","notes":"x"})").order;
    EXPECT_EQ(o.say, "hi the");  // cut to 10 runes first, then braces dropped and trimmed
    EXPECT_EQ(o.radio, "a b");
    EXPECT_EQ(hns::sanitize_say("h\xc3\xa9llo world"), "hllo worl");
    EXPECT_EQ(hns::truncate_runes("h\xc3\xa9llo", 2), "h\xc3\xa9");
}

TEST(HnsOrders, NoIntentIsUsableAndKeepsTheStandingOrder) {
    auto p = parse(R"({"say":"over here"})");
    EXPECT_FALSE(p.order.fromReply);
    EXPECT_FALSE(p.rejected);
    EXPECT_EQ(p.order.say, "over here");
}

TEST(HnsOrders, ExtractionAndHostileText) {
    auto e = hns::extract_json_object("sure! ```json\n{\"intent\":\"hide\",\"say\":\"}{\"}\n``` done");
    ASSERT_TRUE(e) << e.error;
    EXPECT_EQ(*e, "{\"intent\":\"hide\",\"say\":\"}{\"}");
    EXPECT_FALSE(hns::extract_json_object("no json here"));
    EXPECT_FALSE(hns::extract_json_object(std::string(5000, '{')));
    EXPECT_FALSE(hns::parse_order("[1,2]", ctx()));
    EXPECT_FALSE(hns::parse_order("{", ctx()));
    EXPECT_FALSE(hns::parse_order(std::string(5000, ' '), ctx()));
}

TEST(HnsOrders, RejectedOrSilentRepliesKeepTheStandingOrder) {
    hns::Order standing;
    standing.intent = hns::Intent::Hide;
    standing.at = "p1";
    hns::Order burrow;
    burrow.intent = hns::Intent::Push;
    bool rejected = false;
    // A usable order replaces the standing one.
    auto next = hns::resolve_reply(&standing, parse(R"({"intent":"watch"})"), burrow, rejected);
    EXPECT_EQ(next.intent, hns::Intent::Watch);
    EXPECT_FALSE(rejected);
    // unknown_object: keep the standing order, deliver the say, count the rejection.
    next = hns::resolve_reply(&standing, parse(R"({"intent":"lock","object":"nope","say":"hey"})"), burrow, rejected);
    EXPECT_TRUE(rejected);
    EXPECT_EQ(next.intent, hns::Intent::Hide);
    EXPECT_EQ(next.at, "p1");
    EXPECT_EQ(next.say, "hey");
    // No intent and no standing order: burrow's order, with the radio line.
    next = hns::resolve_reply(nullptr, parse(R"({"radio":"go left"})"), burrow, rejected);
    EXPECT_FALSE(rejected);
    EXPECT_EQ(next.intent, hns::Intent::Push);
    EXPECT_EQ(next.radio, "go left");
}
