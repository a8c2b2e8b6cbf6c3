// The command line's access options: the mode follows the listen address unless --access says
// otherwise, and the operator's token file sits beside the database unless named.
#include "server/options.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

namespace hschool::server {
namespace {

ServerOptions parse(std::vector<const char*> args) {
    args.insert(args.begin(), "hschool-server");
    auto parsed = parse_options(static_cast<int>(args.size()), args.data());
    EXPECT_TRUE(std::holds_alternative<ServerOptions>(parsed));
    return std::holds_alternative<ServerOptions>(parsed) ? std::get<ServerOptions>(parsed) : ServerOptions{};
}

TEST(AccessOptions, FollowTheListenAddressUnlessGiven) {
    EXPECT_EQ(parse({}).access, AccessMode::Open);  // make run: 127.0.0.1
    EXPECT_EQ(parse({"--address", "0.0.0.0"}).access, AccessMode::Owners);
    EXPECT_EQ(parse({"--address", "::"}).access, AccessMode::Owners);
    EXPECT_EQ(parse({"--address", "0.0.0.0", "--access", "open"}).access, AccessMode::Open);
    // Behind a reverse proxy on the same host the server listens on loopback: it must be told.
    EXPECT_EQ(parse({"--address", "127.0.0.1", "--access", "owners"}).access, AccessMode::Owners);
}

TEST(AccessOptions, RefuseAnUnknownMode) {
    const char* args[] = {"hschool-server", "--access", "everyone"};
    auto parsed = parse_options(3, args);
    ASSERT_TRUE(std::holds_alternative<int>(parsed));
    EXPECT_NE(std::get<int>(parsed), 0);
}

TEST(DatabaseOptions, APostgresUrlIsTakenAndAnythingElseRefused) {
    EXPECT_EQ(parse({}).database_url, "");  // make run: SQLite
    EXPECT_EQ(parse({"--database", "postgresql://app:pw@db:5432/hschool"}).database_url, "postgresql://app:pw@db:5432/hschool");
    for (const char* bad : {"mysql://db/hschool", "data/hschool.db", "postgresql"}) {
        const char* args[] = {"hschool-server", "--database", bad};
        auto parsed = parse_options(3, args);
        ASSERT_TRUE(std::holds_alternative<int>(parsed)) << bad;
        EXPECT_NE(std::get<int>(parsed), 0) << bad;
    }
}

TEST(LeagueOptions, TheModelMatchBudgetDefaultsAndIsBounded) {
    EXPECT_EQ(parse({}).hns_max_league_model_matches, hns::kDefaultMaxLeagueModelMatches);
    EXPECT_EQ(parse({"--hns-max-league-model-matches", "0"}).hns_max_league_model_matches, 0);  // no prompt entrants
    EXPECT_EQ(parse({"--hns-max-league-model-matches", "500"}).hns_max_league_model_matches, 500);
    for (const char* bad : {"-1", "20001", "many", ""}) {
        const char* args[] = {"hschool-server", "--hns-max-league-model-matches", bad};
        auto parsed = parse_options(3, args);
        ASSERT_TRUE(std::holds_alternative<int>(parsed)) << bad;
        EXPECT_NE(std::get<int>(parsed), 0) << bad;
    }
}

TEST(LeagueOptions, LeaguesRunIdleUnlessAskedForLowPriority) {
    EXPECT_TRUE(parse({}).hns_league_idle);
    EXPECT_TRUE(parse({"--hns-league-priority", "idle"}).hns_league_idle);
    EXPECT_FALSE(parse({"--hns-league-priority", "low"}).hns_league_idle);
    for (const char* bad : {"high", "", "0"}) {
        const char* args[] = {"hschool-server", "--hns-league-priority", bad};
        auto parsed = parse_options(3, args);
        ASSERT_TRUE(std::holds_alternative<int>(parsed)) << bad;
        EXPECT_NE(std::get<int>(parsed), 0) << bad;
    }
}

TEST(AccessOptions, TheTokenFileDefaultsToTheDataFolderOrTheEnvironment) {
    ::unsetenv(kAdminTokenFileEnv);
    EXPECT_EQ(parse({"--data", "/srv/hschool/db.sqlite"}).admin_token_file, "/srv/hschool/admin.token");
    EXPECT_EQ(parse({"--data", "/srv/db.sqlite", "--admin-token-file", "/etc/hschool/token"}).admin_token_file, "/etc/hschool/token");
    ::setenv(kAdminTokenFileEnv, "/run/secrets/hschool", 1);
    EXPECT_EQ(parse({"--data", "/srv/db.sqlite"}).admin_token_file, "/run/secrets/hschool");
    ::unsetenv(kAdminTokenFileEnv);
}

}  // namespace
}  // namespace hschool::server
