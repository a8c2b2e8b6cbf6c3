// Who may delete a school (issue 18), against the real server: in owners mode the creator's token
// (handed out once) or the operator's, kept across a restart; in open mode anyone, as the seeds.
#include <fstream>
#include <sstream>

#include "schools_support.hpp"

namespace hschool::test::schools {
namespace {

std::string read_token(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::string token;
    in >> token;
    return token;
}

std::map<std::string, std::string> bearer(const std::string& token) { return {{"Authorization", "Bearer " + token}}; }

std::vector<std::string> owners_args(const TempDir& dir) {
    auto args = isolated_server_args(dir);
    args.insert(args.end(), {"--access", "owners"});
    return args;
}

TEST(SchoolsAccess, InOwnersModeOnlyTheCreatorOrTheOperatorDeletesASchool) {
    TempDir dir;
    std::string mine_token, theirs_token, admin;
    std::int32_t mine = 0, theirs = 0, third = 0;
    {
        ServerProcess server(owners_args(dir));
        ASSERT_TRUE(server.started()) << server.output();
        // No --admin-token-file: the token is made beside the database on first start.
        admin = read_token(dir.path() / "admin.token");
        ASSERT_EQ(admin.size(), 64U);
        const auto a = create_school(server.port(), "Школа 1");
        const auto b = create_school(server.port(), "Школа 2");
        ASSERT_TRUE(a.contains("ownerToken") && b.contains("ownerToken"));
        mine = static_cast<std::int32_t>(a.at("id").as_int64());
        theirs = static_cast<std::int32_t>(b.at("id").as_int64());
        mine_token = std::string(a.at("ownerToken").as_string());
        theirs_token = std::string(b.at("ownerToken").as_string());
        EXPECT_EQ(mine_token.size(), 64U);
        EXPECT_NE(mine_token, theirs_token);
        third = create_school_id(server.port(), "Школа 3");
        // Given once: the list never shows it.
        EXPECT_EQ(http_request(server.port(), "GET", "/api/schools").body.find(mine_token), std::string::npos);

        const std::string path = "/api/schools/" + std::to_string(mine);
        expect_problem(http_request(server.port(), "DELETE", path), 401, "unauthorized", "no token");
        expect_problem(http_request(server.port(), "DELETE", path, "", bearer(theirs_token)), 403, "forbidden", "another's token");
        expect_problem(http_request(server.port(), "DELETE", path, "", bearer("not-a-token")), 403, "forbidden", "garbage token");
        EXPECT_TRUE(find_school(server.port(), mine)) << "a refused delete deletes nothing";
        // A stranger's delete of a school that does not exist learns nothing more than 401.
        expect_problem(http_request(server.port(), "DELETE", "/api/schools/999"), 401, "unauthorized", "unknown id");
        expect_problem(http_request(server.port(), "DELETE", "/api/schools/999", "", bearer(admin)), 404, "not-found", "operator, unknown id");
        ASSERT_EQ(server.stop(SIGTERM), 0);
    }
    // Ownership and the operator's token survive a restart.
    ServerProcess server(owners_args(dir));
    ASSERT_TRUE(server.started()) << server.output();
    EXPECT_EQ(read_token(dir.path() / "admin.token"), admin);
    const std::string path = "/api/schools/" + std::to_string(mine);
    expect_problem(http_request(server.port(), "DELETE", path, "", bearer(theirs_token)), 403, "forbidden", "after restart");
    EXPECT_EQ(http_request(server.port(), "DELETE", path, "", bearer(mine_token)).status, 204U);
    EXPECT_FALSE(find_school(server.port(), mine));
    EXPECT_EQ(http_request(server.port(), "DELETE", "/api/schools/" + std::to_string(theirs), "", bearer(admin)).status, 204U);
    EXPECT_EQ(http_request(server.port(), "DELETE", "/api/schools/" + std::to_string(third), "", bearer(admin)).status, 204U);
}

TEST(SchoolsAccess, SchoolsFromBeforeOwnersBelongToTheOperator) {
    TempDir dir;
    std::int32_t old = 0;
    {
        ServerProcess server(isolated_server_args(dir));  // open mode: no owner recorded
        ASSERT_TRUE(server.started()) << server.output();
        const auto created = create_school(server.port(), "Old school");
        EXPECT_FALSE(created.contains("ownerToken")) << "open mode hands out no token";
        old = static_cast<std::int32_t>(created.at("id").as_int64());
        ASSERT_EQ(server.stop(SIGTERM), 0);
    }
    ServerProcess server(owners_args(dir));
    ASSERT_TRUE(server.started()) << server.output();
    const std::string admin = read_token(dir.path() / "admin.token");
    const auto fresh = create_school(server.port(), "New school");
    const std::string path = "/api/schools/" + std::to_string(old);
    expect_problem(http_request(server.port(), "DELETE", path, "", bearer(std::string(fresh.at("ownerToken").as_string()))), 403,
                   "forbidden", "another school's owner");
    EXPECT_EQ(http_request(server.port(), "DELETE", path, "", bearer(admin)).status, 204U);
}

// v4 SetRunning/SetSpeed change a school for every watcher: in owners mode only a session that
// showed the school's owner token (or the operator's) at the upgrade changes it.
TEST(SchoolsAccess, InOwnersModeOnlyTheOwnersSessionPausesASchool) {
    TempDir dir;
    ServerProcess server(owners_args(dir));
    ASSERT_TRUE(server.started()) << server.output();
    const std::string admin = read_token(dir.path() / "admin.token");
    const auto a = create_school(server.port(), "A");
    const auto b = create_school(server.port(), "B");
    const auto a_id = static_cast<std::int32_t>(a.at("id").as_int64());
    const auto b_id = static_cast<std::int32_t>(b.at("id").as_int64());
    const std::string a_token(a.at("ownerToken").as_string());

    auto owner = join(server.port(), 0, 20, "/ws/game?ownerToken=" + a_token);
    ASSERT_TRUE(owner);
    ASSERT_TRUE(open_school(*owner, a_id));
    ASSERT_TRUE(owner->send(v4::encode(v4::SetRunning{0})));
    ASSERT_TRUE(clock_where(*owner, [](const v4::Clock& c) { return c.running == 0; })) << "the owner pauses A";
    // Not B: the token is A's.
    ASSERT_TRUE(open_school(*owner, b_id));
    ASSERT_TRUE(owner->send(v4::encode(v4::SetRunning{0})));
    ASSERT_TRUE(owner->send(v4::encode(v4::SetSpeed{4})));
    for (const auto& clock : next_clocks(*owner, 10)) {
        EXPECT_EQ(clock.running, 1) << "A's owner paused B";
        EXPECT_EQ(clock.speed_index, 1) << "A's owner changed B's speed";
    }
    // A stranger's play changes nothing for anyone.
    auto stranger = join(server.port());
    ASSERT_TRUE(stranger);
    ASSERT_TRUE(open_school(*stranger, a_id));
    ASSERT_TRUE(stranger->send(v4::encode(v4::SetRunning{1})));
    for (const auto& clock : next_clocks(*stranger, 10)) EXPECT_EQ(clock.running, 0) << "a stranger resumed A";
    // The operator may do everything.
    auto op = join(server.port(), 0, 20, "/ws/game?ownerToken=" + admin);
    ASSERT_TRUE(op);
    ASSERT_TRUE(open_school(*op, b_id));
    ASSERT_TRUE(op->send(v4::encode(v4::SetRunning{0})));
    EXPECT_TRUE(clock_where(*op, [](const v4::Clock& c) { return c.running == 0; })) << "the operator pauses B";
    EXPECT_NE(http_request(server.port(), "GET", "/metrics").body.find("hschool_school_controls_refused_total 3"), std::string::npos);
    // A list past its limit is refused before the upgrade.
    std::string many = a_token;
    for (int i = 0; i < 16; ++i) many += "," + a_token;
    const auto refused = http_request(server.port(), "GET", "/ws/game?ownerToken=" + many, "",
                                      {{"Connection", "Upgrade"}, {"Upgrade", "websocket"}, {"Sec-WebSocket-Version", "13"},
                                       {"Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="}});
    EXPECT_EQ(refused.status, 400U);
}

TEST(SchoolsAccess, InOpenModeAnyoneDeletesAsBefore) {
    TempDir dir;
    ServerProcess server(isolated_server_args(dir));
    ASSERT_TRUE(server.started()) << server.output();
    const auto id = create_school_id(server.port(), "Open");
    EXPECT_EQ(http_request(server.port(), "DELETE", "/api/schools/" + std::to_string(id), "", bearer("whatever")).status, 204U);
}

}  // namespace
}  // namespace hschool::test::schools
