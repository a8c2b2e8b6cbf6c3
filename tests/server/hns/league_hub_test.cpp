// Leagues in the server's process (issue 33): budgets, stop and forget, owners, interleaving, the
// archive's kind, against a real archive in a temporary folder. Without start() no league thread
// runs, so a league stays "running" for as long as a budget test needs.
#include <gtest/gtest.h>

#include <sched.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include <boost/json.hpp>

#include "../../support/wait.hpp"
#include "league_fixture.hpp"
#include "sim/hns/replay.hpp"
#include "sim/hns/verify.hpp"

namespace hschool::server::hns {
namespace {

namespace json = boost::json;
using namespace league_test;

TEST_F(Leagues, PlaysToTheEndAndArchivesEveryMatchAsALeagueMatch) {
    auto h = hub();
    const auto s = created(*h, league_of({{"r", "builtin:random"}, {"b", "builtin:burrow"}, {"p", "prompt"}}, 2));
    EXPECT_EQ(s.id, "l1");
    EXPECT_EQ(s.state, "running");
    EXPECT_EQ(s.planned, 6);
    h->start();
    const auto done = until_ended(*h, s.id);
    EXPECT_EQ(done.state, "finished");
    EXPECT_EQ(done.played, 6);
    EXPECT_EQ(metrics.played.load(), 6);
    EXPECT_EQ(metrics.running.load(), 0);
    const auto table = json::parse(*done.table).as_object();
    EXPECT_EQ(table.at("state"), "finished");
    const auto& entrants = table.at("entrants").as_array();
    EXPECT_EQ(entrants[2].as_object().at("kind"), "prompt");
    EXPECT_EQ(entrants[2].as_object().at("fallback"), "no_credentials");
    EXPECT_FALSE(entrants[0].as_object().contains("fallback"));
    // With no model every prompt turn is burrow, counted and noted as such.
    EXPECT_EQ(entrants[2].as_object().at("modelTurns").as_int64(), 0);
    EXPECT_GT(entrants[2].as_object().at("fallbackTurns").as_int64(), 0);
    for (const auto& r : table.at("results").as_array()) {
        const auto& row = r.as_object();
        for (int slot = 0; slot < 6; ++slot) {
            if (row.at("seats").as_array()[slot] != "p") continue;
            const std::string note(row.at("programs").as_array()[slot].as_string());
            EXPECT_EQ(note.rfind("prompt fallback ", 0), 0U) << note;
            EXPECT_NE(note.find("turns (no_credentials)"), std::string::npos) << note;
        }
    }
    EXPECT_EQ(archive->list(100)->size(), 0U) << "league matches are not ordinary matches";
    ASSERT_EQ(archive->list(100, store::kArchiveKindLeague)->size(), 6U);
    for (const auto& r : table.at("results").as_array()) {
        const std::string id(r.as_object().at("replay").as_string());
        const auto row = archive->get(id);
        ASSERT_TRUE(row && *row) << id;
        EXPECT_EQ((*row)->kind, store::kArchiveKindLeague);
        const auto bytes = archive->replay(id);
        ASSERT_TRUE(bytes && *bytes);
        auto replay = sim::hns::parse_replay(**bytes);
        ASSERT_TRUE(replay) << id;
        EXPECT_TRUE(sim::hns::verify_replay(*replay).ok) << id;
    }
    // Forgetting a finished league removes its archived matches.
    EXPECT_FALSE(h->remove(s.id, "").has_value());
    EXPECT_FALSE(h->get(s.id).has_value());
    for (int i = 0; i < 12000 && !archive->list(100, store::kArchiveKindLeague)->empty(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_TRUE(archive->list(100, store::kArchiveKindLeague)->empty());
    EXPECT_EQ(h->remove(s.id, "")->status, 404U);
}

TEST_F(Leagues, RunningLeaguesPerAddressAndInAllAreBounded) {
    LeagueOptions options;
    options.max_running = 3;
    options.max_running_per_address = 2;
    auto h = hub(options);
    created(*h, league_of({{"a", "builtin:idle"}, {"b", "builtin:idle"}}, 1), "10.0.0.1");
    created(*h, league_of({{"a", "builtin:idle"}, {"b", "builtin:idle"}}, 1), "10.0.0.1");
    const auto mine = h->create(league_of({{"a", "builtin:idle"}, {"b", "builtin:idle"}}, 1), "", "10.0.0.1");
    ASSERT_TRUE(std::holds_alternative<HubError>(mine));
    EXPECT_EQ(std::get<HubError>(mine).status, 429U);
    EXPECT_EQ(std::get<HubError>(mine).code, "too-many-leagues-per-address");
    EXPECT_EQ(std::get<HubError>(mine).retry_after_seconds, kLeagueRetryAfterSeconds);
    EXPECT_EQ(metrics.last_refusal, "leagues_per_address");
    created(*h, league_of({{"a", "builtin:idle"}, {"b", "builtin:idle"}}, 1), "10.0.0.2");
    const auto all = h->create(league_of({{"a", "builtin:idle"}, {"b", "builtin:idle"}}, 1), "", "10.0.0.3");
    ASSERT_TRUE(std::holds_alternative<HubError>(all));
    EXPECT_EQ(std::get<HubError>(all).status, 503U);
    EXPECT_EQ(std::get<HubError>(all).code, "too-many-leagues");
    EXPECT_GT(std::get<HubError>(all).retry_after_seconds, 0);
    EXPECT_EQ(metrics.last_refusal, "leagues_total");
    EXPECT_EQ(h->running(), 3U);
    // A stopped league frees its place.
    EXPECT_FALSE(h->remove("l1", "").has_value());
    created(*h, league_of({{"a", "builtin:idle"}, {"b", "builtin:idle"}}, 1), "10.0.0.1");
    EXPECT_EQ(metrics.running.load(), 3);
}

TEST_F(Leagues, DeleteStopsThenForgetsAndTheListIsNewestFirst) {
    auto h = hub();
    created(*h, league_of({{"a", "builtin:idle"}, {"b", "builtin:burrow"}}, 3));
    created(*h, league_of({{"a", "builtin:idle"}, {"b", "builtin:burrow"}}, 3), "10.0.0.2");
    const auto listed = h->list();
    ASSERT_EQ(listed.size(), 2U);
    EXPECT_EQ(listed[0].id, "l2");
    EXPECT_EQ(listed[1].id, "l1");
    EXPECT_FALSE(h->remove("l1", "").has_value());
    EXPECT_EQ(h->get("l1")->state, "stopped");
    EXPECT_GT(h->get("l1")->ended_at_ms, 0);
    EXPECT_FALSE(h->remove("l1", "").has_value());
    EXPECT_FALSE(h->get("l1").has_value());
    for (const std::string id : {"l1", "l0", "l", "x2", "l2x", "l-2", "l99999999999999999999", ""})
        EXPECT_EQ(h->remove(id, "")->status, 404U) << id;
    EXPECT_EQ(h->get("l2")->state, "running");
}

TEST_F(Leagues, OwnersModeNeedsTheOwnersOrTheOperatorsToken) {
    LeagueOptions options;
    options.access = [](std::string_view credential, std::string_view owner_hash) {
        if (credential.empty()) return Permission::Missing;
        return credential == "operator" || (!owner_hash.empty() && credential == owner_hash) ? Permission::Granted : Permission::Refused;
    };
    auto h = hub(options);
    created(*h, league_of({{"a", "builtin:idle"}, {"b", "builtin:burrow"}}, 3), "10.0.0.1", "alice");
    EXPECT_EQ(h->remove("l1", "")->status, 401U);
    EXPECT_EQ(h->remove("l404", "")->status, 401U) << "401 before the lookup";
    EXPECT_EQ(h->remove("l1", "mallory")->status, 403U);
    EXPECT_EQ(h->get("l1")->state, "running");
    EXPECT_FALSE(h->remove("l1", "alice").has_value());
    EXPECT_EQ(h->get("l1")->state, "stopped");
    EXPECT_EQ(h->remove("l1", "mallory")->status, 403U);
    EXPECT_FALSE(h->remove("l1", "operator").has_value());
    EXPECT_FALSE(h->get("l1").has_value());
}

TEST_F(Leagues, EndedLeaguesKeptAreBoundedOldestForgottenFirst) {
    LeagueOptions options;
    options.max_kept = 2;
    options.max_running_per_address = 0;
    auto h = hub(options);
    for (int i = 0; i < 3; ++i) {
        const auto s = created(*h, league_of({{"a", "builtin:idle"}, {"b", "builtin:burrow"}}, 1));
        EXPECT_FALSE(h->remove(s.id, "").has_value());
        std::this_thread::sleep_for(std::chrono::milliseconds(2));  // distinct end times
    }
    EXPECT_FALSE(h->get("l1").has_value());
    EXPECT_EQ(h->get("l2")->state, "stopped");
    EXPECT_EQ(h->get("l3")->state, "stopped");
}

TEST_F(Leagues, MatchesInterleaveAcrossRunningLeagues) {
    auto h = hub();
    created(*h, league_of({{"a", "builtin:idle"}, {"b", "builtin:burrow"}}, 3));
    created(*h, league_of({{"c", "builtin:scatter"}, {"d", "builtin:random"}}, 3), "10.0.0.2");
    h->start();
    const auto one = until_ended(*h, "l1");
    const auto two = until_ended(*h, "l2");
    const auto replays = [](const LeagueSummary& s) {
        const json::value table = json::parse(*s.table);
        std::vector<std::string> out;
        for (const auto& r : table.as_object().at("results").as_array()) out.emplace_back(r.as_object().at("replay").as_string());
        return out;
    };
    const auto first = replays(one), second = replays(two);
    // One job: the ids are handed out in play order, alternating between the two leagues.
    EXPECT_EQ(first, (std::vector<std::string>{"m1", "m3", "m5"}));
    EXPECT_EQ(second, (std::vector<std::string>{"m2", "m4", "m6"}));
}

// The scheduling policy and nice of this process's thread named `name` once one runs (nullopt: none
// within kWait). A thread takes its name after its priority (net::take_thread_role), so they are final.
std::optional<std::pair<int, int>> policy_and_nice_of(const std::string& name) {
    std::optional<std::pair<int, int>> found;
    hschool::test::eventually([&] {
        for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
            std::ifstream comm(task.path() / "comm");
            std::string line;
            if (!std::getline(comm, line) || line != name) continue;
            const pid_t tid = std::stoi(task.path().filename().string());
            errno = 0;
            const int nice = getpriority(PRIO_PROCESS, static_cast<id_t>(tid));
            const int policy = sched_getscheduler(tid);
            if (policy < 0 || errno != 0) continue;
            found = {policy, nice};
            return true;
        }
        return false;
    });
    return found;
}

TEST_F(Leagues, LeagueThreadsRunSchedIdleByDefaultAndAtNiceTenOnlyWhenAskedForLow) {
    keep_idle_scheduling = true;
    {
        auto h = hub();
        h->start();
        const auto idle = policy_and_nice_of("hns-league");
        ASSERT_TRUE(idle) << "no hns-league thread";
        EXPECT_EQ(idle->first, SCHED_IDLE);
        EXPECT_EQ(idle->second, kLeagueNice);
    }
    LeagueOptions low;
    low.idle_scheduling = false;
    auto h = hub(low);
    h->start();
    const auto nice_only = policy_and_nice_of("hns-league");
    ASSERT_TRUE(nice_only) << "no hns-league thread";
    EXPECT_EQ(nice_only->first, SCHED_OTHER);
    EXPECT_EQ(nice_only->second, kLeagueNice);
}

TEST_F(Leagues, DisabledModesAndBadVariantsAnswerAtOnce) {
    LeagueOptions options;
    options.disabled = HubError{409, "league-match-only", "drop-in"};
    auto h = hub(options);
    const auto refused = h->create(league_of({{"a", "builtin:idle"}, {"b", "builtin:burrow"}}, 1), "", "10.0.0.1");
    ASSERT_TRUE(std::holds_alternative<HubError>(refused));
    EXPECT_EQ(std::get<HubError>(refused).status, 409U);
    // A variant whose rooms cannot be built stops the league with the reason, on the league thread.
    auto g = hub();
    const auto s = created(*g, league_of({{"a", "builtin:idle"}, {"b", "builtin:burrow"}}, 1, "no-such-variant"));
    g->start();
    const auto ended = until_ended(*g, s.id);
    EXPECT_EQ(ended.state, "stopped");
    EXPECT_NE(ended.error.find("no-such-variant"), std::string::npos) << ended.error;
}

TEST(LeagueArchive, KindsAreListedAndTrimmedApart) {
    LeagueScratch scratch;
    auto opened = store::HnsArchive::open(scratch.path() / "a.db", scratch.path());
    ASSERT_TRUE(opened.has_value());
    auto archive = std::move(opened).value();
    for (int i = 1; i <= 5; ++i) {
        store::ArchivedMatch row;
        row.id = "m" + std::to_string(i);
        row.variant = "certification";
        row.finished_at_ms = 1000 + i;
        row.end_reason = "complete";
        row.results_json = "{}";
        row.summary_json = "{}";
        row.kind = i <= 2 ? store::kArchiveKindMatch : store::kArchiveKindLeague;
        ASSERT_TRUE(archive->save(row, "COWLDHNS"));
    }
    EXPECT_EQ(archive->list(10)->size(), 2U);
    EXPECT_EQ(archive->list(10, store::kArchiveKindLeague)->size(), 3U);
    EXPECT_EQ(*archive->trim(store::kArchiveKindLeague, 1), 2U);
    const auto league = *archive->list(10, store::kArchiveKindLeague);
    ASSERT_EQ(league.size(), 1U);
    EXPECT_EQ(league[0].id, "m5") << "the newest stays";
    EXPECT_FALSE(std::filesystem::exists(scratch.path() / "m3.cowldhns"));
    EXPECT_EQ(archive->list(10)->size(), 2U) << "ordinary matches untouched";
    EXPECT_EQ(*archive->max_numeric_id(), 5);
    store::ArchivedMatch odd;
    odd.id = "m9";
    odd.kind = "tournament";
    EXPECT_FALSE(archive->save(odd, "x"));
}

}  // namespace
}  // namespace hschool::server::hns
