// The register JSON (spec §2.3) and the policy it selects, with our "mode":"manual"; garbage,
// truncated and oversized texts are refused as values.
#include <gtest/gtest.h>

#include <string>

#include "server/hns/contract/limits.hpp"
#include "server/hns/contract/registration.hpp"

namespace hschool::server::hns {
namespace {

using sim::hns::Baseline;

SeatPolicy policy_of(std::string_view text) {
    const auto r = parse_registration(text);
    EXPECT_TRUE(r) << r.error << " for " << text;
    return seat_policy(r ? &*r : nullptr);
}

TEST(HnsRegister, ReadsEveryField) {
    const auto r = parse_registration(
        R"({"type":"register","prompt":"be sneaky","policy":"p1","scripted":"scatter","mode":"external"})");
    ASSERT_TRUE(r) << r.error;
    EXPECT_EQ(r->prompt, "be sneaky");
    EXPECT_EQ(r->policy, "p1");
    EXPECT_EQ(r->scripted, "scatter");
    EXPECT_EQ(r->mode, "external");
}

TEST(HnsRegister, NullAndWrongTypedFieldsReadEmpty) {
    const auto r = parse_registration(R"({"type":"register","scripted":null,"prompt":7,"policy":["x"],"mode":true})");
    ASSERT_TRUE(r) << r.error;
    EXPECT_EQ(r->scripted, "");
    EXPECT_EQ(r->prompt, "");
    EXPECT_EQ(r->policy, "");
    EXPECT_EQ(r->mode, "");
}

TEST(HnsRegister, TextNotStartingWithBraceIsNotARegistration) {
    EXPECT_EQ(parse_registration(R"( {"type":"register"})").error, kNotRegisterPrefix);
    EXPECT_EQ(parse_registration("hello").error, kNotRegisterPrefix);
    EXPECT_EQ(parse_registration("").error, kNotRegisterPrefix);
}

TEST(HnsRegister, GarbageAndTruncatedJsonAreRefused) {
    EXPECT_EQ(parse_registration(R"({"type":"register")").error, kRegisterBadJson);
    EXPECT_EQ(parse_registration("{{{{").error, kRegisterBadJson);
    EXPECT_EQ(parse_registration("{\"type\":\"register\"}trailing").error, kRegisterBadJson);
}

TEST(HnsRegister, OtherTypesAreRefused) {
    EXPECT_EQ(parse_registration(R"({"type":"chat"})").error, kRegisterWrongType);
    EXPECT_EQ(parse_registration(R"({"mode":"external"})").error, kRegisterWrongType);
    EXPECT_EQ(parse_registration(R"({"type":"REGISTER"})").error, kRegisterWrongType);
}

TEST(HnsRegister, OversizedTextIsRefused) {
    std::string text = R"({"type":"register","policy":")" + std::string(kMaxInputTextBytes, 'a') + "\"}";
    EXPECT_EQ(parse_registration(text).error, kRegisterTooLong);
}

TEST(HnsPolicy, NoRegistrationIsScriptedBurrow) {
    const auto p = seat_policy(nullptr);
    EXPECT_EQ(p.kind, PolicyKind::Scripted);
    EXPECT_EQ(p.baseline, Baseline::Burrow);
    EXPECT_EQ(p.label, "burrow");
    EXPECT_FALSE(p.fallback_record);
}

TEST(HnsPolicy, ScriptedBaselinesAndUnknownScriptedIsBurrow) {
    auto p = policy_of(R"({"type":"register","scripted":"scatter"})");
    EXPECT_EQ(p.kind, PolicyKind::Scripted);
    EXPECT_EQ(p.baseline, Baseline::Scatter);
    EXPECT_EQ(p.label, "scatter");
    p = policy_of(R"({"type":"register","scripted":"burrow"})");
    EXPECT_EQ(p.baseline, Baseline::Burrow);
    EXPECT_EQ(p.label, "burrow");
    EXPECT_FALSE(p.teacher);
    // Issue 41: the bridge's teacher, burrow played through the order catalog.
    p = policy_of(R"({"type":"register","scripted":"teacher"})");
    EXPECT_EQ(p.kind, PolicyKind::Scripted);
    EXPECT_TRUE(p.teacher);
    EXPECT_EQ(p.baseline, Baseline::Burrow);
    EXPECT_EQ(p.label, "teacher");
    p = policy_of(R"({"type":"register","scripted":"tunnel"})");
    EXPECT_EQ(p.kind, PolicyKind::Scripted);
    EXPECT_EQ(p.baseline, Baseline::Burrow);
}

TEST(HnsPolicy, ExternalModeWinsOverAPrompt) {
    const auto p = policy_of(R"({"type":"register","mode":"external","prompt":"x"})");
    EXPECT_EQ(p.kind, PolicyKind::External);
    EXPECT_EQ(p.label, "external");
    EXPECT_STREQ(policy_kind_text(p.kind), "external");
}

TEST(HnsPolicy, PromptPlaysBurrowWithAFallbackRecord) {
    const auto p = policy_of(R"({"type":"register","prompt":"hide well","scripted":"scatter"})");
    EXPECT_EQ(p.kind, PolicyKind::Prompt);
    EXPECT_EQ(p.baseline, Baseline::Burrow);
    EXPECT_TRUE(p.fallback_record);
    EXPECT_EQ(p.label, "prompt");
    EXPECT_STREQ(policy_kind_text(p.kind), "llm");
}

TEST(HnsPolicy, ManualModeIsOurs) {
    const auto p = policy_of(R"({"type":"register","mode":"manual","prompt":"x"})");
    EXPECT_EQ(p.kind, PolicyKind::Manual);
    EXPECT_EQ(p.label, "manual");
    EXPECT_FALSE(p.fallback_record);
    EXPECT_STREQ(policy_kind_text(p.kind), "manual");
}

TEST(HnsPolicy, PolicyLabelWinsWhenSet) {
    EXPECT_EQ(policy_of(R"({"type":"register","mode":"external","policy":"t"})").label, "t");
    EXPECT_EQ(policy_of(R"({"type":"register","policy":"mine"})").label, "mine");
}

TEST(HnsSeatRegistration, OnlyTheFirstRegistrationWritesTheRecordAndLaterOnesOverwrite) {
    SeatRegistration seat;
    EXPECT_EQ(seat.current(), nullptr);
    EXPECT_EQ(seat.policy().kind, PolicyKind::Scripted);
    EXPECT_TRUE(seat.apply(*parse_registration(R"({"type":"register","mode":"external"})")));
    EXPECT_EQ(seat.policy().kind, PolicyKind::External);
    EXPECT_FALSE(seat.apply(*parse_registration(R"({"type":"register","scripted":"scatter"})")));
    EXPECT_EQ(seat.policy().kind, PolicyKind::Scripted);
    EXPECT_EQ(seat.policy().baseline, Baseline::Scatter);
}

TEST(HnsSeatRegistration, AppliesOnlyToSeatedIndices0To5) {
    EXPECT_FALSE(registration_applies(-1));
    EXPECT_TRUE(registration_applies(0));
    EXPECT_TRUE(registration_applies(5));
    EXPECT_FALSE(registration_applies(6));
    EXPECT_FALSE(registration_applies(0x7fffffff));
}

}  // namespace
}  // namespace hschool::server::hns
