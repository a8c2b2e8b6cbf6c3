#include "server/metrics.hpp"

#include <boost/json.hpp>
#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>

#include <array>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "server/schools/store_health.hpp"

namespace hschool::server {
namespace {

const char* label(WireVersion v) {
    switch (v) {
        case WireVersion::Arena: return "1";
        case WireVersion::Schools: return "4";
        case WireVersion::ArenaV5: return "5";
        case WireVersion::Sprite: return "sprite";
        case WireVersion::None: break;
    }
    return "none";
}

std::size_t slot(WireVersion v) {
    switch (v) {
        case WireVersion::Arena: return 1;
        case WireVersion::Schools: return 2;
        case WireVersion::Sprite: return 3;
        case WireVersion::ArenaV5: return 4;
        case WireVersion::None: break;
    }
    return 0;
}

// A tag no game of ours uses counts as none.
std::size_t slot(net::ProtocolTag tag) { return slot(static_cast<WireVersion>(tag)); }

constexpr std::size_t kVersions = 5;

// A family's counters for the label values known up front, found without the family's lock (which
// also builds a label map per call): matches and low-priority replay threads count every frame, and
// a replay thread preempted while holding that lock stalled the matches behind it.
class KnownLabels {
public:
    KnownLabels(prometheus::Family<prometheus::Counter>& family, const char* name, std::initializer_list<const char*> values)
        : family_(family), name_(name) {
        for (const char* v : values) known_.emplace_back(v, &family.Add({{name, v}}));
    }
    prometheus::Counter& operator[](const char* value) const {
        for (const auto& [v, counter] : known_)
            if (std::strcmp(v, value) == 0) return *counter;
        return family_.Add({{name_, value}});  // an unexpected value still counts, the slow way
    }

private:
    prometheus::Family<prometheus::Counter>& family_;
    std::string name_;
    std::vector<std::pair<const char*, prometheus::Counter*>> known_;
};

}  // namespace

struct Metrics::Families {
    prometheus::Family<prometheus::Counter>* closes = nullptr;
    std::array<prometheus::Counter*, net::kCloseCauseCount> server_closes{};
    prometheus::Family<prometheus::Counter>* http = nullptr;
    std::array<prometheus::Gauge*, kVersions> connections{};
    std::array<prometheus::Counter*, kVersions> frames_in{}, bytes_in{}, frames_out{}, bytes_out{}, dropped{}, rejected{};
    prometheus::Histogram* tick = nullptr;
    prometheus::Histogram* arena_simulate = nullptr;
    prometheus::Counter* overruns = nullptr;
    prometheus::Counter* steps_dropped = nullptr;
    prometheus::Counter* steps_caught_up = nullptr;
    prometheus::Counter* store_errors = nullptr;
    std::array<prometheus::Counter*, kVersions> budget_exceeded{};
    prometheus::Family<prometheus::Gauge>* hns_matches = nullptr;
    prometheus::Family<prometheus::Gauge>* hns_seats = nullptr;
    prometheus::Counter* hns_ticks = nullptr;
    std::optional<KnownLabels> hns_frame_bytes;
    prometheus::Counter* hns_spectator_deltas = nullptr;
    prometheus::Counter* hns_spectator_keyframes = nullptr;
    std::optional<KnownLabels> hns_viewer_resyncs;
    prometheus::Histogram* hns_replay_seek_steps = nullptr;
    prometheus::Histogram* hns_decision_latency = nullptr;
    prometheus::Family<prometheus::Counter>* hns_fallbacks = nullptr;
    prometheus::Family<prometheus::Counter>* hns_refused = nullptr;
    prometheus::Gauge* hns_leagues_running = nullptr;
    prometheus::Counter* hns_league_matches = nullptr;
    prometheus::Counter* hns_frames_late = nullptr;
    prometheus::Counter* hns_network_waits = nullptr;
    prometheus::Family<prometheus::Counter>* refused = nullptr;
    prometheus::Family<prometheus::Counter>* peer_timeouts = nullptr;
    prometheus::Counter* accept_errors = nullptr;
    prometheus::Counter* commands_rejected = nullptr;
    prometheus::Counter* school_controls_refused = nullptr;
    prometheus::Gauge* polled_sockets = nullptr;
    prometheus::Counter* readers_lagging = nullptr;
};

Metrics::Metrics() : registry_(std::make_shared<prometheus::Registry>()), f_(std::make_unique<Families>()) {
    using namespace prometheus;
    auto& connections = BuildGauge().Name("hschool_connections").Help("Open WebSocket connections by protocol version").Register(*registry_);
    auto& frames_in = BuildCounter().Name("hschool_frames_in_total").Help("WebSocket frames received").Register(*registry_);
    auto& bytes_in = BuildCounter().Name("hschool_bytes_in_total").Help("WebSocket payload bytes received").Register(*registry_);
    auto& frames_out = BuildCounter().Name("hschool_frames_out_total").Help("WebSocket frames sent").Register(*registry_);
    auto& bytes_out = BuildCounter().Name("hschool_bytes_out_total").Help("WebSocket payload bytes sent").Register(*registry_);
    auto& dropped = BuildCounter().Name("hschool_frames_dropped_total").Help("Tick frames dropped by back pressure (drop-oldest)").Register(*registry_);
    auto& rejected = BuildCounter().Name("hschool_frames_rejected_total").Help("Inbound frames rejected as malformed").Register(*registry_);
    auto& budget = BuildCounter().Name("hschool_ws_budget_exceeded_total").Help("WebSockets closed (1008) for sending over their inbound budget").Register(*registry_);
    for (WireVersion v : {WireVersion::None, WireVersion::Arena, WireVersion::Schools, WireVersion::Sprite, WireVersion::ArenaV5}) {
        const Labels l{{"version", label(v)}};
        const auto i = slot(v);
        f_->connections[i] = &connections.Add(l);
        f_->frames_in[i] = &frames_in.Add(l);
        f_->bytes_in[i] = &bytes_in.Add(l);
        f_->frames_out[i] = &frames_out.Add(l);
        f_->bytes_out[i] = &bytes_out.Add(l);
        f_->dropped[i] = &dropped.Add(l);
        f_->rejected[i] = &rejected.Add(l);
        f_->budget_exceeded[i] = &budget.Add(l);
    }
    f_->refused = &BuildCounter().Name("hschool_connections_refused_total").Help("WebSocket upgrades refused, by reason").Register(*registry_);
    for (const char* reason : {"total", "per_ip", "origin"}) f_->refused->Add({{"reason", reason}});
    f_->peer_timeouts = &BuildCounter().Name("hschool_peer_timeouts_total").Help("WebSockets closed for a silent or stuck peer").Register(*registry_);
    for (const char* reason : {"silent", "write_stall"}) f_->peer_timeouts->Add({{"reason", reason}});
    f_->accept_errors = &BuildCounter().Name("hschool_accept_errors_total").Help("Failed accept() calls (out of descriptors or buffers)").Register(*registry_).Add({});
    f_->commands_rejected = &BuildCounter().Name("hschool_commands_rejected_total").Help("Client commands refused because the loop's inbox was full").Register(*registry_).Add({});
    f_->school_controls_refused = &BuildCounter().Name("hschool_school_controls_refused_total").Help("v4 SetRunning/SetSpeed ignored in owners mode (schools-controls-need-owner): the session holds no token for the school").Register(*registry_).Add({});
    f_->readers_lagging = &BuildCounter().Name("hschool_readers_lagging_total")
                               .Help("Times a WebSocket's reader fell more than --max-delivery-lag-ms behind: its lossy frames waited and were skipped")
                               .Register(*registry_)
                               .Add({});
    f_->polled_sockets = &BuildGauge().Name("hschool_polled_sockets").Help("WebSockets read in batches by their network thread's poller (arena v5)").Register(*registry_).Add({});
    f_->closes = &BuildCounter().Name("hschool_closes_total").Help("WebSocket closes sent by the server, by close code").Register(*registry_);
    auto& server_closes = BuildCounter().Name("hschool_server_closes_total")
                              .Help("WebSockets the server ended (a Close frame, or dropped without one), by reason; one per connection")
                              .Register(*registry_);
    for (int c = 0; c < net::kCloseCauseCount; ++c)
        f_->server_closes[static_cast<std::size_t>(c)] = &server_closes.Add({{"reason", net::label(static_cast<net::CloseCause>(c))}});
    f_->http = &BuildCounter().Name("hschool_http_requests_total").Help("HTTP responses by status").Register(*registry_);
    f_->http->Add({{"status", "200"}});  // so the family is listed before the first response
    f_->tick = &BuildHistogram().Name("hschool_tick_duration_seconds").Help("Time spent in one loop wake-up: commands, steps, broadcast")
                    .Register(*registry_)
                    .Add({}, Histogram::BucketBoundaries{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1});
    f_->arena_simulate = &BuildHistogram().Name("hschool_arena_simulate_seconds").Help("Arena steps plus snapshot capture and encode, per wake-up with players")
                              .Register(*registry_)
                              .Add({}, Histogram::BucketBoundaries{0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01});
    f_->overruns = &BuildCounter().Name("hschool_tick_overruns_total").Help("Wake-ups that took longer than one tick").Register(*registry_).Add({});
    f_->steps_dropped = &BuildCounter().Name("hschool_steps_dropped_total").Help("Steps skipped after a stall longer than the catch-up limit").Register(*registry_).Add({});
    f_->steps_caught_up = &BuildCounter().Name("hschool_steps_caught_up_total")
                               .Help("Steps of a late wake-up before its last: clients saw no frame of their tick")
                               .Register(*registry_).Add({});
    f_->hns_matches = &BuildGauge().Name("hschool_hns_matches").Help("Live hide-and-seek matches by phase").Register(*registry_);
    for (const char* phase : {"lobby", "playing", "game_over"}) f_->hns_matches->Add({{"phase", phase}});
    f_->hns_seats = &BuildGauge().Name("hschool_hns_seats").Help("Seated hide-and-seek seats by policy kind").Register(*registry_);
    for (const char* kind : {"scripted", "external", "prompt", "manual"}) f_->hns_seats->Add({{"kind", kind}});
    f_->hns_ticks = &BuildCounter().Name("hschool_hns_ticks_total").Help("Hide-and-seek sim ticks stepped, all matches").Register(*registry_).Add({});
    f_->hns_frame_bytes.emplace(BuildCounter().Name("hschool_hns_frame_bytes_total").Help("Hide-and-seek frame bytes sent, by stream").Register(*registry_),
                                "stream", std::initializer_list<const char*>{"player", "global", "reward", "replay", "global_compact", "replay_compact"});
    auto& encodes = BuildCounter().Name("hschool_hns_spectator_encodes_total").Help("Spectator frames encoded, all matches: shared diffs and keyframes").Register(*registry_);
    f_->hns_spectator_deltas = &encodes.Add({{"kind", "delta"}});
    f_->hns_spectator_keyframes = &encodes.Add({{"kind", "keyframe"}});
    f_->hns_viewer_resyncs.emplace(BuildCounter().Name("hschool_hns_viewer_resyncs_total").Help("Viewers that fell behind: backlog dropped, keyframe once drained").Register(*registry_),
                                   "stream", std::initializer_list<const char*>{"global", "replay", "global_compact", "replay_compact"});
    f_->hns_replay_seek_steps = &BuildHistogram().Name("hschool_hns_replay_seek_steps")
                                     .Help("Ticks a /replay viewer stepped to reach a seek's target, from the nearest shared keyframe")
                                     .Register(*registry_)
                                     .Add({}, Histogram::BucketBoundaries{16, 64, 256, 1024, 4096, 16384, 65536});
    f_->hns_decision_latency = &BuildHistogram().Name("hschool_hns_decision_latency_seconds").Help("From a decision frame to the seat's counting reply (or the deadline)")
                                    .Register(*registry_)
                                    .Add({}, Histogram::BucketBoundaries{0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16});
    f_->hns_fallbacks = &BuildCounter().Name("hschool_hns_fallbacks_total").Help("Seat turns played by burrow instead of the seat, by cause").Register(*registry_);
    for (const char* cause : {"timeout", "parse_error", "transport_error", "throttled", "no_credentials", "budget_guard"})
        f_->hns_fallbacks->Add({{"cause", cause}});
    f_->hns_refused = &BuildCounter().Name("hschool_hns_refused_total").Help("Hide-and-seek requests, sockets and messages refused by a budget, by budget").Register(*registry_);
    f_->hns_leagues_running = &BuildGauge().Name("hschool_hns_leagues_running").Help("Hide-and-seek leagues playing their matches (issue 33)").Register(*registry_).Add({});
    f_->hns_frames_late = &BuildCounter().Name("hschool_hns_frames_late_total")
                              .Help("Live match frames let go more than a frame time late: the matches are behind their 24 Hz")
                              .Register(*registry_)
                              .Add({});
    f_->hns_network_waits = &BuildCounter().Name("hschool_hns_network_waits_total")
                                .Help("Times a live match held its next frame until the network threads had written its seats' frames")
                                .Register(*registry_)
                                .Add({});
    f_->hns_league_matches = &BuildCounter().Name("hschool_hns_league_matches_total").Help("Matches leagues played and archived").Register(*registry_).Add({});
    f_->store_errors = &BuildCounter().Name("hschool_store_errors_total").Help("Database writes that failed: clock batches, creates, deletes").Register(*registry_).Add({});
}

Metrics::~Metrics() = default;

void Metrics::connection_opened(net::ProtocolTag tag) { f_->connections[slot(tag)]->Increment(); }
void Metrics::connection_closed(net::ProtocolTag tag) { f_->connections[slot(tag)]->Decrement(); }
void Metrics::connection_spoke(net::ProtocolTag tag) {
    f_->connections[slot(WireVersion::None)]->Decrement();
    f_->connections[slot(tag)]->Increment();
}
void Metrics::reader_lagging() { f_->readers_lagging->Increment(); }
void Metrics::polled_socket(bool added) { added ? f_->polled_sockets->Increment() : f_->polled_sockets->Decrement(); }
void Metrics::frames_in(net::ProtocolTag tag, std::size_t frames, std::size_t bytes) {
    if (frames == 0) return;
    f_->frames_in[slot(tag)]->Increment(static_cast<double>(frames));
    f_->bytes_in[slot(tag)]->Increment(static_cast<double>(bytes));
}
void Metrics::frames_out(net::ProtocolTag tag, std::size_t frames, std::size_t bytes) {
    f_->frames_out[slot(tag)]->Increment(static_cast<double>(frames));
    f_->bytes_out[slot(tag)]->Increment(static_cast<double>(bytes));
}
void Metrics::frames_dropped(net::ProtocolTag tag, std::size_t count) {
    if (count > 0) f_->dropped[slot(tag)]->Increment(static_cast<double>(count));
}
void Metrics::close_sent(std::uint16_t code) { f_->closes->Add({{"code", std::to_string(code)}}).Increment(); }
void Metrics::server_closed(net::CloseCause cause) { f_->server_closes[static_cast<std::size_t>(cause)]->Increment(); }
void Metrics::decode_rejected(WireVersion v) { f_->rejected[slot(v)]->Increment(); }
void Metrics::tick(double seconds) { f_->tick->Observe(seconds); }
void Metrics::arena_simulate(double seconds) { f_->arena_simulate->Observe(seconds); }
void Metrics::tick_overrun() { f_->overruns->Increment(); }
void Metrics::steps_dropped(std::uint64_t steps) { f_->steps_dropped->Increment(static_cast<double>(steps)); }
void Metrics::steps_caught_up(std::uint64_t steps) { f_->steps_caught_up->Increment(static_cast<double>(steps)); }
void Metrics::http_request(unsigned status) { f_->http->Add({{"status", std::to_string(status)}}).Increment(); }
void Metrics::store_error() { f_->store_errors->Increment(); }

void Metrics::budget_exceeded(net::ProtocolTag tag) { f_->budget_exceeded[slot(tag)]->Increment(); }
void Metrics::connection_refused(const char* reason) { f_->refused->Add({{"reason", reason}}).Increment(); }
void Metrics::accept_error() { f_->accept_errors->Increment(); }
void Metrics::peer_timeout(const char* reason) { f_->peer_timeouts->Add({{"reason", reason}}).Increment(); }
void Metrics::commands_rejected() { f_->commands_rejected->Increment(); }
void Metrics::school_control_refused() { f_->school_controls_refused->Increment(); }

void Metrics::match_phase(const char* from, const char* to) {
    if (*from) f_->hns_matches->Add({{"phase", from}}).Decrement();
    if (*to) f_->hns_matches->Add({{"phase", to}}).Increment();
}
void Metrics::seat_kind(const char* from, const char* to) {
    if (*from) f_->hns_seats->Add({{"kind", from}}).Decrement();
    if (*to) f_->hns_seats->Add({{"kind", to}}).Increment();
}
void Metrics::ticks(std::size_t count) { f_->hns_ticks->Increment(static_cast<double>(count)); }
void Metrics::frame_late() { f_->hns_frames_late->Increment(); }
void Metrics::network_wait() { f_->hns_network_waits->Increment(); }
void Metrics::frame_bytes(const char* stream, std::size_t bytes) {
    (*f_->hns_frame_bytes)[stream].Increment(static_cast<double>(bytes));
}
void Metrics::spectator_encodes(std::size_t deltas, std::size_t keyframes) {
    if (deltas) f_->hns_spectator_deltas->Increment(static_cast<double>(deltas));
    if (keyframes) f_->hns_spectator_keyframes->Increment(static_cast<double>(keyframes));
}
void Metrics::viewer_resyncs(const char* stream, std::size_t count) {
    (*f_->hns_viewer_resyncs)[stream].Increment(static_cast<double>(count));
}
void Metrics::replay_seek(std::size_t steps) { f_->hns_replay_seek_steps->Observe(static_cast<double>(steps)); }
void Metrics::decision_latency(double seconds) { f_->hns_decision_latency->Observe(seconds); }
void Metrics::fallback(const char* cause) { f_->hns_fallbacks->Add({{"cause", cause}}).Increment(); }
void Metrics::refused(const char* reason) { f_->hns_refused->Add({{"reason", reason}}).Increment(); }
void Metrics::leagues_running(int delta) { f_->hns_leagues_running->Increment(delta); }
void Metrics::league_match_played() { f_->hns_league_matches->Increment(); }

std::string Metrics::render() const { return prometheus::TextSerializer().Serialize(registry_->Collect()); }

}  // namespace hschool::server

// /health and /metrics.
namespace hschool::server {
namespace {

net::HttpResponse serving(const HealthSources& sources) {
    if (const auto failure = sources.store ? sources.store->failure() : std::nullopt) {
        // Writes are failing: load balancers should stop sending players here until one succeeds.
        const boost::json::object body{{"status", "store-error"}, {"reason", net::escape_invalid_utf8(*failure)}};
        return {503, "application/json", boost::json::serialize(body), {}};
    }
    boost::json::object body{{"status", "serving"}, {"access", sources.access}};
    if (std::string_view(sources.llm) != "none") body["llm"] = sources.llm;  // a prompt seat asks this transport
    if (!sources.serving_files) body["webRoot"] = "none";
    return {200, "application/json", boost::json::serialize(body), {}};
}

}  // namespace

void add_ops_routes(net::HttpRouter& router, const std::atomic<Health>& health, const Metrics& metrics, HealthSources sources) {
    router.add("GET", "/health", [&health, sources](const net::HttpRequest&, const net::PathParams&, net::Respond respond) {
        switch (health.load()) {
            case Health::Serving: return respond(serving(sources));
            case Health::Starting: return respond({503, "application/json", R"({"status":"starting"})", {}});
            case Health::Draining: return respond({503, "application/json", R"({"status":"draining"})", {}});
        }
    });
    router.add("GET", "/metrics", [&metrics](const net::HttpRequest&, const net::PathParams&, net::Respond respond) {
        respond({200, "text/plain; version=0.0.4; charset=utf-8", metrics.render(), {}});
    });
}

}  // namespace hschool::server
