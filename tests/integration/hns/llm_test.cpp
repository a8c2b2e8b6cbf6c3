// Prompt seats against the real server and a fake model sidecar on loopback (issue 21): one
// parallel batch per turn, the model's orders drive the cogs, every failure cause leaves its
// fallback record, 401 turns the client off, 429 spends no retry, a slow first attempt is retried
// once and a late answer ignored, and the prompt appears in no file, log or answer of the server.
#include <atomic>
#include <filesystem>
#include <mutex>
#include <set>

#include "fake_model.hpp"
#include "hns_client.hpp"
#include "seat_bot.hpp"
#include "sim/hns/replay.hpp"
#include "sim/hns/verify.hpp"

namespace hschool::test::hns {
namespace {

constexpr const char* kPrompt = "PROMPT-7f3a: hide in the north pocket and never shout";

std::int64_t at_int(const json::object& o, const char* key) { return o.at(key).as_int64(); }

// One server whose model sidecar is `model` (or none), and a certification match on it with
// `prompt_seats` prompt seats (slots 0..n-1; the rest are the server's burrow bots).
class PromptMatch {
public:
    PromptMatch(const FakeModel* model, int prompt_seats, const std::string& config = R"({"turnSpacingMs":0})",
                std::vector<std::pair<std::string, std::string>> env = {})
        : server(hns_server_args(dir), launch_for(model, std::move(env))) {
        if (!server.started()) return;
        id = create_match(server.port(), R"({"variant":"certification","bots":)" + std::to_string(6 - prompt_seats) +
                                             R"(,"config":)" + config + "}");
        for (int s = 0; s < prompt_seats && !id.empty(); ++s) {
            auto ws = open_socket(server.port(), "/player?match=" + id + "&slot=" + std::to_string(s) + "&name=p" + std::to_string(s));
            if (!ws || !ws->send(text_message(std::string(R"({"type":"register","policy":"llm-test","prompt":")") + kPrompt + "\"}")))
                return;
            bots.push_back(std::make_unique<SeatBot>(std::move(ws), s, [](int, int, int) { return std::string("{}"); }));
        }
    }
    bool ready() const { return server.started() && !id.empty(); }
    // Plays the match to its end; the finished match's REST object.
    json::object finish() {
        for (auto& bot : bots) bot->wait();
        json::object finished;
        eventually([&] {
            auto m = match_json(server.port(), id);
            if (!m.contains("phase") || m.at("phase") != "finished") return false;
            finished = std::move(m);
            return true;
        });
        return finished;
    }
    std::string replay() { return download_replay(server.port(), id); }

    TempDir dir;
    ServerProcess server;
    std::string id;
    std::vector<std::unique_ptr<SeatBot>> bots;

private:
    static ServerProcess::Launch launch_for(const FakeModel* model, std::vector<std::pair<std::string, std::string>> env) {
        ServerProcess::Launch launch;
        launch.env = std::move(env);
        if (model) launch.env.emplace_back("COWORLD_LLM_ENDPOINT", model->url());
        return launch;
    }
};

const json::array& results_array(const json::object& match, const char* key) { return match.at("results").as_object().at(key).as_array(); }

// Every file under `dir`, the replay, the REST and the server's log: none holds `secret`.
void expect_nowhere(PromptMatch& m, const std::string& secret) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(m.dir.path())) {
        if (!entry.is_regular_file()) continue;
        EXPECT_EQ(read_file(entry.path()).find(secret), std::string::npos) << entry.path();
    }
    EXPECT_EQ(m.replay().find(secret), std::string::npos);
    EXPECT_EQ(http_request(m.server.port(), "GET", "/api/hns/matches/" + m.id).body.find(secret), std::string::npos);
    EXPECT_EQ(http_request(m.server.port(), "GET", "/api/hns/matches").body.find(secret), std::string::npos);
    EXPECT_EQ(m.server.output().find(secret), std::string::npos);
}

TEST(HnsPromptSeats, SixSeatsAskInOneParallelBatchAndPlayTheModelsOrders) {
    // Every request is held until all the turn's live seats are asking: 3 hiders in prep, all 6 in
    // the hunt. Held sequentially, a batch could never reach that count.
    FakeModel model([](const ModelRequest& r) {
        ModelReply reply;
        const bool prep = r.view.contains("phase") && r.view.at("phase") == "prep";
        reply.hold_until_in_flight = prep ? 3 : 6;
        const std::string text = "```json\n{\"intent\":\"watch\",\"to\":[" + std::to_string(100 + r.slot) +
                                 ",200],\"say\":\"s" + std::to_string(r.slot) + "\",\"notes\":\"note" + std::to_string(r.slot) + "\"}\n```";
        reply.body = messages_answer(text);
        return reply;
    });
    ASSERT_NE(model.port(), 0);
    PromptMatch m(&model, 6, R"({"turnSpacingMs":0,"maxOutputTokens":333})");
    ASSERT_TRUE(m.ready()) << m.server.output();
    const auto match = m.finish();
    ASSERT_FALSE(match.empty());
    EXPECT_EQ(model.max_in_flight(), 6);

    const auto requests = model.requests();
    ASSERT_EQ(requests.size(), 48U);  // 8 turns per seat, no retries
    std::set<int> slots;
    for (const auto& r : requests) {
        slots.insert(r.slot);
        EXPECT_EQ(r.method, "POST");
        EXPECT_EQ(r.path, "/v1/messages");
        EXPECT_EQ(r.headers.at("anthropic-version"), "2023-06-01");
        EXPECT_EQ(r.headers.at("content-type"), "application/json");
        const auto body = parse(r.body).as_object();
        EXPECT_EQ(body.at("model"), "anthropic/claude-haiku-4.5");
        EXPECT_EQ(body.at("max_tokens").as_int64(), 333);
        EXPECT_FALSE(std::string(body.at("system").as_string()).empty());
        EXPECT_NE(r.user.find(kPrompt), std::string::npos);  // the operator's guidance...
        ASSERT_FALSE(r.view.empty());                         // ...and the seat's own view
        EXPECT_EQ(std::string(r.view.at("you").as_string()).find(r.view.at("role") == "hider" ? "HIDER-" : "SEEKER-"), 0U);
        EXPECT_TRUE(r.view.contains("your_notes"));
        EXPECT_FALSE(r.retry);
    }
    EXPECT_EQ(slots, (std::set<int>{0, 1, 2, 3, 4, 5}));
    // A seat's notes come back to it (only) next turn.
    bool notes_echoed = false;
    for (const auto& r : requests)
        if (r.view.at("your_notes").as_string() == "note" + std::to_string(r.slot)) notes_echoed = true;
    EXPECT_TRUE(notes_echoed);

    // The cogs did what the model said: every directive is the model's, with its target and shout.
    const auto replay = m.replay();
    const auto directives = chat_records(replay, "directive");
    ASSERT_EQ(directives.size(), 48U);
    for (const auto& d : directives) {
        EXPECT_EQ(d.at("source"), "llm");
        EXPECT_EQ(d.at("intent"), "watch");
        EXPECT_EQ(d.at("to").as_array()[0].as_int64(), 100 + at_int(d, "slot"));
        EXPECT_EQ(d.at("say").as_string(), "s" + std::to_string(at_int(d, "slot")));
    }
    EXPECT_TRUE(chat_records(replay, "fallback").empty());
    for (int s = 0; s < 6; ++s) {
        EXPECT_EQ(results_array(match, "llmTurns")[s].as_int64(), 8) << s;
        EXPECT_EQ(results_array(match, "fallbackTurns")[s].as_int64(), 0) << s;
        EXPECT_EQ(results_array(match, "policyKinds")[s], "llm") << s;
    }
    // The replay re-steps with no model: the answers are in its masks, and it counts the same turns.
    auto data = sim::hns::parse_replay(replay);
    ASSERT_TRUE(data);
    const auto report = sim::hns::verify_replay(*data);
    EXPECT_TRUE(report.ok) << report.message();
    const auto rederived = parse(report.results).as_object();
    EXPECT_EQ(rederived.at("llmTurns"), match.at("results").as_object().at("llmTurns"));
    expect_nowhere(m, kPrompt);
}

// The answer for (game, turn, retry) of seat 0, from a table.
using Table = std::map<std::tuple<int, int, bool>, ModelReply>;
ModelReply from(const Table& table, const ModelRequest& r) {
    const int game = r.view.contains("game") ? static_cast<int>(r.view.at("game").as_int64()) : 0;
    const int turn = r.view.contains("turn") ? static_cast<int>(r.view.at("turn").as_int64()) : 0;
    auto it = table.find({game, turn, r.retry});
    if (it != table.end()) return it->second;
    return ModelReply{200, messages_answer(R"({"intent":"hide"})"), {}, 0};
}

// The fallback records of seat 0 for (game, turn), as "attempt:cause:detail-prefix" lines.
std::vector<std::string> fallbacks_of(const std::string& replay, int game, int turn) {
    std::vector<std::string> out;
    for (const auto& f : chat_records(replay, "fallback"))
        if (at_int(f, "slot") == 0 && at_int(f, "game") == game && at_int(f, "turn") == turn)
            out.push_back(std::to_string(at_int(f, "attempt")) + ":" + std::string(f.at("cause").as_string()) + ":" +
                          std::string(f.at("detail").as_string()));
    return out;
}

std::string source_of(const std::string& replay, int game, int turn) {
    for (const auto& d : chat_records(replay, "directive"))
        if (at_int(d, "slot") == 0 && at_int(d, "game") == game && at_int(d, "turn") == turn) return std::string(d.at("source").as_string());
    return "<none>";
}

TEST(HnsPromptSeats, EveryFailureCauseLeavesItsFallbackRecord) {
    const Table table = {
        // Game 1 (seat 0 hides: turns 0..4). Turn 0: an HTTP error, then prose on the retry.
        {{1, 0, false}, {500, R"({"type":"error","error":{"type":"overloaded_error"}})", {}, 0}},
        {{1, 0, true}, {200, messages_answer("I would rather hide behind the crate."), {}, 0}},
        // Turn 1: a refusal, then a reply cut at max_tokens before any JSON.
        {{1, 1, false}, {200, messages_answer("", "refusal"), {}, 0}},
        {{1, 1, true}, {200, messages_answer("Let me consider the room", "max_tokens"), {}, 0}},
        // Turn 2: throttled — no retry is spent.
        {{1, 2, false}, {429, R"({"type":"error","error":{"type":"rate_limit_error"}})", {}, 0}},
        // Turn 3: a body that is not JSON, then a usable order.
        {{1, 3, false}, {200, "<html>bad gateway</html>", {}, 0}},
        {{1, 3, true}, {200, messages_answer(R"({"intent":"lock","object":"nope","say":"x"})"), {}, 0}},
    };
    FakeModel model([&](const ModelRequest& r) { return from(table, r); });
    PromptMatch m(&model, 1);
    ASSERT_TRUE(m.ready()) << m.server.output();
    const auto match = m.finish();
    ASSERT_FALSE(match.empty());
    const auto replay = m.replay();
    EXPECT_EQ(fallbacks_of(replay, 1, 0),
              (std::vector<std::string>{R"(1:parse_error:llm error 500: {"type":"error","error":{"type":"overloaded_error"}})",
                                        "2:parse_error:no JSON object in reply: I would rather hide behind the crate.",
                                        "2:parse_error:the seat played the burrow order"}));
    EXPECT_EQ(fallbacks_of(replay, 1, 1), (std::vector<std::string>{"1:parse_error:llm refusal",
                                                                     "2:parse_error:reply cut off at max_tokens before any JSON: Let me consider the room",
                                                                     "2:parse_error:the seat played the burrow order"}));
    EXPECT_EQ(fallbacks_of(replay, 1, 2),
              (std::vector<std::string>{R"(1:throttled:llm throttled (429): {"type":"error","error":{"type":"rate_limit_error"}})",
                                        "2:throttled:the seat played the burrow order"}));
    EXPECT_EQ(fallbacks_of(replay, 1, 3), (std::vector<std::string>{"1:parse_error:llm answer is not a JSON object: <html>bad gateway</html>"}));
    EXPECT_EQ(source_of(replay, 1, 0), "fallback");
    EXPECT_EQ(source_of(replay, 1, 2), "fallback");
    EXPECT_EQ(source_of(replay, 1, 3), "llm");  // the retry's order (rejected: it keeps the standing one)
    EXPECT_EQ(source_of(replay, 1, 4), "llm");
    // 429: one request that turn, not two.
    int turn2 = 0;
    for (const auto& r : model.requests())
        if (r.slot == 0 && r.view.at("game").as_int64() == 1 && r.view.at("turn").as_int64() == 2) ++turn2;
    EXPECT_EQ(turn2, 1);
    EXPECT_EQ(results_array(match, "fallbackTurns")[0].as_int64(), 3);
    EXPECT_EQ(results_array(match, "llmTurns")[0].as_int64(), 5);
    EXPECT_EQ(results_array(match, "ordersRejected")[0].as_int64(), 1);
    // The re-stepped replay counts the same turns from its directives.
    auto data = sim::hns::parse_replay(replay);
    ASSERT_TRUE(data);
    const auto rederived = parse(sim::hns::verify_replay(*data).results).as_object();
    EXPECT_EQ(rederived.at("fallbackTurns").as_array()[0].as_int64(), 3);
    EXPECT_EQ(rederived.at("llmTurns").as_array()[0].as_int64(), 5);
}

TEST(HnsPromptSeats, ASlowFirstAttemptIsRetriedOnceAndALateAnswerIsIgnored) {
    const Table table = {
        // Turn 0: the first answer comes after attempt1Ms (and says move_to); the retry answers.
        {{1, 0, false}, {200, messages_answer(R"({"intent":"move_to","to":[1,1]})"), 1500ms, 0}},
        {{1, 0, true}, {200, messages_answer(R"({"intent":"watch","to":[300,300]})"), {}, 0}},
        // Turn 1: both attempts are too slow.
        {{1, 1, false}, {200, messages_answer(R"({"intent":"move_to","to":[1,1]})"), 1500ms, 0}},
        {{1, 1, true}, {200, messages_answer(R"({"intent":"move_to","to":[1,1]})"), 1500ms, 0}},
    };
    FakeModel model([&](const ModelRequest& r) { return from(table, r); });
    PromptMatch m(&model, 1, R"({"turnSpacingMs":0,"turnBudgetMs":1200,"attempt1Ms":400,"retryMs":400})");
    ASSERT_TRUE(m.ready()) << m.server.output();
    const auto match = m.finish();
    ASSERT_FALSE(match.empty());
    const auto replay = m.replay();
    EXPECT_EQ(fallbacks_of(replay, 1, 0), (std::vector<std::string>{"1:timeout:no answer before the attempt's deadline"}));
    EXPECT_EQ(fallbacks_of(replay, 1, 1), (std::vector<std::string>{"1:timeout:no answer before the attempt's deadline",
                                                                     "2:timeout:no answer before the attempt's deadline",
                                                                     "2:parse_error:the seat played the burrow order"}));
    for (const auto& d : chat_records(replay, "directive")) {
        if (at_int(d, "slot") != 0 || at_int(d, "game") != 1) continue;
        if (at_int(d, "turn") == 0) {  // the retry's order, not the late first answer
            EXPECT_EQ(d.at("source"), "llm");
            EXPECT_EQ(d.at("intent"), "watch");
            EXPECT_EQ(d.at("to").as_array()[0].as_int64(), 300);
        }
        if (at_int(d, "turn") == 1) {
            EXPECT_EQ(d.at("source"), "fallback");
        }
    }
}

TEST(HnsPromptSeats, AnAuthFailureTurnsTheModelOffForTheRestOfTheMatch) {
    FakeModel model([](const ModelRequest&) { return ModelReply{401, R"({"error":"invalid key"})", {}, 0}; });
    PromptMatch m(&model, 1);
    ASSERT_TRUE(m.ready()) << m.server.output();
    const auto match = m.finish();
    ASSERT_FALSE(match.empty());
    EXPECT_EQ(model.requests().size(), 1U);  // no retry, and no later turn asks
    const auto replay = m.replay();
    EXPECT_EQ(fallbacks_of(replay, 1, 0), (std::vector<std::string>{R"(1:parse_error:llm auth failed (401): {"error":"invalid key"})",
                                                                     "2:no_credentials:the seat played the burrow order"}));
    EXPECT_EQ(fallbacks_of(replay, 1, 1).size(), 1U);
    EXPECT_EQ(fallbacks_of(replay, 1, 1)[0].rfind("1:no_credentials:", 0), 0U);
    EXPECT_EQ(results_array(match, "fallbackTurns")[0].as_int64(), 8);
    EXPECT_EQ(results_array(match, "llmTurns")[0].as_int64(), 0);
}

TEST(HnsPromptSeats, WithNoCredentialsEveryTurnFallsBackAtOnce) {
    PromptMatch m(nullptr, 6);
    ASSERT_TRUE(m.ready()) << m.server.output();
    const auto match = m.finish();
    ASSERT_FALSE(match.empty());
    const auto replay = m.replay();
    const auto fallbacks = chat_records(replay, "fallback");
    ASSERT_EQ(fallbacks.size(), 48U);  // one per seat-turn, attempt 1
    for (const auto& f : fallbacks) {
        EXPECT_EQ(f.at("cause"), "no_credentials");
        EXPECT_EQ(at_int(f, "attempt"), 1);
    }
    for (const auto& d : chat_records(replay, "directive")) {
        EXPECT_EQ(d.at("source"), "fallback");
        EXPECT_EQ(at_int(d, "latency_ms"), 0);
    }
    for (int s = 0; s < 6; ++s) EXPECT_EQ(results_array(match, "fallbackTurns")[s].as_int64(), 8);
    expect_nowhere(m, kPrompt);
}

TEST(HnsPromptSeats, TheBudgetGuardStopsAskingWhenTheWallClockIsNearlySpent) {
    // 2 x 16 s of turn budget do not fit in 30 s: the guard fires at the first turn.
    FakeModel model([](const ModelRequest&) { return ModelReply{200, messages_answer(R"({"intent":"hide"})"), {}, 0}; });
    PromptMatch m(&model, 1, R"({"turnSpacingMs":0,"wallClockBudgetSeconds":30})");
    ASSERT_TRUE(m.ready()) << m.server.output();
    const auto match = m.finish();
    ASSERT_FALSE(match.empty());
    EXPECT_TRUE(model.requests().empty());
    const auto replay = m.replay();
    const auto guards = chat_records(replay, "budget_guard");
    ASSERT_EQ(guards.size(), 1U);
    EXPECT_EQ(at_int(guards[0], "turn"), 0);
    EXPECT_LE(at_int(guards[0], "remaining_s"), 30);
    EXPECT_EQ(fallbacks_of(replay, 1, 0).at(0).rfind("1:budget_guard:", 0), 0U);
    EXPECT_EQ(results_array(match, "fallbackTurns")[0].as_int64(), 8);
}

TEST(HnsPromptSeats, AnUnreachableSidecarIsATransportError) {
    PromptMatch m(nullptr, 1, R"({"turnSpacingMs":0})", {{"COWORLD_LLM_ENDPOINT", "http://127.0.0.1:" + std::to_string(free_port())}});
    ASSERT_TRUE(m.ready()) << m.server.output();
    ASSERT_FALSE(m.finish().empty());
    const auto first = fallbacks_of(m.replay(), 1, 0);
    ASSERT_EQ(first.size(), 3U);
    EXPECT_EQ(first[0].rfind("1:transport_error:llm transport: ", 0), 0U) << first[0];
    EXPECT_EQ(first[1].rfind("2:transport_error:", 0), 0U) << first[1];
}

TEST(HnsPromptSeats, BedrockSendsItsTokenAndRotatesItsModelWhenThrottled) {
    const std::string token = "bedrock-token-51c2";
    std::atomic<int> asked{0};
    FakeModel model([&](const ModelRequest&) {
        if (asked++ == 0) return ModelReply{429, "{}", {}, 0};
        return ModelReply{200, messages_answer(R"({"intent":"hide"})"), {}, 0};
    });
    PromptMatch m(nullptr, 1, R"({"turnSpacingMs":0})",
                  {{"AWS_ENDPOINT_URL_BEDROCK_RUNTIME", model.url()}, {"AWS_BEARER_TOKEN_BEDROCK", token}});
    ASSERT_TRUE(m.ready()) << m.server.output();
    const auto match = m.finish();
    ASSERT_FALSE(match.empty());
    const auto requests = model.requests();
    ASSERT_GE(requests.size(), 2U);
    EXPECT_EQ(requests[0].path, "/model/us.anthropic.claude-haiku-4-5-20251001-v1:0/invoke");
    EXPECT_EQ(requests[1].path, "/model/us.anthropic.claude-sonnet-4-5-20250929-v1:0/invoke");  // rotated, and retried
    EXPECT_TRUE(requests[1].retry);
    EXPECT_EQ(requests[0].headers.at("authorization"), "Bearer " + token);
    EXPECT_EQ(requests[0].headers.count("x-coworld-player-slot"), 0U);
    EXPECT_EQ(parse(requests[0].body).as_object().at("anthropic_version"), "bedrock-2023-05-31");
    EXPECT_EQ(results_array(match, "llmTurns")[0].as_int64(), 8);
    // /health and the startup log say which transport is live, never the token.
    EXPECT_EQ(parse(http_request(m.server.port(), "GET", "/health").body).as_object().at("llm"), "bedrock");
    EXPECT_NE(m.server.output().find("event=hns_llm transport=bedrock"), std::string::npos);
    expect_nowhere(m, token);
}

}  // namespace
}  // namespace hschool::test::hns
