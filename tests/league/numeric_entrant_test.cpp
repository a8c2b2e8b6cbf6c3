// Numeric players (issue 41) through the real binaries: `hschool-hns league` with a numeric:URL
// entrant plays it through hschool-server, each of its seats by our seat program, which posts every
// decision's 356 values and 107-entry legal mask to a policy service (the tests' loopback HTTP
// server) and plays the catalog order it picks. A failing, illegal or slow answer costs that turn
// only: the server's fallback plays it and the replay records it; the league finishes and every
// replay verifies. The `teacher` built-in plays the other side headless-equivalently.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <mutex>

#include "fake_model.hpp"
#include "league_test_support.hpp"
#include "sim/hns/replay.hpp"

using namespace league_test;
namespace hns = hschool::sim::hns;
namespace th = hschool::test::hns;

namespace {

// What the policy service did with each request, by seat.
struct Served {
    std::mutex mutex;
    std::map<int, int> answered, failed;
};

boost::json::object body_of(const th::ModelRequest& request) {
    boost::system::error_code ec;
    auto body = boost::json::parse(request.body, ec);
    return !ec && body.is_object() ? body.as_object() : boost::json::object{};
}

}  // namespace

TEST(LeagueNumericEntrant, APolicyServicePlaysItsSeatsAndItsFailuresCostOneTurnEach) {
    Served served;
    int seen = 0;
    std::mutex order;
    th::FakeModel policy([&](const th::ModelRequest& request) {
        const auto body = body_of(request);
        const int seat = body.contains("seat") && body.at("seat").is_int64() ? static_cast<int>(body.at("seat").as_int64()) : -1;
        int n = 0;
        {
            std::lock_guard lock(order);
            n = seen++;
        }
        std::vector<int> legal, illegal;
        if (const auto* mask = body.if_contains("action_mask"); mask && mask->is_array())
            for (std::size_t i = 0; i < mask->as_array().size(); ++i)
                (mask->as_array()[i] == true ? legal : illegal).push_back(static_cast<int>(i));
        th::ModelReply reply;
        const bool fail = n == 2 || n == 5 || n == 8 || n == 11;
        {
            std::lock_guard lock(served.mutex);
            ++(fail ? served.failed : served.answered)[seat];
        }
        if (n == 2) reply.status = 500;                                                 // a failing service
        else if (n == 5) reply.body = R"({"actions":[)" + std::to_string(illegal.empty() ? 107 : illegal.front()) + "]}";  // illegal
        else if (n == 8) reply.body = R"({"actions":[0,1]})";                          // the wrong count
        else if (n == 11) reply.delay = std::chrono::seconds(40);                      // slower than its deadline
        else reply.body = R"({"actions":[)" + std::to_string(legal.empty() ? 0 : legal[static_cast<std::size_t>(n) % legal.size()]) + "]}";
        return reply;
    });
    ::setenv("PLAYER_NUMERIC_KEY", "sekrit-41", 1);
    const fs::path dir = fresh_dir("numeric-entrant");
    const Ran r = run_tool({"league", "--quiet", "--out", dir.string(), "--jobs", "1", "--entrant", "n=numeric:" + policy.url() + "/actions",
                            "--entrant", "t=builtin:teacher", "--matches", "1", "--seed", "6"});
    ::unsetenv("PLAYER_NUMERIC_KEY");
    ASSERT_EQ(r.code, 0) << r.output;
    const auto table = boost::json::parse(read_file(dir / "league.json")).as_object();
    EXPECT_EQ(table.at("state"), "finished");
    EXPECT_NE(r.output.find("n: programs ended 3 x exit 0"), std::string::npos) << r.output;

    const auto requests = policy.requests();
    ASSERT_GT(requests.size(), 12u);
    std::string session;
    for (const auto& request : requests) {
        EXPECT_EQ(request.method, "POST");
        EXPECT_EQ(request.path, "/actions");
        EXPECT_EQ(request.headers.at("authorization"), "Bearer sekrit-41");
        EXPECT_EQ(request.headers.at("content-type"), "application/json");
        const auto body = body_of(request);
        ASSERT_EQ(body.at("values").as_array().size(), 356u);
        ASSERT_EQ(body.at("action_mask").as_array().size(), 107u);
        EXPECT_EQ(body.at("action_mask").as_array()[0], true);  // watch
        EXPECT_GE(body.at("decision_id").as_int64(), 0);
        EXPECT_EQ(body.at("session").as_string().subview().substr(0, 4), "hns:");
    }

    // One match (the pairing once); its replay: the numeric seats' fallbacks are exactly the failed
    // answers, each seat's other turns are the service's orders; the teacher's seats play scripted.
    const auto& rows = table.at("results").as_array();
    ASSERT_EQ(rows.size(), 1u);
    const fs::path replay = dir / std::string(rows[0].at("replay").as_string());
    const Ran verify = run_tool({"verify", replay.string()});
    EXPECT_EQ(verify.code, 0) << verify.output;
    const auto data = hns::parse_replay(read_file(replay));
    ASSERT_TRUE(data) << data.error;
    std::map<int, int> fallbacks, external;
    std::map<int, std::string> policies;
    for (const auto& chat : data->chats) {
        if (chat.message.rfind("{\"k\":", 0) != 0) continue;
        const auto record = boost::json::parse(chat.message).as_object();
        const int slot = record.contains("slot") ? static_cast<int>(record.at("slot").as_int64()) : -1;
        if (record.at("k") == "register") policies[slot] = std::string(record.at("policy").as_string());
        if (record.at("k") != "directive") continue;
        if (record.at("source") == "fallback") ++fallbacks[slot];
        if (record.at("source") == "external") ++external[slot];
    }
    int numeric_seats = 0;
    for (int s = 0; s < 6; ++s) {
        const std::string entrant(rows[0].at("seats").as_array()[static_cast<std::size_t>(s)].as_string());
        if (entrant != "n") {
            EXPECT_EQ(policies[s], "teacher") << s;
            EXPECT_EQ(fallbacks[s], 0) << s;
            continue;
        }
        ++numeric_seats;
        EXPECT_EQ(policies[s], "n") << s;  // the seat program labels itself with the entrant's name
        EXPECT_EQ(fallbacks[s], served.failed[s]) << "slot " << s;
        EXPECT_EQ(external[s], served.answered[s]) << "slot " << s;
    }
    EXPECT_EQ(numeric_seats, 3);
}
