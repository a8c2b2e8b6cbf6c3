// Prompt entrants of a server's league asking a language model (issue 33 on issue 21's client):
// the league hub in process, a real archive, and a fake model sidecar on loopback. Each decision
// turn the prompt seats ask in one batch, the model's orders are played and recorded, failures fall
// back to burrow with their records, the table counts both, and a stop ends a match that is
// waiting for the model.
#include <future>
#include <set>

#include "fake_model.hpp"
#include "league_fixture.hpp"
#include "sim/hns/replay.hpp"
#include "sim/hns/verify.hpp"

namespace hschool::server::hns {
namespace {

using namespace league_test;
using test::hns::FakeModel;
using test::hns::ModelReply;
using test::hns::ModelRequest;
using test::hns::messages_answer;

constexpr const char* kLeaguePrompt = "PROMPT-league-5c1d: hide in the far pocket, sweep the hall as a seeker";

LlmSettings sidecar(const FakeModel& model) {
    const std::string url = model.url();
    return read_llm_settings([&](const char* name) -> const char* { return std::string_view(name) == "COWORLD_LLM_ENDPOINT" ? url.c_str() : nullptr; },
                             [](const std::string&) { return std::nullopt; });
}

struct ArchivedLeagueMatch {
    json::object row;  // the table's results[] row
    std::string replay;
};

std::vector<ArchivedLeagueMatch> archived(store::HnsArchive& archive, const json::object& table) {
    std::vector<ArchivedLeagueMatch> out;
    for (const auto& r : table.at("results").as_array()) {
        const std::string id(r.as_object().at("replay").as_string());
        const auto bytes = archive.replay(id);
        out.push_back({r.as_object(), bytes && *bytes ? **bytes : std::string()});
    }
    return out;
}

// The replay's chat records of one kind ("directive", "fallback"), for the given slots.
std::vector<json::object> records_of(const std::string& replay, std::string_view kind, const std::set<int>& slots) {
    std::vector<json::object> out;
    auto data = sim::hns::parse_replay(replay);
    if (!data) return out;
    for (const auto& chat : data->chats) {
        boost::system::error_code ec;
        auto value = json::parse(chat.message, ec);
        if (ec || !value.is_object()) continue;
        const auto& o = value.as_object();
        if (o.contains("k") && o.at("k").is_string() && o.at("k").as_string() == kind && o.contains("slot") && slots.count(static_cast<int>(o.at("slot").as_int64())))
            out.push_back(o);
    }
    return out;
}

std::set<int> slots_of(const json::object& row, std::string_view entrant) {
    std::set<int> out;
    for (int s = 0; s < 6; ++s)
        if (row.at("seats").as_array()[s].as_string() == entrant) out.insert(s);
    return out;
}

const json::object& entrant_row(const json::object& table, std::string_view name) {
    for (const auto& e : table.at("entrants").as_array())
        if (e.as_object().at("name").as_string() == name) return e.as_object();
    static const json::object none;
    ADD_FAILURE() << "no entrant " << name;
    return none;
}

TEST_F(Leagues, PromptEntrantsAskTheModelEveryTurnAndPlayItsOrders) {
    FakeModel model([](const ModelRequest& r) {
        ModelReply reply;
        reply.body = messages_answer("{\"intent\":\"watch\",\"to\":[" + std::to_string(100 + r.slot) + ",200],\"say\":\"s" +
                                     std::to_string(r.slot) + "\",\"notes\":\"n" + std::to_string(r.slot) + "\"}");
        return reply;
    });
    ASSERT_NE(model.port(), 0);
    LeagueOptions options;
    options.llm = sidecar(model);
    ASSERT_EQ(options.llm.transport, LlmTransport::Sidecar);
    auto h = hub(options);
    const auto s = created(*h, league_of({{"p", "prompt"}, {"b", "builtin:burrow"}}, 2, "certification", {{"p", kLeaguePrompt}}));
    h->start();
    const auto done = until_ended(*h, s.id);
    ASSERT_EQ(done.state, "finished") << done.error;
    ASSERT_EQ(done.played, 2);
    const auto table = json::parse(*done.table).as_object();

    // Every request is one of p's seats asking, with the entrant's prompt and the seat's own view.
    const auto requests = model.requests();
    ASSERT_FALSE(requests.empty());
    for (const auto& r : requests) {
        EXPECT_NE(r.user.find(kLeaguePrompt), std::string::npos);
        ASSERT_FALSE(r.view.empty());
        EXPECT_TRUE(r.view.contains("your_notes"));
        EXPECT_GE(r.slot, 0);
        EXPECT_FALSE(r.retry);
    }
    // Every directive of p's seats is the model's order; the burrow seats' are scripted; replays verify.
    int llm_directives = 0;
    for (const auto& match : archived(*archive, table)) {
        ASSERT_FALSE(match.replay.empty());
        const auto mine = slots_of(match.row, "p");
        ASSERT_EQ(mine.size(), 3U);
        for (const auto& d : records_of(match.replay, "directive", mine)) {
            EXPECT_EQ(d.at("source"), "llm");
            EXPECT_EQ(d.at("intent"), "watch");
            EXPECT_EQ(d.at("to").as_array()[0].as_int64(), 100 + d.at("slot").as_int64());
            EXPECT_EQ(d.at("say").as_string(), "s" + std::to_string(d.at("slot").as_int64()));
            ++llm_directives;
        }
        EXPECT_TRUE(records_of(match.replay, "fallback", mine).empty());
        std::set<int> theirs;
        for (int slot = 0; slot < 6; ++slot)
            if (!mine.count(slot)) theirs.insert(slot);
        for (const auto& d : records_of(match.replay, "directive", theirs)) EXPECT_EQ(d.at("source"), "scripted");
        auto data = sim::hns::parse_replay(match.replay);
        ASSERT_TRUE(data);
        const auto report = sim::hns::verify_replay(*data);
        EXPECT_TRUE(report.ok) << report.message();
        // The replay's own count of model turns, re-derived with no model, is the seats'.
        const auto rederived = json::parse(report.results).as_object();
        int model_turns = 0;
        for (const int slot : mine) model_turns += static_cast<int>(rederived.at("llmTurns").as_array()[slot].as_int64());
        EXPECT_GT(model_turns, 0);
        for (const int slot : mine) {
            const std::string note(match.row.at("programs").as_array()[slot].as_string());
            EXPECT_EQ(note.rfind("prompt model ", 0), 0U) << note;
        }
        for (const int slot : theirs) EXPECT_TRUE(match.row.at("programs").as_array()[slot].is_null());
    }
    EXPECT_EQ(llm_directives, static_cast<int>(requests.size())) << "one request per prompt seat-turn, no retries";
    const auto& p = entrant_row(table, "p");
    EXPECT_EQ(p.at("modelTurns").as_int64(), llm_directives);
    EXPECT_EQ(p.at("fallbackTurns").as_int64(), 0);
    EXPECT_FALSE(p.contains("fallback")) << "a model was asked";
    // The prompt reaches the model only: not the table, the summaries, the archive's rows or replays.
    EXPECT_EQ(done.table->find(kLeaguePrompt), std::string::npos);
    const auto rows = archive->list(100, store::kArchiveKindLeague);
    ASSERT_TRUE(rows.has_value());
    for (const auto& row : *rows) {
        EXPECT_EQ(row.summary_json.find(kLeaguePrompt), std::string::npos);
        EXPECT_EQ(row.results_json.find(kLeaguePrompt), std::string::npos);
    }
    for (const auto& match : archived(*archive, table)) EXPECT_EQ(match.replay.find(kLeaguePrompt), std::string::npos);
}

TEST_F(Leagues, AModelThatFailsLeavesFallbackRecordsAndTheTableCountsThem) {
    // A server error on the first attempt; on the retry, prose with no order in it.
    FakeModel model([](const ModelRequest& r) {
        if (!r.retry) return ModelReply{500, R"({"type":"error","error":{"type":"overloaded_error"}})", {}, 0};
        return ModelReply{200, messages_answer("I would rather hide behind the crate."), {}, 0};
    });
    ASSERT_NE(model.port(), 0);
    LeagueOptions options;
    options.llm = sidecar(model);
    auto h = hub(options);
    const auto s = created(*h, league_of({{"p", "prompt"}, {"i", "builtin:idle"}}, 1));
    h->start();
    const auto done = until_ended(*h, s.id);
    ASSERT_EQ(done.state, "finished") << done.error;
    const auto table = json::parse(*done.table).as_object();
    int fallback_directives = 0;
    for (const auto& match : archived(*archive, table)) {
        const auto mine = slots_of(match.row, "p");
        for (const auto& d : records_of(match.replay, "directive", mine)) {
            EXPECT_EQ(d.at("source"), "fallback");
            ++fallback_directives;
        }
        // Each turn of each seat: attempt 1's cause, then attempt 2's.
        std::set<std::string> causes;
        for (const auto& f : records_of(match.replay, "fallback", mine)) causes.emplace(f.at("cause").as_string());
        EXPECT_TRUE(causes.count("parse_error")) << "the retry's prose";
        for (const int slot : mine) {
            const std::string note(match.row.at("programs").as_array()[slot].as_string());
            EXPECT_EQ(note.rfind("prompt fallback ", 0), 0U) << note;
            for (const auto& cause : causes) EXPECT_NE(note.find(cause), std::string::npos) << note << " lacks " << cause;
        }
        auto data = sim::hns::parse_replay(match.replay);
        ASSERT_TRUE(data);
        EXPECT_TRUE(sim::hns::verify_replay(*data).ok);
    }
    ASSERT_GT(fallback_directives, 0);
    EXPECT_EQ(model.requests().size(), 2U * static_cast<std::size_t>(fallback_directives)) << "each turn asked twice: once, then the retry";
    const auto& p = entrant_row(table, "p");
    EXPECT_EQ(p.at("modelTurns").as_int64(), 0);
    EXPECT_EQ(p.at("fallbackTurns").as_int64(), fallback_directives);
}

TEST_F(Leagues, StoppingALeagueEndsTheMatchWaitingForTheModel) {
    // The model never answers while the test runs (held ten minutes, released when the fake goes).
    FakeModel model([](const ModelRequest&) { return ModelReply{200, messages_answer(R"({"intent":"hide"})"), std::chrono::minutes(10), 0}; });
    ASSERT_NE(model.port(), 0);
    LeagueOptions options;
    options.llm = sidecar(model);
    options.max_running_per_address = 0;
    auto h = hub(options);
    const auto waiting = created(*h, league_of({{"p", "prompt"}, {"b", "builtin:burrow"}}, 3));
    h->start();
    for (int i = 0; i < 6000 && model.in_flight() == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_GT(model.in_flight(), 0) << "the league's first turn is asking";
    EXPECT_FALSE(h->remove(waiting.id, "").has_value());
    // The one league thread is free again only once the waiting match has ended: a league of
    // built-ins then finishes. Left asking, the match would wait ~10 s a turn for 10 turns.
    const auto next = created(*h, league_of({{"a", "builtin:idle"}, {"b", "builtin:burrow"}}, 1));
    const auto done = until_ended(*h, next.id, std::chrono::seconds(30));
    EXPECT_EQ(done.state, "finished");
    EXPECT_EQ(h->get(waiting.id)->played, 0) << "the stopped league keeps nothing that was still being played";
    // And a server stop returns though the model still holds its answers.
    auto stopped = std::async(std::launch::async, [&] { h->stop(); });
    EXPECT_EQ(stopped.wait_for(std::chrono::seconds(60)), std::future_status::ready);
}

}  // namespace
}  // namespace hschool::server::hns
