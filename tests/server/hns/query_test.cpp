// Query strings are peer input: decoded like the reference's queryParams, refused (never thrown)
// when truncated, oversized or garbage.
#include <gtest/gtest.h>

#include <string>

#include "server/hns/contract/limits.hpp"
#include "server/hns/contract/query.hpp"

namespace hschool::server::hns {
namespace {

TEST(HnsQuery, DecodesPercentEscapesAndPlusInKeysAndValues) {
    const auto q = parse_query("name=Ada+L%C3%B6w&slot=%33&to%6Ben=a%2Bb");
    ASSERT_TRUE(q) << q.error;
    EXPECT_EQ(q->get("name"), "Ada L\xC3\xB6w");
    EXPECT_EQ(q->get("slot"), "3");
    EXPECT_EQ(q->get("token"), "a+b");
}

TEST(HnsQuery, MissingKeysReadEmptyAndKeyWithoutValueIsPresentButEmpty) {
    const auto q = parse_query("slot&&name=");
    ASSERT_TRUE(q) << q.error;
    EXPECT_TRUE(q->has("slot"));
    EXPECT_EQ(q->get("slot"), "");
    EXPECT_TRUE(q->has("name"));
    EXPECT_FALSE(q->has("token"));
    EXPECT_EQ(q->get("token"), "");
}

TEST(HnsQuery, FirstValueWinsForARepeatedKey) {
    const auto q = parse_query("slot=1&slot=2");
    ASSERT_TRUE(q);
    EXPECT_EQ(q->get("slot"), "1");
}

TEST(HnsQuery, EmptyQueryIsEmpty) {
    const auto q = parse_query("");
    ASSERT_TRUE(q);
    EXPECT_TRUE(q->items.empty());
}

TEST(HnsQuery, TruncatedPercentEscapeIsAnError) {
    EXPECT_FALSE(parse_query("name=abc%"));
    EXPECT_FALSE(parse_query("name=abc%4"));
    EXPECT_FALSE(parse_query("na%"));
}

TEST(HnsQuery, GarbageEscapesAndNulAreErrors) {
    EXPECT_FALSE(parse_query("name=%zz"));
    EXPECT_FALSE(parse_query("name=%g1"));
    EXPECT_FALSE(parse_query("name=a%00b"));
}

TEST(HnsQuery, OversizedQueryOrValueIsAnError) {
    EXPECT_FALSE(parse_query(std::string(kMaxQueryBytes + 1, 'a')));
    EXPECT_FALSE(parse_query("name=" + std::string(kMaxQueryValueBytes + 1, 'a')));
    EXPECT_TRUE(parse_query("name=" + std::string(kMaxQueryValueBytes, 'a')));
}

}  // namespace
}  // namespace hschool::server::hns
