// A whole drop-in episode as a league runs it: six `hschool-hns seat` processes, the server exits 0
// by itself, and the runner's four files are there and right; a seat whose socket is taken from it
// re-dials and gets its seat back.
#include "league_support.hpp"
#include "sim/hns/replay.hpp"
#include "sim/hns/verify.hpp"

namespace hschool::test::league {
namespace {

// The six seats' processes, in slot order.
std::vector<std::unique_ptr<SeatProcess>> start_seats(std::uint16_t port, const std::filesystem::path& dir) {
    std::vector<std::unique_ptr<SeatProcess>> seats;
    for (int s = 0; s < kSeats; ++s) {
        std::vector<std::string> extra;
        if (s == 1) extra = {"--scripted", "scatter"};
        if (s == 3) {  // an external seat: its orders from a file, one per turn
            std::ofstream(dir / "orders.jsonl") << R"({"intent":"hide"})" << "\n";
            extra = {"--external-orders", (dir / "orders.jsonl").string()};
        }
        seats.push_back(std::make_unique<SeatProcess>(seat_args(port, s, extra), dir / ("seat" + std::to_string(s) + ".log")));
        EXPECT_TRUE(seats.back()->started());
    }
    return seats;
}

void expect_runner_files(const LeagueFiles& files) {
    const auto results = parse(read_file(files.results));
    ASSERT_TRUE(results.is_object()) << read_file(files.results);
    const auto final_tick = results.as_object().at("finalTick").as_int64();
    auto data = sim::hns::parse_replay(read_file(files.replay));
    ASSERT_TRUE(data) << data.error;
    EXPECT_EQ(final_tick, static_cast<std::int64_t>(data->hashes.back().tick));
    EXPECT_TRUE(sim::hns::verify_replay(*data).ok);

    // Events: JSON lines ending with the summary row, whose tick count is the episode's.
    const auto rows = json_lines(read_file(files.events));
    ASSERT_GE(rows.size(), 2U);
    const auto& summary = rows.back().as_object();
    EXPECT_EQ(summary.at("type"), "summary");
    EXPECT_EQ(summary.at("ticks").as_int64(), final_tick);
    EXPECT_EQ(summary.at("events").to_number<std::size_t>(), rows.size() - 1);
    int releases = 0;
    for (std::size_t i = 0; i + 1 < rows.size(); ++i) releases += rows[i].as_object().at("kind") == "release";
    EXPECT_EQ(releases, 2) << "both games let their seekers go";

    // Metrics: every seat by its configured name, with the bytes its socket was sent.
    const auto metrics = parse(read_file(files.metrics));
    ASSERT_TRUE(metrics.is_object()) << read_file(files.metrics);
    EXPECT_EQ(metrics.as_object().at("ticks").as_int64(), final_tick);
    const auto& frames = metrics.as_object().at("frames").as_object();
    EXPECT_GT(frames.at("total").to_number<std::uint64_t>(), 0U);
    const auto& players = metrics.as_object().at("players").as_array();
    ASSERT_EQ(players.size(), static_cast<std::size_t>(kSeats));
    const char* names[] = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot"};
    for (int s = 0; s < kSeats; ++s) {
        const auto& p = players[static_cast<std::size_t>(s)].as_object();
        EXPECT_EQ(p.at("name"), names[s]);
        EXPECT_GT(p.at("bytesTotal").to_number<std::uint64_t>(), 0U);
        EXPECT_GT(p.at("bytesImage").to_number<std::uint64_t>(), 0U);
        EXPECT_EQ(p.at("bytesTotal").to_number<std::uint64_t>(),
                  p.at("bytesImage").to_number<std::uint64_t>() + p.at("bytesObject").to_number<std::uint64_t>() +
                      p.at("bytesOther").to_number<std::uint64_t>());
    }
}

TEST(HnsLeague, SixSeatProgramsPlayAWholeDropInEpisode) {
    TempDir dir;
    LeagueFiles files(dir.path());
    std::ofstream(files.config) << league_config();
    const std::uint16_t port = free_port();
    // The runner starts the seats with the game: the first dials find nothing listening yet.
    auto seats = start_seats(port, dir.path());
    ServerProcess server(isolated_server_args(dir), dropin_launch(files, port));
    ASSERT_TRUE(server.started()) << server.output();
    for (int s = 0; s < kSeats; ++s) {
        const auto status = seats[static_cast<std::size_t>(s)]->wait();
        ASSERT_TRUE(status) << "seat " << s << " did not exit: " << seats[static_cast<std::size_t>(s)]->log();
        EXPECT_EQ(*status, 0) << seats[static_cast<std::size_t>(s)]->log();
    }
    const auto status = wait_exit(server);
    ASSERT_TRUE(status) << "the server did not exit by itself";
    EXPECT_EQ(*status, 0) << server.output();
    expect_runner_files(files);
    // Each seat registered as the reference's seat does; seat 1 asked for scatter.
    EXPECT_NE(seats[1]->log().find(R"("scripted":"scatter")"), std::string::npos) << seats[1]->log();
    auto data = sim::hns::parse_replay(read_file(files.replay));
    ASSERT_TRUE(data);
    int registers = 0, external = 0;
    for (const auto& chat : data->chats) {
        registers += chat.message.rfind(R"({"k":"register")", 0) == 0;
        if (chat.message.rfind(R"({"k":"directive")", 0) != 0) continue;
        const auto record = parse(chat.message).as_object();
        if (record.at("slot").as_int64() == 3) external += record.at("source") == "external";
    }
    EXPECT_EQ(registers, kSeats) << "one register record per seat, however often it re-sent";
    EXPECT_GE(external, 2) << "seat 3's orders came from its file";
    EXPECT_NE(seats[3]->log().find(R"("mode":"external")"), std::string::npos);
}

TEST(HnsLeague, ASeatProgramWhoseSocketIsTakenReDialsAndIsReadmitted) {
    TempDir dir;
    LeagueFiles files(dir.path());
    // Long enough to step in, whatever the load: at 24 Hz by the clock, not in fast mode (there a
    // starved seat program once re-dialled after the last tick), 2 x 10 turns of 24 ticks = 20 s.
    const std::string config = league_config(R"(,"fastMode":false,"turnTicks":24)");
    std::ofstream(files.config) << std::string(config).replace(config.find(R"("huntTurns":3)"), 13, R"("huntTurns":8)");
    const std::uint16_t port = free_port();
    ServerProcess server(isolated_server_args(dir), dropin_launch(files, port));
    ASSERT_TRUE(server.started()) << server.output();
    auto seats = start_seats(port, dir.path());
    // Mid-episode, another socket presents seat 2's token: the server gives it the seat and closes
    // the program's socket; the program re-dials and takes its seat back the same way.
    const bool playing = eventually([&] {
        const auto m = match_json(port, "m1");
        return m.contains("tick") && m.at("tick").as_int64() > 120;
    }, kWait, 10ms);
    ASSERT_TRUE(playing) << json::serialize(match_json(port, "m1"));
    auto intruder = open_socket(port, "/player?slot=2&token=token-2");
    ASSERT_TRUE(intruder);
    const auto closed = intruder->read_until_closed(kWait);
    ASSERT_TRUE(closed) << "the program never took its seat back";
    EXPECT_EQ(closed->code, 1008) << closed->reason;
    for (int s = 0; s < kSeats; ++s) {
        const auto status = seats[static_cast<std::size_t>(s)]->wait();
        ASSERT_TRUE(status) << "seat " << s << " did not exit";
        EXPECT_EQ(*status, 0);
    }
    EXPECT_NE(seats[2]->log().find("re-dialling the seat (attempt 1)"), std::string::npos) << seats[2]->log();
    const auto status = wait_exit(server);
    ASSERT_TRUE(status);
    EXPECT_EQ(*status, 0);
    expect_runner_files(files);
}

}  // namespace
}  // namespace hschool::test::league
