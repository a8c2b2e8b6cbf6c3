// The drop-in environment (spec §2.9) parsed from a fake getenv: no real environment is touched.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "server/hns/contract/dropin_env.hpp"

namespace hschool::server::hns {
namespace {

using Vars = std::map<std::string, std::string>;

Expected<DropInEnv> read_from(const Vars& vars) {
    return read_dropin_env([&vars](const char* name) -> const char* {
        const auto found = vars.find(name);
        return found == vars.end() ? nullptr : found->second.c_str();
    });
}

std::string error_of(const Vars& vars) {
    const auto env = read_from(vars);
    EXPECT_FALSE(env) << "expected a failure";
    return env.error;
}

const Vars kConfigOnly{{"COGAME_CONFIG_URI", "file:///cfg/match.json"}};

TEST(HnsDropInEnv, InactiveWithoutConfigUri) {
    const auto env = read_from({});
    ASSERT_TRUE(env) << env.error;
    EXPECT_FALSE(env->active);
    EXPECT_EQ(env->host, "0.0.0.0");
    EXPECT_EQ(env->port, 8080);
    EXPECT_TRUE(env->results.empty());
    EXPECT_EQ(env->linger, std::chrono::milliseconds(20000));
}

TEST(HnsDropInEnv, AnEmptyConfigUriIsUnsetAndTheOthersAreNotRead) {
    const auto env = read_from({{"COGAME_CONFIG_URI", ""},
                                {"COGAME_RESULTS_URI", "http://example.com/r"},
                                {"COGAME_PORT", "banana"}});
    ASSERT_TRUE(env) << env.error;
    EXPECT_FALSE(env->active);
}

TEST(HnsDropInEnv, DefaultsWithOnlyTheConfig) {
    const auto env = read_from(kConfigOnly);
    ASSERT_TRUE(env) << env.error;
    EXPECT_TRUE(env->active);
    EXPECT_EQ(env->host, kDropInDefaultHost);
    EXPECT_EQ(env->port, kDropInDefaultPort);
    EXPECT_EQ(env->config, "/cfg/match.json");
    EXPECT_TRUE(env->results.empty());
    EXPECT_TRUE(env->save_replay.empty());
    EXPECT_TRUE(env->load_replay.empty());
    EXPECT_TRUE(env->events.empty());
    EXPECT_TRUE(env->metrics.empty());
    EXPECT_TRUE(env->player_failure.empty());
    EXPECT_EQ(env->linger, kDropInLinger);
}

TEST(HnsDropInEnv, EveryVariableIsParsed) {
    const auto env = read_from({{"COGAME_CONFIG_URI", "file:///in/config.json"},
                                {"COGAME_HOST", "127.0.0.1"},
                                {"COGAME_PORT", "9123"},
                                {"COGAME_RESULTS_URI", "file:///out/results.json"},
                                {"COGAME_SAVE_REPLAY_URI", "file:///out/replay.cowldhns"},
                                {"COGAME_LOAD_REPLAY_URI", "file:///in/old.cowldhns"},
                                {"COGAME_EVENTS_URI", "file:///out/events.jsonl"},
                                {"COGAME_METRICS_URI", "file:///out/metrics.json"},
                                {"COGAME_PLAYER_FAILURE_URI", "file:///out/failure.json"},
                                {"HSCHOOL_DROPIN_LINGER_MS", "250"}});
    ASSERT_TRUE(env) << env.error;
    EXPECT_FALSE(env->active);  // a replay to load: replay mode, the config is not played
    EXPECT_TRUE(env->replay);
    EXPECT_EQ(env->host, "127.0.0.1");
    EXPECT_EQ(env->port, 9123);
    EXPECT_EQ(env->config, "/in/config.json");
    EXPECT_EQ(env->results, "/out/results.json");
    EXPECT_EQ(env->save_replay, "/out/replay.cowldhns");
    EXPECT_EQ(env->load_replay, "/in/old.cowldhns");
    EXPECT_EQ(env->events, "/out/events.jsonl");
    EXPECT_EQ(env->metrics, "/out/metrics.json");
    EXPECT_EQ(env->player_failure, "/out/failure.json");
    EXPECT_EQ(env->linger, std::chrono::milliseconds(250));
}

TEST(HnsDropInEnv, EmptyHostAndPortMeanTheDefaults) {
    Vars vars = kConfigOnly;
    vars["COGAME_HOST"] = "";
    vars["COGAME_PORT"] = "";
    const auto env = read_from(vars);
    ASSERT_TRUE(env) << env.error;
    EXPECT_EQ(env->host, "0.0.0.0");
    EXPECT_EQ(env->port, 8080);
}

TEST(HnsDropInEnv, HttpIsRefusedNamingTheVariable) {
    const char* names[] = {"COGAME_CONFIG_URI",      "COGAME_RESULTS_URI", "COGAME_SAVE_REPLAY_URI",
                           "COGAME_LOAD_REPLAY_URI", "COGAME_EVENTS_URI",  "COGAME_METRICS_URI",
                           "COGAME_PLAYER_FAILURE_URI"};
    for (const char* name : names) {
        Vars vars = kConfigOnly;
        vars[name] = "http://bucket.example/x?sig=SECRET";
        const std::string error = error_of(vars);
        EXPECT_EQ(error, std::string(name) + ": only file:// URIs are supported");
        EXPECT_EQ(error.find("SECRET"), std::string::npos) << "a signed URI must not reach the logs";
    }
    Vars https = kConfigOnly;
    https["COGAME_RESULTS_URI"] = "https://bucket.example/x";
    EXPECT_EQ(error_of(https), "COGAME_RESULTS_URI: only file:// URIs are supported");
}

TEST(HnsDropInEnv, BadPortsAreRefused) {
    for (const char* port : {"0", "65536", "-1", "+80", "80 ", " 80", "8o80", "99999999999", "0x50"}) {
        Vars vars = kConfigOnly;
        vars["COGAME_PORT"] = port;
        EXPECT_EQ(error_of(vars), "COGAME_PORT: must be an integer between 1 and 65535") << port;
    }
    Vars edge = kConfigOnly;
    edge["COGAME_PORT"] = "65535";
    const auto env = read_from(edge);
    ASSERT_TRUE(env) << env.error;
    EXPECT_EQ(env->port, 65535);
    edge["COGAME_PORT"] = "1";
    EXPECT_EQ(read_from(edge)->port, 1);
}

TEST(HnsDropInEnv, BadHostIsRefused) {
    Vars vars = kConfigOnly;
    vars["COGAME_HOST"] = "local host";
    EXPECT_EQ(error_of(vars).rfind("COGAME_HOST: ", 0), 0U);
    vars["COGAME_HOST"] = std::string(kMaxDropInHostBytes + 1, 'a');
    EXPECT_EQ(error_of(vars).rfind("COGAME_HOST: ", 0), 0U);
}

TEST(HnsDropInEnv, LingerIsBoundedByTwentySeconds) {
    Vars vars = kConfigOnly;
    vars["HSCHOOL_DROPIN_LINGER_MS"] = "0";
    EXPECT_EQ(read_from(vars)->linger, std::chrono::milliseconds(0));
    vars["HSCHOOL_DROPIN_LINGER_MS"] = "20000";
    EXPECT_EQ(read_from(vars)->linger, std::chrono::milliseconds(20000));
    for (const char* bad : {"20001", "-5", "1s", "abc"}) {
        vars["HSCHOOL_DROPIN_LINGER_MS"] = bad;
        EXPECT_EQ(error_of(vars).rfind("HSCHOOL_DROPIN_LINGER_MS: ", 0), 0U) << bad;
    }
}

TEST(HnsDropInEnv, AnErrorInALaterUriNamesThatUri) {
    Vars vars = kConfigOnly;
    vars["COGAME_EVENTS_URI"] = "file://otherhost/tmp/events";
    EXPECT_EQ(error_of(vars).rfind("COGAME_EVENTS_URI: ", 0), 0U);
}

TEST(HnsDropInEnv, ALoadReplayUriAloneIsReplayMode) {
    const auto env = read_from({{"COGAME_LOAD_REPLAY_URI", "file:///replays/a.cowldhns"}, {"COGAME_PORT", "9000"}});
    ASSERT_TRUE(env) << env.error;
    EXPECT_FALSE(env->active);
    EXPECT_TRUE(env->replay);
    EXPECT_EQ(env->load_replay, std::filesystem::path("/replays/a.cowldhns"));
    EXPECT_EQ(env->load_replay_uri, "file:///replays/a.cowldhns");
    EXPECT_EQ(env->port, 9000);
}

TEST(HnsDropInEnv, ReplayModeWinsOverAConfig) {
    const auto env = read_from({{"COGAME_CONFIG_URI", "file:///cfg/match.json"}, {"COGAME_LOAD_REPLAY_URI", "file:///r"}});
    ASSERT_TRUE(env) << env.error;
    EXPECT_FALSE(env->active);
    EXPECT_TRUE(env->replay);
}

TEST(HnsDropInEnv, AnHttpReplayUriIsRefused) {
    EXPECT_EQ(error_of({{"COGAME_LOAD_REPLAY_URI", "https://example.com/r"}}), "COGAME_LOAD_REPLAY_URI: only file:// URIs are supported");
}

TEST(HnsFileUri, PlainAbsolutePath) {
    const auto path = file_uri_path("file:///tmp/a/results.json");
    ASSERT_TRUE(path) << path.error;
    EXPECT_EQ(*path, "/tmp/a/results.json");
}

TEST(HnsFileUri, PercentEscapesAreDecoded) {
    const auto path = file_uri_path("file:///tmp/my%20dir/r%C3%A9sultats%2Bx%25.json");
    ASSERT_TRUE(path) << path.error;
    EXPECT_EQ(path->string(), "/tmp/my dir/résultats+x%.json");
    // '+' is a plain character in a path, not a space.
    EXPECT_EQ(file_uri_path("file:///a+b")->string(), "/a+b");
    EXPECT_EQ(file_uri_path("file:///a%2fb%2Fc")->string(), "/a/b/c");
}

TEST(HnsFileUri, LocalhostAndTheSchemeCaseAreAccepted) {
    EXPECT_EQ(file_uri_path("file://localhost/srv/x.json")->string(), "/srv/x.json");
    EXPECT_EQ(file_uri_path("FILE://LocalHost/srv/x.json")->string(), "/srv/x.json");
}

TEST(HnsFileUri, HostsAreRefused) {
    for (const char* uri : {"file://host/tmp/x", "file://example.com/x", "file://127.0.0.1/x", "file://host"}) {
        const auto path = file_uri_path(uri);
        EXPECT_FALSE(path) << uri;
    }
    EXPECT_NE(file_uri_path("file://host/tmp/x").error.find("host"), std::string::npos);
}

TEST(HnsFileUri, RelativePathsAndNonUrisAreRefused) {
    for (const char* uri : {"results.json", "/tmp/results.json", "file:results.json", "file:/tmp/x", "file://",
                            "", "s3://bucket/x", "http://h/x", "ftp:///x"}) {
        EXPECT_FALSE(file_uri_path(uri)) << uri;
    }
    EXPECT_EQ(file_uri_path("/tmp/results.json").error, "only file:// URIs are supported");
}

TEST(HnsFileUri, MalformedEscapesDirectoriesQueriesAndNulAreRefused) {
    for (const char* uri : {"file:///tmp/%", "file:///tmp/%2", "file:///tmp/%zz", "file:///tmp/a%00b", "file:///",
                            "file:///tmp/dir/", "file:///tmp/x?y=1", "file:///tmp/x#frag"}) {
        EXPECT_FALSE(file_uri_path(uri)) << uri;
    }
}

TEST(HnsFileUri, OverlongUrisAreRefused) {
    const std::string longest = "file:///" + std::string(kMaxDropInUriBytes - 8, 'a');
    EXPECT_TRUE(file_uri_path(longest));
    EXPECT_FALSE(file_uri_path(longest + "a"));
}

}  // namespace
}  // namespace hschool::server::hns
