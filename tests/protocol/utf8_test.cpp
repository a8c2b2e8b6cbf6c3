#include <gtest/gtest.h>

#include "protocol/utf8.hpp"

namespace hschool {
namespace {

using protocol::is_valid_utf8;

TEST(Utf8, AcceptsWellFormedText) {
    EXPECT_TRUE(is_valid_utf8(""));
    EXPECT_TRUE(is_valid_utf8("plain ascii"));
    EXPECT_TRUE(is_valid_utf8("Лицей «Северная»"));
    EXPECT_TRUE(is_valid_utf8("\xF0\x9F\x98\x80"));      // U+1F600
    EXPECT_TRUE(is_valid_utf8("\xF4\x8F\xBF\xBF"));      // U+10FFFF, the last code point
}

TEST(Utf8, RejectsMalformedText) {
    EXPECT_FALSE(is_valid_utf8("\x80"));                 // lone continuation byte
    EXPECT_FALSE(is_valid_utf8("\xC3"));                 // lead byte at the end
    EXPECT_FALSE(is_valid_utf8("\xC3\x28"));             // bad continuation
    EXPECT_FALSE(is_valid_utf8("\xC0\xAF"));             // overlong '/'
    EXPECT_FALSE(is_valid_utf8("\xE0\x80\xAF"));         // overlong, three bytes
    EXPECT_FALSE(is_valid_utf8("\xED\xA0\x80"));         // UTF-16 surrogate
    EXPECT_FALSE(is_valid_utf8("\xF4\x90\x80\x80"));     // past U+10FFFF
    EXPECT_FALSE(is_valid_utf8("\xFF"));                 // never valid
    EXPECT_FALSE(is_valid_utf8("ok\xF0\x9F\x98"));       // truncated four-byte sequence
}

}  // namespace
}  // namespace hschool
