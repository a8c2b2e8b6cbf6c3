// A model's answer for a prompt seat (issue 21): the Messages API body, its failures and their
// causes, the order inside the text, and the detail that goes into the replay, under hostile
// input (truncated, huge, nested, invalid UTF-8).
#include <gtest/gtest.h>

#include <string>

#include "order_context.hpp"
#include "server/hns/llm/llm_reply.hpp"

namespace hschool::server::hns {
namespace {

using sim::hns::Intent;

sim::hns::OrderContext context() { return three_object_context("p1"); }

HttpAnswer ok_body(std::string body) { return HttpAnswer{200, std::move(body), false, {}}; }

std::string messages_body(const std::string& text_json, const char* stop_reason = "end_turn") {
    return R"({"id":"m","type":"message","role":"assistant","content":[{"type":"text","text":)" + text_json +
           R"(}],"stop_reason":")" + stop_reason + R"("})";
}

bool valid_utf8(const std::string& s) {
    // safe_detail of valid UTF-8 is the identity on its code points: a second pass changes nothing.
    return safe_detail(s, 1 << 20) == s;
}

TEST(HnsLlmReply, TheTextBlocksOfAMessagesAnswerAreTheReply) {
    const auto text = read_llm_answer(ok_body(
        R"({"content":[{"type":"text","text":"{\"intent\":"},{"type":"tool_use","id":"x"},{"type":"text","text":"\"hide\"}"}],"stop_reason":"end_turn"})"));
    ASSERT_TRUE(text.ok);
    EXPECT_EQ(text.text, R"({"intent":"hide"})");
}

TEST(HnsLlmReply, FencedAndWrappedRepliesGiveTheirOrder) {
    for (const std::string& reply : {std::string("```json\n{\"intent\":\"lock\",\"object\":\"box1\"}\n```"),
                                    std::string("Sure! Here is my order: {\"intent\":\"lock\",\"object\":\"box1\"} Good luck."),
                                    std::string("{not json} then {\"intent\":\"lock\",\"object\":\"box1\"}")}) {
        auto order = read_llm_order(reply, context());
        ASSERT_TRUE(order) << reply << ": " << order.error;
        EXPECT_EQ(order->order.intent, Intent::Lock);
        EXPECT_EQ(order->order.obj, "box1");
    }
}

TEST(HnsLlmReply, SayRadioAndNotesAreBoundedAsForExternalOrders) {
    auto order = read_llm_order(R"({"intent":"hide","at":"p1","say":"hello there everyone","radio":"a\nb","notes":"n"})", context());
    ASSERT_TRUE(order);
    EXPECT_EQ(order->order.say, "hello ther");
    EXPECT_EQ(order->order.radio, "a b");
    EXPECT_EQ(order->order.notes, "n");
    EXPECT_EQ(order->order.at, "p1");
}

TEST(HnsLlmReply, AnUnknownObjectIsARejectedOrderNotAFallback) {
    auto order = read_llm_order(R"({"intent":"lock","object":"nope"})", context());
    ASSERT_TRUE(order);
    EXPECT_TRUE(order->rejected);
}

TEST(HnsLlmReply, ProseWithoutJsonIsAParseErrorQuotingTheReply) {
    const auto text = read_llm_answer(ok_body(messages_body(R"("I think I will hide behind the crate.")")));
    ASSERT_TRUE(text.ok);
    auto order = read_llm_order(text.text, context());
    ASSERT_FALSE(order);
    EXPECT_EQ(order.error, "no JSON object in reply: I think I will hide behind the crate.");
}

TEST(HnsLlmReply, ARefusalIsAFallback) {
    const auto text = read_llm_answer(ok_body(messages_body(R"("")", "refusal")));
    EXPECT_FALSE(text.ok);
    EXPECT_EQ(text.cause, "parse_error");
    EXPECT_EQ(text.detail, "llm refusal");
}

TEST(HnsLlmReply, AReplyCutAtMaxTokensBeforeAnyJsonIsAFallback) {
    const auto cut = read_llm_answer(ok_body(messages_body(R"("Let me think about the room layout first, the")", "max_tokens")));
    EXPECT_FALSE(cut.ok);
    EXPECT_EQ(cut.cause, "parse_error");
    EXPECT_EQ(cut.detail.rfind("reply cut off at max_tokens before any JSON: Let me think", 0), 0U) << cut.detail;
    // Cut after the object began: the text is kept (the extraction decides).
    const auto late = read_llm_answer(ok_body(messages_body(R"("{\"intent\":\"hide\"} and then")", "max_tokens")));
    EXPECT_TRUE(late.ok);
}

TEST(HnsLlmReply, HttpErrorsTimeoutsAndTransportFailuresHaveTheirCauses) {
    const auto e500 = read_llm_answer(HttpAnswer{500, R"({"error":"overloaded"})", false, {}});
    EXPECT_FALSE(e500.ok);
    EXPECT_EQ(e500.cause, "parse_error");
    EXPECT_EQ(e500.detail, R"(llm error 500: {"error":"overloaded"})");
    const auto slow = read_llm_answer(HttpAnswer{0, {}, true, {}});
    EXPECT_EQ(slow.cause, "timeout");
    const auto refused = read_llm_answer(HttpAnswer{0, {}, false, "Couldn't connect to server"});
    EXPECT_EQ(refused.cause, "transport_error");
    EXPECT_EQ(refused.detail, "llm transport: Couldn't connect to server");
    const auto garbage = read_llm_answer(ok_body("<html>gateway</html>"));
    EXPECT_EQ(garbage.cause, "parse_error");
    EXPECT_EQ(garbage.detail, "llm answer is not a JSON object: <html>gateway</html>");
}

TEST(HnsLlmReply, AuthFailuresDisableAndThrottlingIsMarked) {
    const auto denied = read_llm_answer(HttpAnswer{401, R"({"error":"invalid x-api-key"})", false, {}});
    EXPECT_TRUE(denied.auth_failed);
    EXPECT_FALSE(denied.model_denied);
    EXPECT_EQ(denied.cause, "parse_error");
    const auto model = read_llm_answer(HttpAnswer{403, R"({"message":"Model access is denied for x"})", false, {}});
    EXPECT_TRUE(model.auth_failed);
    EXPECT_TRUE(model.model_denied);
    const auto busy = read_llm_answer(HttpAnswer{429, "slow down", false, {}});
    EXPECT_TRUE(busy.throttled);
    EXPECT_EQ(busy.cause, "throttled");
    EXPECT_EQ(busy.detail, "llm throttled (429): slow down");
}

TEST(HnsLlmReply, HostileBodiesNeverBreakTheReader) {
    // Truncated at every byte: a failure or a text, never a crash.
    const std::string whole = messages_body(R"("{\"intent\":\"hide\",\"at\":\"p1\"}")");
    for (std::size_t n = 0; n < whole.size(); ++n) {
        const auto text = read_llm_answer(ok_body(whole.substr(0, n)));
        if (text.ok) (void)read_llm_order(text.text, context());
        else EXPECT_TRUE(valid_utf8(text.detail));
    }
    // Nested 100,000 deep: Boost.JSON's depth limit refuses it.
    const auto deep = read_llm_answer(ok_body(std::string(100000, '[') + std::string(100000, ']')));
    EXPECT_FALSE(deep.ok);
    auto deep_order = read_llm_order(std::string(50000, '{') + std::string(50000, '}'), context());
    EXPECT_FALSE(deep_order);
    // Wrong shapes.
    EXPECT_TRUE(read_llm_answer(ok_body(R"({"content":"text"})")).ok);  // no text blocks: "" (then no JSON)
    auto empty = read_llm_order("", context());
    ASSERT_FALSE(empty);
    EXPECT_EQ(empty.error, "no JSON object in reply:");  // found by fuzz_hns_llm_reply: no trailing space
    EXPECT_TRUE(read_llm_answer(ok_body(R"({"content":[1,null,{"type":"text","text":7}]})")).ok);
    EXPECT_FALSE(read_llm_answer(ok_body("[]")).ok);
}

TEST(HnsLlmReply, AHugeReplyIsReadOnlyToItsCap) {
    // The order sits past 4096 bytes of prose: it is not read.
    const std::string far = std::string(5000, 'x') + R"({"intent":"hide"})";
    EXPECT_FALSE(read_llm_order(far, context()));
    const std::string near = R"({"intent":"hide"})" + std::string(100000, 'x');
    EXPECT_TRUE(read_llm_order(near, context()));
    // A cut inside a multi-byte character never leaves half of it in the quote.
    const std::string euros = std::string(4095, 'a') + "\xE2\x82\xAC";
    auto failed = read_llm_order(euros, context());
    ASSERT_FALSE(failed);
    EXPECT_TRUE(valid_utf8(failed.error));
}

TEST(HnsLlmReply, DetailsAreBoundedOneLineAndValidUtf8) {
    EXPECT_EQ(safe_detail("a\nb\tc\x7F"), "a b c");
    EXPECT_EQ(safe_detail("\xFF\xFEok"), "\xEF\xBF\xBD\xEF\xBF\xBDok");
    EXPECT_EQ(safe_detail("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");             // overlong '/'
    EXPECT_EQ(safe_detail("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
    EXPECT_EQ(safe_detail("\xE2\x82"), "\xEF\xBF\xBD\xEF\xBF\xBD");             // truncated
    EXPECT_EQ(safe_detail("caf\xC3\xA9", 4), "caf\xC3\xA9");
    EXPECT_EQ(safe_detail("caf\xC3\xA9", 3), "caf");
    const auto long_body = read_llm_answer(HttpAnswer{502, std::string(100000, '\xE9'), false, {}});
    EXPECT_TRUE(valid_utf8(long_body.detail));
    int runes = 0;
    for (unsigned char c : long_body.detail) runes += (c & 0xC0) != 0x80;
    EXPECT_EQ(runes, kMaxFallbackDetailRunes);
}

}  // namespace
}  // namespace hschool::server::hns
