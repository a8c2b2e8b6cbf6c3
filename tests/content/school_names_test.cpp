// Random school names: varied, within the name limit, never taken.
#include <set>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "content/school_names.hpp"
#include "content/text_rules.hpp"

namespace hschool::content {
namespace {

constexpr int kDraws = 1000;

void expect_varied_fresh_names(Lang lang, const std::set<std::string>& taken) {
    std::set<std::string> distinct;
    for (int seed = 0; seed < kDraws; ++seed) {
        const std::string name = random_school_name(lang, taken, static_cast<std::uint64_t>(seed));
        EXPECT_FALSE(name.empty());
        EXPECT_FALSE(taken.contains(name)) << name;
        EXPECT_LE(char_count(name), kMaxSchoolNameChars) << name;
        distinct.insert(name);
    }
    EXPECT_GE(distinct.size(), static_cast<std::size_t>(kDraws * 9 / 10));
}

TEST(SchoolNames, RussianDrawsAreVariedAndFresh) {
    expect_varied_fresh_names(Lang::Russian, {"Гимназия №14", "Лицей «Северная»", "Школа «Радуга»"});
}

TEST(SchoolNames, EnglishDrawsAreVariedAndFresh) {
    expect_varied_fresh_names(Lang::English, {"Northern Academy", "Riverside High School"});
}

TEST(SchoolNames, SameSeedSameName) {
    EXPECT_EQ(random_school_name(Lang::Russian, {}, 42), random_school_name(Lang::Russian, {}, 42));
}

TEST(SchoolNames, SpecExamplesAreAmongThePossibleNames) {
    const auto russian = all_school_names(Lang::Russian);
    const auto english = all_school_names(Lang::English);
    const std::set<std::string> ru(russian.begin(), russian.end());
    const std::set<std::string> en(english.begin(), english.end());
    for (const char* name : {"Лицей «Северная»", "Гимназия №14", "Школа «Радуга»", "Лицей №2 имени Ломоносова"}) {
        EXPECT_TRUE(ru.contains(name)) << name;
    }
    for (const char* name : {"Northern Academy", "Riverside High School", "St. Mary's Grammar School"}) {
        EXPECT_TRUE(en.contains(name)) << name;
    }
}

TEST(SchoolNames, ThousandsOfCombinationsPerLanguage) {
    for (Lang lang : {Lang::Russian, Lang::English}) {
        const auto names = all_school_names(lang);
        const std::set<std::string> distinct(names.begin(), names.end());
        EXPECT_GE(distinct.size(), 3000U);
        for (const std::string& name : distinct) EXPECT_LE(char_count(name), kMaxSchoolNameChars) << name;
    }
}

TEST(SchoolNames, StillFreshWhenEveryPatternNameIsTaken) {
    for (Lang lang : {Lang::Russian, Lang::English}) {
        const auto names = all_school_names(lang);
        std::set<std::string> taken(names.begin(), names.end());
        for (std::uint64_t seed = 0; seed < 5; ++seed) {
            const std::string name = random_school_name(lang, taken, seed);
            EXPECT_FALSE(name.empty());
            EXPECT_FALSE(taken.contains(name)) << name;
            EXPECT_LE(char_count(name), kMaxSchoolNameChars) << name;
            taken.insert(name);
        }
    }
}

TEST(SchoolNames, EnglishQueryPicksEnglish) {
    EXPECT_EQ(lang_from_query("en"), Lang::English);
    EXPECT_EQ(lang_from_query("ru"), Lang::Russian);
    EXPECT_EQ(lang_from_query("EN"), Lang::Russian);
    EXPECT_EQ(lang_from_query(""), Lang::Russian);
}

}  // namespace
}  // namespace hschool::content
