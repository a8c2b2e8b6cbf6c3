#pragma once
// An arena player for integration tests: Hello/Welcome, snapshots, and a fence that says from
// which snapshot tick on everything this client sent before has been applied by the server.
#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "wire.hpp"

namespace hschool::test::arena {

inline constexpr int kMaxSnapshotsToWait = 100;  // 5 s at 20 Hz: every wait below is bounded

inline const v1::EntityState* find(const v1::Snapshot& snapshot, std::uint32_t id) {
    const auto it = std::find_if(snapshot.entities.begin(), snapshot.entities.end(),
                                 [&](const v1::EntityState& e) { return e.id == id; });
    return it == snapshot.entities.end() ? nullptr : &*it;
}

inline std::size_t count_kind(const v1::Snapshot& snapshot, std::uint8_t kind) {
    return static_cast<std::size_t>(std::count_if(snapshot.entities.begin(), snapshot.entities.end(),
                                                  [&](const v1::EntityState& e) { return e.kind == kind; }));
}

// A test with its own isolated server, started (with extra flags if the test asks) by start().
class ArenaServerTest : public ::testing::Test {
protected:
    void start(std::vector<std::string> extra = {}) {
        auto args = isolated_server_args(dir);
        args.insert(args.end(), extra.begin(), extra.end());
        server = std::make_unique<ServerProcess>(args);
        ASSERT_TRUE(server->started()) << server->output();
    }
    std::uint16_t port() const { return server->port(); }

    TempDir dir;
    std::unique_ptr<ServerProcess> server;
};

class ArenaClient {
public:
    // Connects and sends Hello; check joined() (a Welcome arrived) before anything else.
    ArenaClient(std::uint16_t port, const std::string& name = "tester") : ws_(WsClient::connect(port)) {
        if (!ws_) {
            ADD_FAILURE() << "WebSocket handshake failed";
            return;
        }
        if (!ws_->send(arena_hello(name))) return;
        auto first = next_v1(*ws_);
        if (!first) return;
        if (auto* welcome = std::get_if<v1::Welcome>(&*first)) {
            welcome_ = *welcome;
        } else {
            ADD_FAILURE() << "the first frame was not Welcome";
        }
    }

    bool joined() const { return welcome_.has_value(); }
    const v1::Welcome& welcome() const { return *welcome_; }
    std::uint32_t id() const { return welcome_->player_id; }
    WsClient& ws() { return *ws_; }
    void drop() { ws_.reset(); }  // closes the TCP connection

    bool input(std::uint32_t sequence, std::uint8_t buttons) {
        return ws_->send(v1::encode(v1::Input{sequence, buttons}));
    }

    // The next snapshot, skipping pongs.
    std::optional<v1::Snapshot> snapshot() {
        for (int i = 0; i < kMaxSnapshotsToWait; ++i) {
            auto message = next_v1(*ws_);
            if (!message) return std::nullopt;
            if (auto* s = std::get_if<v1::Snapshot>(&*message)) return std::move(*s);
        }
        ADD_FAILURE() << "no snapshot within " << kMaxSnapshotsToWait << " frames";
        return std::nullopt;
    }

    // The first snapshot whose tick is at least `tick`.
    std::optional<v1::Snapshot> snapshot_at_or_after(std::uint32_t tick) {
        for (int i = 0; i < kMaxSnapshotsToWait; ++i) {
            auto s = snapshot();
            if (!s || s->tick >= tick) return s;
        }
        ADD_FAILURE() << "no snapshot reached tick " << tick;
        return std::nullopt;
    }

    // Every frame this client sent before the call is applied before the step of the returned
    // tick at the latest, so every snapshot from that tick on shows its effect for whole steps.
    //
    // Why: a Ping is answered on the network thread with the loop's tick T after the frames
    // before it were posted to the loop. The first snapshot with a tick S > T comes from the
    // wake-up that was running at the time of the ping or a later one; the wake-up after it
    // (first step S + 1) drains the commands before stepping.
    std::optional<std::uint32_t> fence() {
        const std::int64_t token = next_token_++;
        if (!ws_->send(v1::encode(v1::Ping{token}))) return std::nullopt;
        std::optional<std::uint32_t> pong_tick;
        for (int i = 0; i < kMaxSnapshotsToWait && !pong_tick; ++i) {
            auto message = next_v1(*ws_);
            if (!message) return std::nullopt;
            if (auto* pong = std::get_if<v1::Pong>(&*message); pong && pong->client_time_ms == token)
                pong_tick = pong->server_tick;
        }
        if (!pong_tick) {
            ADD_FAILURE() << "no pong";
            return std::nullopt;
        }
        auto after = snapshot_at_or_after(*pong_tick + 1);
        if (!after) return std::nullopt;
        return after->tick + 1;
    }

private:
    std::unique_ptr<WsClient> ws_;
    std::optional<v1::Welcome> welcome_;
    std::int64_t next_token_ = 1000;
};

}  // namespace hschool::test::arena
