// The events file (COGAME_EVENTS_URI): JSON lines re-derived from a replay, ending with the
// mandatory summary row; a file that is not a replay is an error, never a crash.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <algorithm>
#include <map>
#include <sstream>

#include "../../sim/hns/hns_test_support.hpp"
#include "server/hns/contract/episode_events.hpp"
#include "sim/hns/replay.hpp"

namespace hschool::server::hns {
namespace {

std::vector<boost::json::object> rows_of(const std::string& text) {
    std::vector<boost::json::object> rows;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) rows.push_back(boost::json::parse(line).as_object());
    return rows;
}

TEST(HnsEpisodeEvents, AWholeEpisodeHasItsPhasesTurnsAndASummary) {
    const std::string replay = hns_test::read_file(hns_test::vector_dir() + "/cert_formula.cowldhns");
    auto text = episode_events_jsonl(replay);
    ASSERT_TRUE(text) << text.error;
    ASSERT_FALSE(text->empty());
    EXPECT_EQ(text->back(), '\n');
    const auto rows = rows_of(*text);
    ASSERT_GE(rows.size(), 2U);
    const auto& summary = rows.back();
    EXPECT_EQ(summary.at("type").as_string(), "summary");
    EXPECT_EQ(summary.at("gameVersion").as_string(), "1");
    EXPECT_EQ(summary.at("events").to_number<std::uint64_t>(), rows.size() - 1);
    const auto data = sim::hns::parse_replay(replay);
    ASSERT_TRUE(data);
    EXPECT_EQ(summary.at("ticks").as_int64(), static_cast<std::int64_t>(data->hashes.back().tick));
    std::map<std::string, int> kinds;
    int last_tick = 0;
    for (std::size_t i = 0; i + 1 < rows.size(); ++i) {
        const auto& row = rows[i];
        for (const char* key : {"tick", "kind", "source", "target", "subject", "amount", "x", "y", "heading_brads", "content"})
            EXPECT_TRUE(row.contains(key)) << key << " missing in row " << i;
        const int tick = static_cast<int>(row.at("tick").as_int64());
        EXPECT_GE(tick, last_tick) << "rows go forward in time";
        last_tick = tick;
        ++kinds[std::string(row.at("kind").as_string())];
    }
    // Two games: each starts playing and releases its seekers; every turn of both is announced.
    EXPECT_GE(kinds["phase"], 3);
    EXPECT_EQ(kinds["release"], 2);
    EXPECT_GE(kinds["turn"], 2);
    EXPECT_GE(kinds["turn"], 2 * 2);  // at least prep and hunt of both games
}

TEST(HnsEpisodeEvents, TheSameReplayGivesTheSameFile) {
    const std::string replay = hns_test::read_file(hns_test::vector_dir() + "/cert_zero.cowldhns");
    auto a = episode_events_jsonl(replay);
    auto b = episode_events_jsonl(replay);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(*a, *b);
}

TEST(HnsEpisodeEvents, WhatIsNotAReplayIsAnError) {
    EXPECT_FALSE(episode_events_jsonl(""));
    EXPECT_FALSE(episode_events_jsonl("COWLDHNS"));
    EXPECT_FALSE(episode_events_jsonl(std::string(4096, '\xff')));
    const std::string replay = hns_test::read_file(hns_test::vector_dir() + "/cert_zero.cowldhns");
    const auto cut = episode_events_jsonl(replay.substr(0, replay.size() / 2));
    if (cut) {  // a cut record list may still parse: then it is a whole file of what was there
        EXPECT_NE(cut->find("\"type\":\"summary\""), std::string::npos);
    }
}

TEST(HnsEpisodeEvents, AGameVersion2ReplayNamesItsVersionAndItsF7Drops) {
    const std::string replay = hns_test::read_file(hns_test::vector_dir() + "/gv2/cert_formula.cowldhns");
    auto text = episode_events_jsonl(replay);
    ASSERT_TRUE(text) << text.error;
    const auto rows = rows_of(*text);
    ASSERT_FALSE(rows.empty());
    EXPECT_EQ(rows.back().at("gameVersion").as_string(), "2");
    // The reference's f7Drops: slot 2 drops ramp1 at the release (181) and at game 1's end (451).
    std::vector<std::pair<std::int64_t, std::int64_t>> drops;
    for (const auto& row : rows)
        if (row.contains("kind") && row.at("kind") == "drop" && row.at("subject") == "ramp1")
            drops.emplace_back(row.at("tick").as_int64(), row.at("source").as_int64());
    EXPECT_NE(std::find(drops.begin(), drops.end(), std::pair<std::int64_t, std::int64_t>{181, 2}), drops.end());
    EXPECT_NE(std::find(drops.begin(), drops.end(), std::pair<std::int64_t, std::int64_t>{451, 2}), drops.end());
}

TEST(HnsEpisodeEvents, NoEventsIsJustTheSummaryAndDroppedRowsAreCounted) {
    EXPECT_EQ(events_jsonl({}, 123, sim::hns::GameVersion::V1),
              "{\"type\":\"summary\",\"ticks\":123,\"events\":0,\"gameVersion\":\"1\"}\n");
    EXPECT_EQ(events_jsonl({}, 123, sim::hns::GameVersion::V2),
              "{\"type\":\"summary\",\"ticks\":123,\"events\":0,\"gameVersion\":\"2\"}\n");
    EpisodeEvent e;
    e.tick = 5;
    e.kind = "shout";
    e.content = "line\nbreak \"quoted\"";
    const auto text = events_jsonl({e}, 9, sim::hns::GameVersion::V2, 4);
    const auto rows = rows_of(text);
    ASSERT_EQ(rows.size(), 2U);
    EXPECT_EQ(rows[0].at("content").as_string(), "line\nbreak \"quoted\"");
    EXPECT_EQ(rows[1].at("dropped").to_number<std::uint64_t>(), 4U);
}

}  // namespace
}  // namespace hschool::server::hns
