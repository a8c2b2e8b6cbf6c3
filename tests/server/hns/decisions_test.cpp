// Decision turns (spec §2.4, conformance §6.9–6.10): when they run, who gets them, the exact frame
// text, the reply prefix rules, the 16 s deadline and the fallback rule.
#include <gtest/gtest.h>

#include <string>

#include "order_context.hpp"
#include "server/hns/contract/decisions.hpp"

namespace hschool::server::hns {
namespace {

using sim::hns::GamePhase;
using sim::hns::Intent;
using sim::hns::Order;

sim::hns::OrderContext context() { return three_object_context("A"); }

Order burrow_order() {
    Order o;
    o.intent = Intent::Hide;
    o.at = "A";
    return o;
}

TEST(HnsDecisions, DeadlineIs16Seconds) { EXPECT_EQ(kDecisionDeadlineMs, 16000); }

TEST(HnsDecisions, TurnsRunOnlyWhilePlayingOnTurnBoundaries) {
    EXPECT_EQ(decision_turn(GamePhase::Playing, 0, 90), 0);
    EXPECT_EQ(decision_turn(GamePhase::Playing, 360, 90), 4);
    EXPECT_EQ(decision_turn(GamePhase::Playing, 990, 90), 11);
    EXPECT_FALSE(decision_turn(GamePhase::Playing, 91, 90));
    EXPECT_FALSE(decision_turn(GamePhase::Lobby, 0, 90));
    EXPECT_FALSE(decision_turn(GamePhase::GameOver, 90, 90));
    EXPECT_FALSE(decision_turn(GamePhase::Playing, -90, 90));
    EXPECT_FALSE(decision_turn(GamePhase::Playing, 0, 0));
}

TEST(HnsDecisions, RecipientsAreLiveExternalSeatsOnly) {
    std::vector<SeatTurnInfo> seats(6, SeatTurnInfo{PolicyKind::External, false});
    for (int s : {1, 3, 5}) seats[static_cast<std::size_t>(s)].frozen_seeker = true;  // prep
    EXPECT_EQ(decision_recipients(seats), (std::vector<int>{0, 2, 4}));
    seats[2].kind = PolicyKind::Scripted;
    seats[4].kind = PolicyKind::Manual;
    seats[1].frozen_seeker = false;
    EXPECT_EQ(decision_recipients(seats), (std::vector<int>{0, 1}));
}

TEST(HnsDecisions, FrameTextIsExact) {
    EXPECT_EQ(decision_frame(0, 2, kDecisionDeadlineMs, R"({"you":"HIDER-beta","game":1})"),
              R"({"type":"decision","turn":0,"seat":2,"deadline_ms":16000,"observation":{"you":"HIDER-beta","game":1}})");
}

TEST(HnsDecisions, ReplyPrefixIsGameAndTurn) { EXPECT_EQ(reply_prefix(1, 0), "orders:1:0:"); }

TEST(HnsReply, AnUnknownObjectIsRejectedAndTheSeatKeepsItsStandingOrder) {
    const auto reply = parse_reply(R"(orders:1:0:{"intent":"lock","object":"nope"})", 1, 0, context());
    ASSERT_EQ(reply.status, ReplyStatus::Parsed);
    EXPECT_TRUE(reply.order.rejected);
    Order standing;
    standing.intent = Intent::Watch;
    const auto out = resolve_external_turn(&reply, &standing, burrow_order());
    EXPECT_TRUE(out.rejected);
    EXPECT_EQ(out.result, "unknown_object");
    EXPECT_EQ(out.order.intent, Intent::Watch);
    EXPECT_EQ(out.source, OrderSource::External);
    EXPECT_TRUE(out.fallback_cause.empty());
}

TEST(HnsReply, ARejectedOrderWithNoStandingOrderPlaysBurrowButKeepsSay) {
    const auto reply = parse_reply(R"(orders:1:0:{"intent":"lock","object":"nope","say":"hi"})", 1, 0, context());
    const auto out = resolve_external_turn(&reply, nullptr, burrow_order());
    EXPECT_TRUE(out.rejected);
    EXPECT_EQ(out.order.intent, Intent::Hide);
    EXPECT_EQ(out.order.say, "hi");
}

TEST(HnsReply, AUsableOrderReplacesTheStandingOne) {
    const auto reply = parse_reply(R"(orders:2:7:sure! {"intent":"lock","object":"box1"} ok)", 2, 7, context());
    ASSERT_EQ(reply.status, ReplyStatus::Parsed);
    const auto out = resolve_external_turn(&reply, nullptr, burrow_order());
    EXPECT_FALSE(out.rejected);
    EXPECT_EQ(out.order.intent, Intent::Lock);
    EXPECT_EQ(out.order.obj, "box1");
    EXPECT_STREQ(order_source_text(out.source), "external");
}

TEST(HnsReply, StaleTurnOtherGameAndOtherTextAreIgnored) {
    const auto ctx = context();
    EXPECT_EQ(parse_reply(R"(orders:1:0:{"intent":"hide"})", 1, 1, ctx).status, ReplyStatus::Ignored);
    EXPECT_EQ(parse_reply(R"(orders:2:1:{"intent":"hide"})", 1, 1, ctx).status, ReplyStatus::Ignored);
    EXPECT_EQ(parse_reply(R"(orders:1:10:{"intent":"hide"})", 1, 1, ctx).status, ReplyStatus::Ignored);
    EXPECT_EQ(parse_reply(R"({"type":"register"})", 1, 1, ctx).status, ReplyStatus::Ignored);
    EXPECT_EQ(parse_reply("orders:1:", 1, 1, ctx).status, ReplyStatus::Ignored);  // truncated prefix
    EXPECT_EQ(parse_reply("", 1, 1, ctx).status, ReplyStatus::Ignored);
}

TEST(HnsReply, OversizedPayloadCountsAsNoReply) {
    const std::string text = "orders:1:0:{\"say\":\"" + std::string(4096, 'a') + "\"}";
    const auto reply = parse_reply(text, 1, 0, context());
    EXPECT_EQ(reply.status, ReplyStatus::TooLong);
    const auto out = resolve_external_turn(&reply, nullptr, burrow_order());
    EXPECT_EQ(out.source, OrderSource::Fallback);
    EXPECT_EQ(out.fallback_cause, "timeout");
}

TEST(HnsReply, GarbageOrTruncatedJsonIsAParseErrorFallback) {
    for (const char* text : {"orders:1:0:no json here", "orders:1:0:{\"intent\":\"hide\"", "orders:1:0:[1,2]",
                             "orders:1:0:{bad}"}) {
        const auto reply = parse_reply(text, 1, 0, context());
        EXPECT_EQ(reply.status, ReplyStatus::NoJson) << text;
        const auto out = resolve_external_turn(&reply, nullptr, burrow_order());
        EXPECT_EQ(out.source, OrderSource::Fallback);
        EXPECT_EQ(out.fallback_cause, "parse_error");
        EXPECT_EQ(out.order.intent, Intent::Hide);
    }
}

TEST(HnsReply, EmptyPayloadIsATimeoutFallback) {
    const auto reply = parse_reply("orders:1:0:  ", 1, 0, context());
    EXPECT_EQ(reply.status, ReplyStatus::Empty);
    EXPECT_EQ(resolve_external_turn(&reply, nullptr, burrow_order()).fallback_cause, "timeout");
}

TEST(HnsReply, NoReplyInTimeFallsBackToBurrowWithTimeout) {
    Order standing;
    standing.intent = Intent::Chase;
    const auto out = resolve_external_turn(nullptr, &standing, burrow_order());
    EXPECT_EQ(out.order.intent, Intent::Hide);  // burrow, not the standing order
    EXPECT_EQ(out.source, OrderSource::Fallback);
    EXPECT_STREQ(order_source_text(out.source), "fallback");
    EXPECT_EQ(out.fallback_cause, "timeout");
    EXPECT_FALSE(out.rejected);
}

TEST(HnsReply, DeadlineIsDispatchPlus16sExclusive) {
    EXPECT_TRUE(reply_in_time(1000, 1000 + 15999));
    EXPECT_FALSE(reply_in_time(1000, 1000 + 16000));
    EXPECT_FALSE(turn_settled(false, 1000, 1000 + 15999));
    EXPECT_TRUE(turn_settled(false, 1000, 1000 + 16000));
    EXPECT_TRUE(turn_settled(true, 1000, 1000));
    EXPECT_TRUE(reply_in_time(0, 4999, 5000));  // a config's turnBudgetMs
}

TEST(HnsReply, PromptSeatsPlayBurrowWithAFallbackRecord) {
    const auto out = resolve_prompt_turn(burrow_order());
    EXPECT_EQ(out.order.intent, Intent::Hide);
    EXPECT_EQ(out.source, OrderSource::Fallback);
    EXPECT_EQ(out.fallback_cause, "no_credentials");
}

}  // namespace
}  // namespace hschool::server::hns
