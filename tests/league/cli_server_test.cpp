// `hschool-hns league` with prompt: and cmd: entrants, through the real binaries: such matches play
// through hschool-server in drop-in mode, each seat by a program; a real seat program ends "exit 0",
// one that crashes or hangs is recorded as such and burrow stands in, the league always finishes;
// a prompt entrant with no credentials falls back and the table says so; every replay verifies and
// carries the table's scores by slot; built-in-only matches stay headless.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <set>

#include "league_test_support.hpp"
#include "sim/hns/replay.hpp"

using namespace league_test;
namespace hns = hschool::sim::hns;

namespace {

// A number no other process on the box sleeps for: the test looks for leftovers by it.
constexpr const char* kHangSeconds = "987654";
constexpr const char* kShortGrace = "1";  // s: `sleep` never dials, a shorter wait proves the same

std::string hns_tool() { return HSCHOOL_HNS_TOOL; }

struct ServerLeague {
    int code = -1;
    std::string output;
    boost::json::object table;
    fs::path dir;
};

ServerLeague server_league(const std::string& name, std::vector<std::string> args) {
    ServerLeague out;
    out.dir = fresh_dir(name);
    args.insert(args.begin(), {"league", "--quiet", "--out", out.dir.string(), "--jobs", "2"});
    const Ran r = run_tool(args);
    out.code = r.code;
    out.output = r.output;
    out.table = boost::json::parse(read_file(out.dir / "league.json")).as_object();
    return out;
}

// The replay's own account by slot: scores, register policies, directive sources, buttons pressed.
struct ServedReplay {
    std::array<double, 6> scores{};
    std::array<std::string, 6> policies;
    std::array<std::set<std::string>, 6> sources;
    std::array<int, 6> presses{};
};

ServedReplay served_replay(const fs::path& file) {
    ServedReplay out;
    const auto data = hns::parse_replay(read_file(file));
    EXPECT_TRUE(data) << file << ": " << data.error;
    if (!data) return out;
    std::map<int, int> slotOf;
    for (const auto& j : data->joins) slotOf.emplace(j.player, j.slot);
    for (const auto& in : data->inputs) out.presses[static_cast<std::size_t>(slotOf.at(in.player))] += in.mask != 0;
    for (const auto& chat : data->chats) {
        if (chat.message.rfind("{\"k\":", 0) != 0) continue;
        const auto record = boost::json::parse(chat.message).as_object();
        const auto* slot = record.if_contains("slot");
        const auto at = slot && slot->is_int64() ? static_cast<std::size_t>(slot->as_int64()) : 0;
        if (record.at("k") == "register") out.policies[at] = record.at("policy").as_string().c_str();
        if (record.at("k") == "directive") out.sources[at].insert(record.at("source").as_string().c_str());
        if (record.at("k") == "result") {
            const auto& scores = record.at("results").at("scores").as_array();
            for (std::size_t player = 0; player < scores.size(); ++player)
                out.scores[static_cast<std::size_t>(slotOf.at(static_cast<int>(player)))] = scores[player].as_double();
        }
    }
    return out;
}

// Every row's replay verifies and its result record has the row's scores, slot by slot.
void expect_rows_verify(const ServerLeague& league) {
    for (const auto& row : league.table.at("results").as_array()) {
        const fs::path replay = league.dir / std::string(row.at("replay").as_string());
        const Ran verify = run_tool({"verify", replay.string()});
        EXPECT_EQ(verify.code, 0) << replay << ": " << verify.output;
        const ServedReplay account = served_replay(replay);
        for (int s = 0; s < 6; ++s)
            EXPECT_DOUBLE_EQ(account.scores[s], row.at("scores").as_array()[s].as_double()) << row.at("id") << " slot " << s;
    }
}

std::string seat_of(const boost::json::value& row, int slot) { return std::string(row.at("seats").as_array()[slot].as_string()); }

bool sleeper_left() {
    for (const auto& entry : fs::directory_iterator("/proc")) {
        const std::string cmdline = read_file(entry.path() / "cmdline");
        if (cmdline == std::string("sleep") + '\0' + kHangSeconds + '\0') return true;
    }
    return false;
}

}  // namespace

TEST(LeagueCliServer, ACommandEntrantPlaysThroughTheServer) {
    // The server is found beside hschool-hns (the build tree's layout): no --server here.
    const auto league = server_league("cmd-real", {"--entrant", "c=cmd:" + hns_tool() + " seat --url {url} --label mine",
                                                   "--entrant", "b=builtin:burrow", "--entrant", "i=builtin:idle",
                                                   "--matches", "1", "--seed", "4"});
    ASSERT_EQ(league.code, 0) << league.output;
    EXPECT_EQ(league.table.at("state"), "finished");
    EXPECT_EQ(league.table.at("played").as_int64(), 3);
    EXPECT_NE(league.output.find("c: programs ended 6 x exit 0"), std::string::npos) << league.output;
    const std::map<std::string, std::string> policyOf{{"c", "mine"}, {"b", "burrow"}, {"i", "idle"}};
    for (const auto& row : league.table.at("results").as_array()) {
        const std::string id(row.at("id").as_string());
        const bool served = seat_of(row, 0) == "c" || seat_of(row, 1) == "c";
        // Built-in-only matches stay headless: no programs, no logs.
        EXPECT_EQ(fs::exists(league.dir / "logs" / id), served) << id;
        EXPECT_EQ(row.as_object().contains("programs"), served) << id;
        const ServedReplay account = served_replay(league.dir / std::string(row.at("replay").as_string()));
        for (int s = 0; s < 6; ++s) {
            EXPECT_EQ(account.policies[s], policyOf.at(seat_of(row, s))) << id << " slot " << s;
            // Idle never presses a button, headless or as a manual seat on the server.
            if (seat_of(row, s) == "i") {
                EXPECT_EQ(account.presses[s], 0) << id << " slot " << s;
            } else {
                EXPECT_GT(account.presses[s], 0) << id << " slot " << s;
            }
            if (!served) continue;
            const auto& program = row.at("programs").as_array()[s];
            if (seat_of(row, s) == "c") {
                EXPECT_EQ(program, "exit 0") << id << " slot " << s;
            } else {
                EXPECT_TRUE(program.is_null()) << id << " slot " << s;
            }
        }
    }
    expect_rows_verify(league);
}

TEST(LeagueCliServer, CrashedAndSilentProgramsAreRecordedAndTheLeagueFinishes) {
    const auto league = server_league("cmd-broken", {"--server", HSCHOOL_SERVER_BINARY, "--program-grace", kShortGrace,
                                                     "--entrant", "crash=cmd:sh -c 'exit 3'",
                                                     "--entrant", std::string("hang=cmd:sleep ") + kHangSeconds, "--entrant",
                                                     "r=builtin:random", "--matches", "1", "--seed", "9"});
    ASSERT_EQ(league.code, 0) << league.output;
    EXPECT_EQ(league.table.at("state"), "finished");
    EXPECT_EQ(league.table.at("played").as_int64(), 3);
    for (const auto& e : league.table.at("entrants").as_array()) EXPECT_EQ(e.at("matches").as_int64(), 2) << e.at("name");
    for (const auto& row : league.table.at("results").as_array()) {
        const ServedReplay account = served_replay(league.dir / std::string(row.at("replay").as_string()));
        for (int s = 0; s < 6; ++s) {
            const std::string who = seat_of(row, s);
            const auto& program = row.at("programs").as_array()[s];
            if (who == "r") {
                EXPECT_TRUE(program.is_null());
                EXPECT_EQ(account.policies[s], "random");
                EXPECT_TRUE(account.sources[s].count("external")) << "random answers its decisions over the wire";
                continue;
            }
            const std::string text(program.as_string());
            if (who == "crash") {
                EXPECT_EQ(text, "exit 3 before taking its seat; burrow stood in") << row.at("id");
            } else {
                EXPECT_EQ(text, "silent: no seat in 1 s, killed; burrow stood in") << row.at("id");
            }
            // The seat was played all the same: the stand-in registered, the server's burrow played it.
            EXPECT_EQ(account.policies[s], "stand-in") << row.at("id") << " slot " << s;
        }
    }
    expect_rows_verify(league);
    EXPECT_NE(league.output.find("crash: programs ended 6 x exit 3 before taking its seat"), std::string::npos) << league.output;
    EXPECT_NE(league.output.find("hang: programs ended 6 x silent"), std::string::npos) << league.output;
    EXPECT_FALSE(sleeper_left()) << "a silent program's process group outlived its match";
}

TEST(LeagueCliServer, APromptEntrantWithoutCredentialsFallsBack) {
    // No transport: every prompt turn falls back at once (docs, "Prompt seats").
    for (const char* name : {"ANTHROPIC_API_KEY", "ANTHROPIC_API_KEY_URI", "COWORLD_LLM_ENDPOINT", "AWS_BEARER_TOKEN_BEDROCK",
                             "AWS_ENDPOINT_URL_BEDROCK_RUNTIME"})
        ::unsetenv(name);
    const fs::path prompt = fresh_dir("prompt-file");
    std::ofstream(prompt) << "Hide in the farthest pocket; as a seeker, sweep the hall.\n";
    const auto league = server_league("prompt", {"--server", HSCHOOL_SERVER_BINARY, "--entrant", "p=prompt:" + prompt.string(),
                                                 "--entrant", "b=builtin:scatter", "--matches", "1"});
    ASSERT_EQ(league.code, 0) << league.output;
    ASSERT_EQ(league.table.at("played").as_int64(), 1);
    const auto& row = league.table.at("results").as_array()[0];
    const ServedReplay account = served_replay(league.dir / std::string(row.at("replay").as_string()));
    for (int s = 0; s < 6; ++s) {
        const auto& program = row.at("programs").as_array()[s];
        if (seat_of(row, s) != "p") {
            EXPECT_TRUE(program.is_null());
            continue;
        }
        const std::string text(program.as_string());
        EXPECT_EQ(text.rfind("exit 0; prompt fallback ", 0), 0u) << text;
        EXPECT_NE(text.find("(no_credentials)"), std::string::npos) << text;
        EXPECT_EQ(account.policies[s], "prompt");
    }
    expect_rows_verify(league);
    EXPECT_NE(league.output.find("p: the model gave 0 turns, burrow played"), std::string::npos) << league.output;
    EXPECT_NE(league.output.find("in fallback (no_credentials)"), std::string::npos) << league.output;
}
