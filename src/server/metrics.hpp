#pragma once
// Counters for /metrics. Cheap to call from any thread (prometheus-cpp metrics are atomic).
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "net/http_router.hpp"
#include "net/transport_metrics.hpp"
#include "server/arena/arena_metrics.hpp"
#include "server/arena/arena_session.hpp"
#include "server/hns/contract/hns_metrics.hpp"
#include "server/schools/schools_metrics.hpp"
#include "server/schools/schools_session.hpp"

namespace prometheus {
class Registry;
class Counter;
class Gauge;
class Histogram;
}  // namespace prometheus

namespace hschool::server {

// Protocol a connection speaks (its transport tag: the version byte); None until its Hello arrives.
// Sprite: the hide-and-seek sockets (/player, /global, /admin, /reward, /replay), which have no Hello.
enum class WireVersion : net::ProtocolTag {
    None = net::kNoProtocol,
    Arena = arena::kV1Tag,
    Schools = schools::kV4Tag,
    ArenaV5 = arena::kV5Tag,
    Sprite = hns::kSpriteTag,
};
constexpr net::ProtocolTag tag_of(WireVersion v) { return static_cast<net::ProtocolTag>(v); }

class Metrics final : public hns::HnsMetrics, public net::TransportMetrics, public ArenaMetrics, public SchoolsMetrics {
public:
    Metrics();
    ~Metrics() override;

    // net::TransportMetrics: connections, frames and closes by protocol, refusals, timeouts.
    void connection_opened(net::ProtocolTag tag) override;
    void connection_closed(net::ProtocolTag tag) override;
    void connection_spoke(net::ProtocolTag tag) override;  // None → the Hello's version
    void polled_socket(bool added) override;                // a v5 socket joined or left its thread's read poller
    void reader_lagging() override;                         // a WebSocket's delivery window shut: its reader fell behind
    void frames_in(net::ProtocolTag tag, std::size_t frames, std::size_t bytes) override;  // a read's worth at once
    void frames_out(net::ProtocolTag tag, std::size_t frames, std::size_t bytes) override;  // one call per write
    void frames_dropped(net::ProtocolTag tag, std::size_t count) override;
    void close_sent(std::uint16_t code) override;
    void server_closed(net::CloseCause cause) override;  // hschool_server_closes_total{reason}
    void protocol_error(net::ProtocolTag tag) override { decode_rejected(static_cast<WireVersion>(tag)); }
    void budget_exceeded(net::ProtocolTag tag) override;             // a client sent faster than its inbound budget
    void connection_refused(const char* reason) override;            // an upgrade answered 503/403: total, per_ip, origin
    void accept_error() override;                                    // accept() failed (EMFILE, ENFILE, ENOBUFS, …)
    void peer_timeout(const char* reason) override;                  // silent (no pong) or write_stall
    void http_request(unsigned status) override;

    void decode_rejected(WireVersion v);  // a message its game's codec refused (or a WebSocket protocol error)
    void tick(double seconds);
    void arena_simulate(double seconds) override;  // ArenaMetrics: arena steps + snapshot capture and encode, per wake-up
    void tick_overrun();
    void steps_dropped(std::uint64_t steps);
    // Steps of a late wake-up before its last: their frames went out with the last one's tick.
    void steps_caught_up(std::uint64_t steps);
    void store_error() override;  // SchoolsMetrics: a database write that failed (clock batch, create or delete)
    void commands_rejected();                        // the loop's inbox was full
    void school_control_refused() override;          // SchoolsMetrics: owners mode, SetRunning/SetSpeed without the token

    // hns::HnsMetrics: matches by phase, seats by policy kind, ticks, frame bytes by stream,
    // decision latency, fallbacks.
    void match_phase(const char* from, const char* to) override;
    void seat_kind(const char* from, const char* to) override;
    void ticks(std::size_t count) override;
    void frame_late() override;    // hschool_hns_frames_late_total
    void network_wait() override;  // hschool_hns_network_waits_total
    void frame_bytes(const char* stream, std::size_t bytes) override;
    void spectator_encodes(std::size_t deltas, std::size_t keyframes) override;
    void viewer_resyncs(const char* stream, std::size_t count) override;
    void replay_seek(std::size_t steps) override;  // hschool_hns_replay_seek_steps
    void decision_latency(double seconds) override;
    void fallback(const char* cause) override;
    void refused(const char* reason) override;
    void leagues_running(int delta) override;  // hschool_hns_leagues_running
    void league_match_played() override;       // hschool_hns_league_matches_total

    // The Prometheus text exposition format.
    std::string render() const;

private:
    struct Families;
    std::shared_ptr<prometheus::Registry> registry_;
    std::unique_ptr<Families> f_;
};

// /health and /metrics: what operators and load balancers ask.
class StoreHealth;

enum class Health { Starting, Serving, Draining };

// What else /health reports while serving.
struct HealthSources {
    const StoreHealth* store = nullptr;  // a failing latest write makes /health 503 "store-error"
    bool serving_files = true;           // false: no usable web root, every static path is 404
    const char* access = "open";         // the access mode, so clients (and operators) can see it
    const char* llm = "none";            // prompt seats' model transport (issue 21); shown unless none
};

void add_ops_routes(net::HttpRouter& router, const std::atomic<Health>& health, const Metrics& metrics,
                    HealthSources sources = {});

}  // namespace hschool::server
