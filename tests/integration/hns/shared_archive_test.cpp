// Hide-and-seek on several servers sharing one PostgreSQL database (issue 34): every server lists
// every finished match, serves any replay (download and the /replay viewer), and match ids never
// collide. Needs $HSCHOOL_TEST_DATABASE_URL (make test sets it).
#include <set>

#include "hns_client.hpp"
#include "sim/hns/replay.hpp"
#include "test_schema.hpp"

namespace hschool::test::hns {
namespace {

std::set<std::string> finished_ids(std::uint16_t port) {
    std::set<std::string> ids;
    const auto value = parse(http_request(port, "GET", "/api/hns/matches").body);
    if (!value.is_object()) return ids;
    for (const auto& m : value.as_object().at("matches").as_array())
        if (m.at("phase") == "finished") ids.insert(std::string(m.at("id").as_string()));
    return ids;
}

TEST(HnsSharedArchive, EveryServerListsAndServesEveryFinishedMatchAndIdsNeverCollide) {
    TestSchema schema("ha");
    if (!schema.ready()) GTEST_SKIP() << "no $HSCHOOL_TEST_DATABASE_URL";
    TempDir dir_a, dir_b;
    ServerProcess a(hns_server_args(dir_a, {"--database", schema.url()}));
    ServerProcess b(hns_server_args(dir_b, {"--database", schema.url()}));
    ASSERT_TRUE(a.started()) << a.output();
    ASSERT_TRUE(b.started()) << b.output();

    // Each match is watched from its start: one left to itself may end, its /global gone, while the
    // other is played out on a busy machine.
    const std::string on_a = create_match(a.port(), R"({"variant":"certification","bots":6})");
    ASSERT_FALSE(on_a.empty());
    ASSERT_EQ(play_out(a.port(), on_a), 1000);
    const std::string on_b = create_match(b.port(), R"({"variant":"certification","bots":6})");
    ASSERT_FALSE(on_b.empty());
    ASSERT_EQ(play_out(b.port(), on_b), 1000);
    EXPECT_NE(on_a, on_b) << "one sequence numbers the matches of both servers";

    for (const auto port : {a.port(), b.port()}) {
        const auto ids = finished_ids(port);
        EXPECT_TRUE(ids.count(on_a) && ids.count(on_b)) << "server on port " << port << " lists both";
    }
    // B serves A's replay (a download and the /replay viewer's upgrade), and it is a whole replay.
    const auto replay = download_replay(b.port(), on_a);
    auto data = sim::hns::parse_replay(replay);
    ASSERT_TRUE(data) << data.error;
    EXPECT_EQ(replay, download_replay(a.port(), on_a)) << "the same bytes through either server";
    EXPECT_EQ(match_json(b.port(), on_a).at("phase"), "finished");
    auto viewer = open_socket(b.port(), "/replay?match=" + on_a);
    ASSERT_TRUE(viewer);
    EXPECT_TRUE(next_binary(*viewer)) << "B's /replay viewer draws A's match";
    EXPECT_EQ(http_request(b.port(), "GET", "/api/hns/matches/m999999/replay").status, 404u);
}

}  // namespace
}  // namespace hschool::test::hns
