// Seats against the real server (spec §6 items 9–11, and our manual mode): decisions go only to
// live external seats with the right turns, a rejected order and a timeout leave their records,
// fast mode paces by the seats' 0x85, and a manual seat's mask moves its cog.
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>

#include "hns_client.hpp"
#include "seat_bot.hpp"
#include "sim/hns/replay.hpp"

namespace hschool::test::hns {
namespace {

using Clock = std::chrono::steady_clock;

class HnsSeats : public ServerTest<hns_server_args> {
protected:

    // Six sockets on slots 0..5 of `id`, each registered with `registration` (if any).
    std::vector<std::unique_ptr<WsClient>> seat_all(const std::string& id, const std::string& registration) {
        std::vector<std::unique_ptr<WsClient>> seats;
        for (int s = 0; s < 6; ++s) {
            seats.push_back(open_socket(server.port(), "/player?match=" + id + "&slot=" + std::to_string(s) + "&name=s" + std::to_string(s)));
            if (!seats.back()) return {};
            if (!registration.empty() && !seats.back()->send(text_message(registration))) return {};
        }
        return seats;
    }
};

TEST_F(HnsSeats, DecisionsGoOnlyToLiveSeatsAndRejectedOrdersAreRecorded) {
    const std::string id = create_match(server.port(), R"({"variant":"certification"})");
    ASSERT_FALSE(id.empty());
    auto sockets = seat_all(id, R"({"type":"register","mode":"external","policy":"t"})");
    ASSERT_EQ(sockets.size(), 6U);
    const auto answer = [](int seat, int game, int turn) -> std::string {
        // The very first order names an object that does not exist.
        return game == 1 && turn == 0 && seat == 0 ? R"({"intent":"lock","object":"nope"})" : R"({"intent":"hide"})";
    };
    std::vector<std::unique_ptr<SeatBot>> bots;
    for (int s = 0; s < 6; ++s) bots.push_back(std::make_unique<SeatBot>(std::move(sockets[static_cast<std::size_t>(s)]), s, answer));
    for (auto& bot : bots) bot->wait();  // each returns when the match is over and closes its socket
    for (int s = 0; s < 6; ++s) {
        EXPECT_EQ(bots[s]->close_code(), 1000) << s;
        const auto list = bots[s]->decisions();
        // Certification: prepTurns 2, huntTurns 3. Hiders decide 5 turns a game, seekers 3 (from
        // turn 2); seats swap sides in game 2, so every seat decides 8 times in all.
        ASSERT_EQ(list.size(), 8U) << "seat " << s;
        const auto& first = list.front();
        EXPECT_EQ(first.at("turn").as_int64(), s % 2 == 0 ? 0 : 2) << s;
        EXPECT_EQ(first.at("deadline_ms").as_int64(), 16000);
        const auto& obs = first.at("observation").as_object();
        EXPECT_EQ(obs.at("game").as_int64(), 1);
        EXPECT_EQ(obs.at("phase").as_string(), s % 2 == 0 ? "prep" : "hunt");
        EXPECT_EQ(std::string(obs.at("you").as_string()).rfind(s % 2 == 0 ? "HIDER-" : "SEEKER-", 0), 0U);
        int game2 = 0;
        for (const auto& d : list) game2 += d.at("observation").as_object().at("game").as_int64() == 2;
        EXPECT_EQ(game2, s % 2 == 0 ? 3 : 5) << s;
    }
    const auto m = match_json(server.port(), id);
    ASSERT_EQ(m.at("phase").as_string(), "finished");
    const auto& results = m.at("results").as_object();
    EXPECT_EQ(results.at("ordersRejected").as_array()[0].as_int64(), 1);
    const auto replay = download_replay(server.port(), id);
    bool rejected_recorded = false;
    for (const auto& d : chat_records(replay, "directive"))
        if (d.at("slot").as_int64() == 0 && d.at("result") == "unknown_object" && d.at("source") == "external") rejected_recorded = true;
    EXPECT_TRUE(rejected_recorded);
}

TEST_F(HnsSeats, ASeatThatDoesNotAnswerFallsBackAfterTheDeadline) {
    const std::string id = create_match(server.port(), R"({"variant":"certification","bots":5,"config":{"turnBudgetMs":400,"attempt1Ms":200,"retryMs":100}})");
    ASSERT_FALSE(id.empty());
    auto seat = open_socket(server.port(), "/player?match=" + id + "&slot=0&name=silent");
    ASSERT_TRUE(seat);
    ASSERT_TRUE(seat->send(text_message(R"({"type":"register","mode":"external"})")));
    int decisions = 0;
    for (int i = 0; i < 400 && decisions < 2; ++i) {
        std::vector<std::string> texts;
        if (!next_binary(*seat, &texts)) break;
        decisions += static_cast<int>(decisions_in(texts).size());
    }
    ASSERT_GE(decisions, 2);  // the second decision came: the first turn ended without a reply
    seat.reset();
    ASSERT_EQ(play_out(server.port(), id), 1000);
    const auto replay = download_replay(server.port(), id);
    const auto fallbacks = chat_records(replay, "fallback");
    ASSERT_FALSE(fallbacks.empty());
    EXPECT_EQ(fallbacks[0].at("cause"), "timeout");
    EXPECT_EQ(fallbacks[0].at("slot").as_int64(), 0);
    bool fallback_directive = false;
    for (const auto& d : chat_records(replay, "directive"))
        if (d.at("slot").as_int64() == 0 && d.at("source") == "fallback") fallback_directive = true;
    EXPECT_TRUE(fallback_directive);
}

// Frames each seat received in `window`, all seats reading and (optionally) answering 0x85.
int frames_in(std::vector<std::unique_ptr<WsClient>>& seats, std::chrono::milliseconds window, int silent_seat,
              bool bundled) {
    int frames = 0;
    const auto end = Clock::now() + window;
    while (Clock::now() < end) {
        for (std::size_t s = 0; s < seats.size(); ++s) {
            if (!next_binary(*seats[s])) return frames;
            if (static_cast<int>(s) == silent_seat) continue;
            if (bundled) {  // a 0x85 inside a longer message does not count (§2.7)
                protocol::Bytes both = mask_message(0);
                both.push_back(sv::id::kPlayerReady);
                seats[s]->send(both);
            } else {
                seats[s]->send(ready_message());
            }
        }
        ++frames;
    }
    return frames;
}

TEST_F(HnsSeats, FastModeStepsAsSoonAsEverySeatIsReady) {
    // 2 × 60 turns of 90 ticks: a fast machine must not finish the match inside the fast window.
    const std::string id = create_match(server.port(), R"({"variant":"default","config":{"prepTurns":20,"huntTurns":40}})");
    ASSERT_FALSE(id.empty());
    auto seats = seat_all(id, "");
    ASSERT_EQ(seats.size(), 6U);
    // At 24 Hz half a second holds 12 frames; with six ready seats it holds many more.
    const int fast = frames_in(seats, 500ms, -1, false);
    EXPECT_GT(fast, 36) << "frames in 0.5 s with every seat ready";
    // One seat stops sending 0x85: back to the wall clock.
    frames_in(seats, 200ms, 5, false);
    const int slow = frames_in(seats, 1000ms, 5, false);
    EXPECT_LE(slow, 30) << "frames in 1 s with one seat silent";
    EXPECT_GE(slow, 15);
    // A 0x85 bundled with other bytes does not count.
    frames_in(seats, 200ms, -1, true);
    const int bundled = frames_in(seats, 1000ms, -1, true);
    EXPECT_LE(bundled, 30) << "frames in 1 s with bundled 0x85";
}

TEST_F(HnsSeats, AManualSeatsMaskMovesItsCogAndItSeesTheRoom) {
    const std::string id = create_match(server.port(), R"({"variant":"certification","bots":5})");
    ASSERT_FALSE(id.empty());
    auto seat = open_socket(server.port(), "/player?match=" + id + "&slot=0&name=human");
    ASSERT_TRUE(seat);
    ASSERT_TRUE(seat->send(text_message(R"({"type":"register","mode":"manual"})")));
    std::optional<int> start_x, last_x;
    bool saw_band = false, saw_object = false;
    // Until the cog has moved and the room and its objects were seen: a busy machine may show the
    // match playing before the frame with the cog has been read, so the start is where a cog was seen.
    for (int i = 0; i < 240 && !(start_x && *last_x > *start_x + 40 && saw_band && saw_object); ++i) {
        auto message = next_binary(*seat);
        ASSERT_TRUE(message);
        const auto messages = decode(*message);
        saw_band = saw_band || object_of(messages, 40).has_value();
        saw_object = saw_object || object_of(messages, 2200).has_value();
        if (auto cog = object_of(messages, 1000)) last_x = cog->x;
        if (!start_x && last_x && match_json(server.port(), id).at("phase") == "playing") {
            start_x = last_x;
            ASSERT_TRUE(seat->send(mask_message(0x08)));  // hold Right
        }
    }
    ASSERT_TRUE(start_x);
    EXPECT_GT(*last_x, *start_x + 40) << "the cog did not move right";
    EXPECT_TRUE(saw_band) << "a manual seat sees the room";
    EXPECT_TRUE(saw_object) << "a manual seat sees the objects";
    const auto seats = match_json(server.port(), id).at("seats").as_array();
    EXPECT_EQ(seats[0].as_object().at("kind"), "manual");
}

// The order a busy machine sometimes took above, by construction: the socket's first frame is the
// contract's (its own cog only) before it registers as manual. The manual scene must still bring
// the room, though the bands go in a stream's first frame only (before, they never came).
TEST_F(HnsSeats, ASeatThatTurnsManualAfterItsFirstFrameStillSeesTheRoom) {
    const std::string id = create_match(server.port(), R"({"variant":"certification","bots":5})");
    ASSERT_FALSE(id.empty());
    auto seat = open_socket(server.port(), "/player?match=" + id + "&slot=0&name=human");
    ASSERT_TRUE(seat);
    const auto first = next_binary(*seat);
    ASSERT_TRUE(first);
    ASSERT_FALSE(object_of(decode(*first), 40)) << "the contract's player frame shows no room";
    ASSERT_TRUE(seat->send(text_message(R"({"type":"register","mode":"manual"})")));
    bool saw_band = false, saw_object = false;
    for (int i = 0; i < 240 && !(saw_band && saw_object); ++i) {
        auto message = next_binary(*seat);
        ASSERT_TRUE(message);
        const auto messages = decode(*message);
        saw_band = saw_band || object_of(messages, 40).has_value();
        saw_object = saw_object || object_of(messages, 2200).has_value();
    }
    EXPECT_TRUE(saw_band) << "a manual seat sees the room";
    EXPECT_TRUE(saw_object) << "a manual seat sees the objects";
}

}  // namespace
}  // namespace hschool::test::hns
