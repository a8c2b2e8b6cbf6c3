// --record: the server's replay of a real session re-simulates to the same hashes, hschool-replay
// says so (and names the tick when a hash is tampered with), and recording never stalls the tick.
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <iterator>

#include "arena_client.hpp"
#include "sim/replay/replay_format.hpp"
#include "sim/replay/replay_reader.hpp"
#include "sim/replay/replay_verify.hpp"

namespace hschool::test::arena {
namespace {

namespace replay = sim::replay;
namespace sa = sim::arena;

struct ToolResult {
    int exit_code = -1;
    std::string output;  // stdout and stderr
};

ToolResult run_replay_tool(const std::filesystem::path& file) {
    ToolResult result;
    const std::string command = std::string("'") + HSCHOOL_REPLAY_BINARY + "' '" + file.string() + "' 2>&1";
    std::FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe) return result;
    char buffer[512];
    while (std::fgets(buffer, sizeof buffer, pipe)) result.output += buffer;
    const int status = ::pclose(pipe);
    if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    return result;
}

protocol::Bytes read_bytes(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    return protocol::Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_bytes(const std::filesystem::path& file, const protocol::Bytes& bytes) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// Every record of a replay, with the offset just past it (its hash is the 8 bytes before that).
struct Record {
    replay::ReplayTick tick;
    std::size_t end = 0;
};
struct Parsed {
    bool header_ok = false;
    sa::ArenaSettings settings;
    std::vector<Record> records;
    replay::ReplayError error = replay::ReplayError::None;
};

Parsed parse(const protocol::Bytes& bytes) {
    Parsed parsed;
    replay::ReplayReader reader(bytes);
    parsed.header_ok = reader.header_ok();
    if (!parsed.header_ok) return parsed;
    parsed.settings = reader.settings();
    replay::ReplayTick tick;
    while (reader.next(tick)) parsed.records.push_back({tick, reader.offset()});
    parsed.error = reader.error();
    return parsed;
}

std::vector<std::string> args_recording_to(const TempDir& dir, const std::filesystem::path& file,
                                           std::vector<std::string> extra = {}) {
    auto args = isolated_server_args(dir);
    args.push_back("--record");
    args.push_back(file.string());
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

bool wait_until_gone(ArenaClient& reader, std::uint32_t id) {
    for (int i = 0; i < 60; ++i) {
        auto s = reader.snapshot();
        if (!s) return false;
        if (!find(*s, id)) return true;
    }
    return false;
}

TEST(ArenaReplay, ARecordedSessionReplaysAndATamperedHashIsNamed) {
    TempDir dir;
    const auto file = dir.path() / "arena.replay";
    ServerProcess server(args_recording_to(dir, file, {"--seed", "77", "--obstacles", "6"}));
    ASSERT_TRUE(server.started()) << server.output();

    ArenaClient ann(server.port(), "Ann");
    ASSERT_TRUE(ann.joined());
    ArenaClient bob(server.port(), "Bob");
    ASSERT_TRUE(bob.joined());
    const std::uint32_t bob_id = bob.id();
    ASSERT_TRUE(ann.input(1, v1::buttons::kRight));
    ASSERT_TRUE(ann.input(2, 0xF0 | v1::buttons::kDown));  // recorded as received
    ASSERT_TRUE(ann.input(1, 0));                          // late: recorded, ignored by the world
    ASSERT_TRUE(bob.input(40, v1::buttons::kLeft | v1::buttons::kUp));
    ASSERT_TRUE(ann.fence());
    ASSERT_TRUE(bob.fence());
    bob.drop();
    ASSERT_TRUE(wait_until_gone(ann, bob_id));
    ASSERT_TRUE(ann.input(3, v1::buttons::kLeft));
    // About two more seconds of play.
    std::uint32_t last_seen = 0;
    for (int i = 0; i < 40; ++i) {
        auto s = ann.snapshot();
        ASSERT_TRUE(s);
        last_seen = s->tick;
    }
    ASSERT_EQ(server.stop(SIGTERM), 0) << server.output();

    const protocol::Bytes bytes = read_bytes(file);
    ASSERT_GT(bytes.size(), replay::kHeaderBytes);
    const Parsed parsed = parse(bytes);
    ASSERT_TRUE(parsed.header_ok);
    EXPECT_EQ(parsed.error, replay::ReplayError::None) << replay::describe(parsed.error);
    EXPECT_EQ(parsed.settings.seed, 77U);
    EXPECT_EQ(parsed.settings.obstacle_count, 6);
    EXPECT_EQ(parsed.settings.tick_rate, 20);
    const auto ticks = static_cast<std::uint32_t>(parsed.records.size());
    ASSERT_GT(ticks, 20U);
    EXPECT_GE(ticks, last_seen) << "every step the clients saw is in the replay";
    EXPECT_EQ(parsed.records.back().end, bytes.size());

    // The commands are the session's, in order.
    std::vector<sa::JoinCommand> joins;
    std::vector<sa::InputCommand> ann_inputs;
    std::vector<sa::InputCommand> bob_inputs;
    bool bob_left = false;
    for (std::size_t i = 0; i < parsed.records.size(); ++i) {
        EXPECT_EQ(parsed.records[i].tick.tick, i + 1);
        for (const auto& command : parsed.records[i].tick.commands) {
            if (auto* join = std::get_if<sa::JoinCommand>(&command)) joins.push_back(*join);
            if (auto* input = std::get_if<sa::InputCommand>(&command))
                (input->player_id == ann.id() ? ann_inputs : bob_inputs).push_back(*input);
            if (auto* leave = std::get_if<sa::LeaveCommand>(&command)) bob_left = bob_left || leave->player_id == bob_id;
        }
    }
    ASSERT_EQ(joins.size(), 2U);
    EXPECT_EQ(joins[0].name, "Ann");
    EXPECT_EQ(joins[1].name, "Bob");
    EXPECT_TRUE(bob_left);
    EXPECT_EQ(ann_inputs, (std::vector<sa::InputCommand>{{ann.id(), 1, 8}, {ann.id(), 2, 0xF2}, {ann.id(), 1, 0},
                                                          {ann.id(), 3, 4}}));
    EXPECT_EQ(bob_inputs, (std::vector<sa::InputCommand>{{bob_id, 40, 5}}));

    // The library re-simulates every tick to the same hash...
    const auto verdict = replay::verify_replay(bytes);
    EXPECT_TRUE(verdict.matched()) << replay::describe(verdict);
    EXPECT_FALSE(verdict.truncated());
    EXPECT_EQ(verdict.ticks_checked, ticks);
    EXPECT_FALSE(verdict.first_mismatch_tick);
    // ...and so does the tool.
    const auto tool = run_replay_tool(file);
    EXPECT_EQ(tool.exit_code, 0) << tool.output;
    EXPECT_NE(tool.output.find("all " + std::to_string(ticks) + " ticks matched"), std::string::npos) << tool.output;

    // A flipped byte in a later record's hash is found at that tick.
    const std::uint32_t bad_tick = ticks - 5;
    ASSERT_GT(bad_tick, 10U);
    protocol::Bytes tampered = bytes;
    tampered[parsed.records[bad_tick - 1].end - 8 + 3] ^= 0x10;
    const auto tampered_verdict = replay::verify_replay(tampered);
    EXPECT_FALSE(tampered_verdict.matched());
    EXPECT_EQ(tampered_verdict.first_mismatch_tick, bad_tick);
    EXPECT_EQ(tampered_verdict.ticks_checked, bad_tick);
    const auto tampered_file = dir.path() / "tampered.replay";
    write_bytes(tampered_file, tampered);
    const auto tampered_tool = run_replay_tool(tampered_file);
    EXPECT_EQ(tampered_tool.exit_code, 1) << tampered_tool.output;
    EXPECT_NE(tampered_tool.output.find("hash mismatch at tick " + std::to_string(bad_tick)), std::string::npos)
        << tampered_tool.output;

    // The last 8 bytes are the final record's hash.
    protocol::Bytes last = bytes;
    last.back() ^= 0x01;
    write_bytes(tampered_file, last);
    const auto last_tool = run_replay_tool(tampered_file);
    EXPECT_EQ(last_tool.exit_code, 1) << last_tool.output;
    EXPECT_NE(last_tool.output.find("hash mismatch at tick " + std::to_string(ticks)), std::string::npos)
        << last_tool.output;

    // A replay cut inside its last record still passes, up to the record before.
    const protocol::Bytes cut(bytes.begin(), bytes.end() - 3);
    write_bytes(tampered_file, cut);
    const auto cut_tool = run_replay_tool(tampered_file);
    EXPECT_EQ(cut_tool.exit_code, 0) << cut_tool.output;
    EXPECT_NE(cut_tool.output.find("all " + std::to_string(ticks - 1) + " ticks matched"), std::string::npos)
        << cut_tool.output;
}

TEST(ArenaReplay, RecordingNeverStallsTheTick) {
    TempDir dir;
    const auto file = dir.path() / "busy.replay";
    // 10 Hz leaves a 100 ms period: a skipped tick means the loop stalled, not a busy test machine.
    // The burst of inputs below is far over a real client's budget, which is not what this test is about.
    ServerProcess server(args_recording_to(dir, file, {"--tick-rate", "10", "--ws-message-burst", "5000"}));
    ASSERT_TRUE(server.started()) << server.output();
    ArenaClient client(server.port(), "busy");
    ASSERT_TRUE(client.joined());
    ASSERT_EQ(client.welcome().tick_rate, 10);
    auto first = client.snapshot();
    ASSERT_TRUE(first);

    // 2500 inputs record about 25 KB, past the recorder's hand-off size, so the writer thread
    // appends to the file while the loop keeps stepping.
    constexpr std::uint32_t kInputs = 2500;
    for (std::uint32_t sequence = 1; sequence <= kInputs; ++sequence)
        ASSERT_TRUE(client.input(sequence, static_cast<std::uint8_t>(sequence % 16)));
    ASSERT_TRUE(client.input(kInputs + 1, 0));

    std::uint32_t previous = first->tick;
    bool written_while_running = false;
    for (int i = 0; i < 30; ++i) {
        auto s = client.snapshot();
        ASSERT_TRUE(s);
        EXPECT_EQ(s->tick, previous + 1) << "snapshot ticks must be contiguous";
        previous = s->tick;
        std::error_code ec;
        written_while_running = written_while_running || std::filesystem::file_size(file, ec) > replay::kHeaderBytes;
    }
    EXPECT_TRUE(written_while_running) << "the recorder did not write while the server ran";
    // What is on disk mid-run is already a valid replay prefix.
    const auto mid_run = replay::verify_replay(read_bytes(file));
    EXPECT_TRUE(mid_run.matched()) << replay::describe(mid_run);
    EXPECT_GT(mid_run.ticks_checked, 0U);

    ASSERT_EQ(server.stop(SIGTERM), 0) << server.output();
    const auto bytes = read_bytes(file);
    const auto verdict = replay::verify_replay(bytes);
    EXPECT_TRUE(verdict.matched()) << replay::describe(verdict);
    EXPECT_FALSE(verdict.truncated());
    EXPECT_GE(verdict.ticks_checked, previous);
    const Parsed parsed = parse(bytes);
    std::size_t inputs = 0;
    for (const auto& record : parsed.records)
        for (const auto& command : record.tick.commands) inputs += std::holds_alternative<sa::InputCommand>(command);
    EXPECT_EQ(inputs, kInputs + 1);
    const auto tool = run_replay_tool(file);
    EXPECT_EQ(tool.exit_code, 0) << tool.output;
}

}  // namespace
}  // namespace hschool::test::arena
