// The one clean-text rule shared by school names, map node names and pack texts.
#include <gtest/gtest.h>

#include "content/text_rules.hpp"

namespace hschool::content {
namespace {

TEST(CleanText, RefusesEveryC0AndC1ControlAndDelete) {
    EXPECT_FALSE(is_clean_text(std::string_view("a\0b", 3)));
    EXPECT_FALSE(is_clean_text("a\x1F" "b"));
    EXPECT_FALSE(is_clean_text("a\x7F" "b"));
    EXPECT_FALSE(is_clean_text("a\xC2\x80" "b"));  // U+0080
    EXPECT_FALSE(is_clean_text("a\xC2\x85" "b"));  // U+0085 NEL
    EXPECT_FALSE(is_clean_text("a\xC2\x9F" "b"));  // U+009F
    EXPECT_TRUE(is_clean_text("a\xC2\xA0" "b"));   // U+00A0, the first printable after C1
    EXPECT_TRUE(is_clean_text("a b"));
}

TEST(CleanText, RefusesBidiEmbeddingsOverridesAndIsolates) {
    for (const char* bidi : {"\xE2\x80\xAA", "\xE2\x80\xAB", "\xE2\x80\xAC", "\xE2\x80\xAD", "\xE2\x80\xAE",  // U+202A..E
                             "\xE2\x81\xA6", "\xE2\x81\xA7", "\xE2\x81\xA8", "\xE2\x81\xA9"}) {              // U+2066..9
        EXPECT_FALSE(is_clean_text(std::string("x") + bidi + "y")) << bidi;
    }
    EXPECT_TRUE(is_clean_text("\xE2\x80\xA9"));  // U+2029 is a separator, below the embeddings: not this rule's business
    EXPECT_TRUE(is_clean_text("\xE2\x81\xAA"));  // U+206A, just past the isolates
    EXPECT_TRUE(is_clean_text("\xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D"));  // Hebrew letters are text, not controls
}

TEST(CleanText, RefusesMalformedUtf8) {
    EXPECT_FALSE(is_clean_text("\xC3\x28"));
    EXPECT_FALSE(is_clean_text("\xFF"));
    EXPECT_FALSE(is_clean_text("\xE2\x80"));  // truncated
    EXPECT_FALSE(is_clean_text("\xC0\xAF"));  // overlong '/'
    EXPECT_TRUE(is_clean_text("Лицей №1"));
}

}  // namespace
}  // namespace hschool::content
