#include "hns_load.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/json.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "http_client.hpp"
#include "load_plan.hpp"
#include "protocol/sprite_v1.hpp"
#include "report.hpp"
#include "server_probe.hpp"

namespace hschool::load {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace json = boost::json;
using tcp = net::ip::tcp;
using SteadyClock = std::chrono::steady_clock;

namespace {

constexpr int kSeatsPerMatch = 6;
constexpr std::size_t kMaxReadMessageBytes = 16u << 20;  // a spectator's first frame is ~1.45 MB in two messages
constexpr std::array<std::uint8_t, 1> kReady{0x85};       // Sprite v1 "ready": one whole 1-byte message
constexpr auto kConnectTimeout = std::chrono::seconds(10);
constexpr auto kSweepPeriod = std::chrono::milliseconds(200);
constexpr auto kRampLimit = std::chrono::seconds(60);
constexpr auto kStopGrace = std::chrono::seconds(3);
constexpr auto kPoll = std::chrono::milliseconds(5);
constexpr double kSpectatorSettleSeconds = 1.0;  // the first /global frame (the map, ~1.45 MB) stays out of the window
constexpr double kLateMs = 50.0;                 // the target's bound on the frame interval
constexpr double kMissedMs = 1.5 * 1000.0 / 24;  // an interval this long means a frame time went by without a frame
constexpr auto kRestTimeout = std::chrono::seconds(15);
constexpr auto kBackKeyPeriod = std::chrono::milliseconds(250);  // replay: how often each viewer presses 'b'
constexpr auto kPlayOutLimit = std::chrono::seconds(120);        // replay: the long match must end by then
// replay: about 4,000 ticks (one certification game with a 40-turn hunt), so a 'b' that re-stepped
// from tick 0 would cost ~4,000 steps.
constexpr const char* kLongReplayConfig = R"({"huntTurns":40,"maxGames":1})";
constexpr double kFirstWindowSeconds = 5.0;  // watch: "the first 5 s" of a viewer, from its socket's open
// watch: each speed's match is measured after this warm-up (its keyframe) for this long; a default
// match at 16 ticks a frame lasts about seven seconds.
constexpr double kSpeedWarmupSeconds = 1.5;
constexpr double kSpeedWindowSeconds = 4.0;
struct SpeedKey {
    const char* key;  // the 0x81 text that picks it (spec §2.8)
    int ticks_per_frame;
};
constexpr std::array<SpeedKey, 5> kSpeedKeys{{{"1", 1}, {"2", 2}, {"4", 4}, {"8", 8}, {"6", 16}}};

protocol::Bytes key_message(const std::string& text) {
    return protocol::sprite_v1::encode(protocol::sprite_v1::ClientMessage{protocol::sprite_v1::InputText{text}});
}

std::int64_t now_us() {
    return std::chrono::duration_cast<std::chrono::microseconds>(SteadyClock::now().time_since_epoch()).count();
}

double seconds_between(std::int64_t a_us, std::int64_t b_us) { return static_cast<double>(b_us - a_us) / 1e6; }

// Nearest-rank percentile of a sorted vector; 0 when empty.
template <class T>
double sorted_percentile(const std::vector<T>& v, double p) {
    if (v.empty()) return 0;
    const auto rank = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
    return static_cast<double>(v[std::min(rank, v.size() - 1)]);
}

struct Seat {
    Seat(net::io_context& ioc, std::string t) : ws(ioc), target(std::move(t)) {}
    websocket::stream<tcp::socket> ws;
    beast::flat_buffer buffer;
    std::string target;
    bool connecting = false, open = false, failed = false, closed = false, closed_by_us = false;
    std::string fail_reason;
    std::uint16_t close_code = 0;  // 0: ended without a Close frame
    bool writing = false, ready_owed = false;
    std::int64_t started_us = 0, opened_us = 0, first_frame_us = 0, last_frame_us = 0, closed_us = 0;
    std::uint64_t frames = 0, bytes = 0, texts = 0, readies = 0;  // whole life
    std::uint64_t first_message_bytes = 0;
    std::uint64_t first_window_bytes = 0;  // received within kFirstWindowSeconds of the open
    std::uint64_t window_frames = 0, window_bytes = 0;
    std::vector<std::uint32_t> intervals_us;  // window: arrival of a binary message − arrival of the previous one
    std::vector<std::int64_t> late_at_us;     // window: arrivals that ended an interval over kMissedMs
    std::size_t group = 0;                    // the match (seats) this socket belongs to
};

struct Counters {
    std::atomic<bool> measuring{false};
    std::atomic<int> pending{0};
    std::atomic<int> opened{0};
    std::atomic<int> ended{0};  // failed or closed
};

// One io_context and its thread; seats never move between shards, so no locks.
struct Shard {
    Shard(const HnsPlan& p, Counters& c) : plan(p), counters(c), endpoint(net::ip::make_address(p.host), p.port) {
        host_header = p.host + ":" + std::to_string(p.port);
    }

    const HnsPlan& plan;
    Counters& counters;
    net::io_context ioc{1};
    tcp::endpoint endpoint;
    std::string host_header;
    std::vector<std::unique_ptr<Seat>> seats;
    bool answer_ready = false;
    protocol::Bytes open_key, periodic_key;  // Sprite v1 0x81 texts: sent once on open; every kBackKeyPeriod
    net::steady_timer key_timer{ioc};
    std::size_t next = 0;
    int in_flight = 0;
    bool stopping = false;
    net::steady_timer sweep{ioc};
    std::atomic<bool> finished{false};

    void add(std::string target, std::size_t group) {
        seats.push_back(std::make_unique<Seat>(ioc, std::move(target)));
        seats.back()->group = group;
    }

    void run() {
        launch_more();
        arm_sweep();
        if (!periodic_key.empty()) arm_keys();
        ioc.run();
        finished = true;
    }

    void launch_more() {
        while (!stopping && in_flight < plan.ramp_batch && next < seats.size()) {
            connect(*seats[next++]);
            ++in_flight;
        }
    }

    void resolved() {
        --in_flight;
        counters.pending.fetch_sub(1);
        launch_more();
    }

    void connect(Seat& s) {
        s.connecting = true;
        s.started_us = now_us();
        s.ws.read_message_max(kMaxReadMessageBytes);
        s.ws.binary(true);
        s.ws.auto_fragment(false);
        s.ws.secure_prng(false);
        s.ws.next_layer().async_connect(endpoint, [this, &s](beast::error_code ec) {
            if (ec) return fail(s, "connect: " + ec.message());
            beast::error_code ignored;
            s.ws.next_layer().set_option(tcp::no_delay(true), ignored);  // a 1-byte ready must not wait for Nagle
            s.ws.async_handshake(host_header, s.target, [this, &s](beast::error_code hec) {
                if (hec) return fail(s, "upgrade: " + hec.message());
                s.connecting = false;
                s.open = true;
                s.opened_us = now_us();
                counters.opened.fetch_add(1);
                resolved();
                read_next(s);
                if (!open_key.empty()) send_key(s, open_key);
            });
        });
    }

    void fail(Seat& s, std::string why) {
        if (!s.connecting) return;
        s.connecting = false;
        s.failed = true;
        s.fail_reason = std::move(why);
        beast::error_code ignored;
        s.ws.next_layer().close(ignored);
        counters.ended.fetch_add(1);
        resolved();
    }

    void read_next(Seat& s) {
        s.buffer.consume(s.buffer.size());
        s.ws.async_read(s.buffer, [this, &s](beast::error_code ec, std::size_t n) {
            if (ec) return on_end(s, ec);
            on_message(s, n);
            read_next(s);
        });
    }

    void on_message(Seat& s, std::size_t n) {
        const auto t = now_us();
        if (!s.ws.got_binary()) {
            ++s.texts;  // decisions go to external seats only: none expected
            return;
        }
        if (s.frames == 0) {
            s.first_frame_us = t;
            s.first_message_bytes = n;
        }
        if (counters.measuring.load(std::memory_order_relaxed)) {
            ++s.window_frames;
            s.window_bytes += n;
            if (s.last_frame_us != 0) {
                s.intervals_us.push_back(static_cast<std::uint32_t>(std::min<std::int64_t>(t - s.last_frame_us, UINT32_MAX)));
                if (t - s.last_frame_us > static_cast<std::int64_t>(kMissedMs * 1000)) s.late_at_us.push_back(t);
            }
        }
        s.last_frame_us = t;
        ++s.frames;
        s.bytes += n;
        if (t - s.opened_us < static_cast<std::int64_t>(kFirstWindowSeconds * 1e6)) s.first_window_bytes += n;
        if (answer_ready) send_ready(s);
    }

    // One write in flight; a ready owed meanwhile goes right after it (the server keeps a flag, not a count).
    void send_ready(Seat& s) {
        if (s.closed || stopping) return;
        if (s.writing) {
            s.ready_owed = true;
            return;
        }
        s.writing = true;
        s.ws.async_write(net::buffer(kReady), [this, &s](beast::error_code ec, std::size_t) {
            s.writing = false;
            if (ec) return;
            ++s.readies;
            if (s.ready_owed) {
                s.ready_owed = false;
                send_ready(s);
            }
        });
    }

    // A key press; skipped when a write is in flight (the next period presses again).
    void send_key(Seat& s, const protocol::Bytes& key) {
        if (s.closed || stopping || s.writing) return;
        s.writing = true;
        s.ws.async_write(net::buffer(key), [&s](beast::error_code, std::size_t) { s.writing = false; });
    }

    void arm_keys() {
        key_timer.expires_after(kBackKeyPeriod);
        key_timer.async_wait([this](beast::error_code ec) {
            if (ec || stopping) return;
            for (std::size_t i = 0; i < next; ++i)
                if (seats[i]->open) send_key(*seats[i], periodic_key);
            arm_keys();
        });
    }

    void on_end(Seat& s, beast::error_code ec) {
        if (s.connecting) return fail(s, "read: " + ec.message());
        if (s.closed) return;
        s.closed = true;
        s.closed_us = now_us();
        s.closed_by_us = stopping;
        if (ec == websocket::error::closed) s.close_code = s.ws.reason().code;
        if (!stopping) counters.ended.fetch_add(1);
    }

    void arm_sweep() {
        sweep.expires_after(kSweepPeriod);
        sweep.async_wait([this](beast::error_code ec) {
            if (ec || stopping) return;
            const auto t = now_us();
            for (std::size_t i = 0; i < next; ++i) {
                Seat& s = *seats[i];
                if (s.connecting && t - s.started_us > std::chrono::duration_cast<std::chrono::microseconds>(kConnectTimeout).count())
                    fail(s, "timeout");
            }
            arm_sweep();
        });
    }

    void shutdown() {
        stopping = true;
        sweep.cancel();
        key_timer.cancel();
        for (auto& s : seats) {
            beast::error_code ignored;
            s->ws.next_layer().close(ignored);
        }
    }
};

// Seats (or spectators) on 1–2 threads.
class Driver {
public:
    Driver(const HnsPlan& plan, int threads, bool answer_ready) {
        for (int i = 0; i < std::max(1, threads); ++i) {
            shards_.push_back(std::make_unique<Shard>(plan, counters_));
            shards_.back()->answer_ready = answer_ready;
        }
    }
    ~Driver() { stop(); }

    // Targets of one match go to one shard.
    void add_group(std::size_t group, const std::vector<std::string>& targets) {
        for (const auto& t : targets) shards_[group % shards_.size()]->add(t, group);
        counters_.pending.fetch_add(static_cast<int>(targets.size()));
        total_ += targets.size();
    }

    void start() {
        for (auto& s : shards_) threads_.emplace_back([sh = s.get()] { sh->run(); });
    }
    // Every socket open or failed; false after the ramp limit.
    bool wait_ramp() {
        const auto until = SteadyClock::now() + kRampLimit;
        while (counters_.pending.load() > 0 && SteadyClock::now() < until) std::this_thread::sleep_for(kPoll);
        return counters_.pending.load() == 0;
    }
    // Every socket ended (failed or closed by the server); false at the deadline.
    bool wait_all_ended(SteadyClock::time_point until) {
        while (counters_.ended.load() < static_cast<int>(total_) && SteadyClock::now() < until) std::this_thread::sleep_for(kPoll);
        return counters_.ended.load() >= static_cast<int>(total_);
    }
    void set_measuring(bool on) { counters_.measuring = on; }
    // Before start(): texts every socket sends when it opens, and every kBackKeyPeriod.
    void set_keys(const std::string& on_open, const std::string& periodic) {
        for (auto& s : shards_) {
            if (!on_open.empty()) s->open_key = key_message(on_open);
            if (!periodic.empty()) s->periodic_key = key_message(periodic);
        }
    }
    int opened() const { return counters_.opened.load(); }
    int ended() const { return counters_.ended.load(); }

    void stop() {
        if (threads_.empty()) return;
        counters_.measuring = false;
        for (auto& s : shards_) net::post(s->ioc, [sh = s.get()] { sh->shutdown(); });
        const auto deadline = SteadyClock::now() + kStopGrace;
        for (auto& s : shards_) {
            while (!s->finished && SteadyClock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(10));
            s->ioc.stop();
        }
        for (auto& t : threads_) t.join();
        threads_.clear();
    }

    // After stop(): every seat, shard by shard.
    std::vector<const Seat*> seats() const {
        std::vector<const Seat*> out;
        for (const auto& sh : shards_)
            for (const auto& s : sh->seats) out.push_back(s.get());
        return out;
    }

private:
    Counters counters_;
    std::vector<std::unique_ptr<Shard>> shards_;
    std::vector<std::thread> threads_;
    std::size_t total_ = 0;
};

// ---- the REST ----

std::optional<json::object> parse_object(const std::string& text) {
    json::error_code ec;
    auto v = json::parse(text, ec);
    if (ec || !v.is_object()) return std::nullopt;
    return v.as_object();
}

// POST /api/hns/matches; the id, or "" with the answer in `error`.
std::string create_match(const HnsPlan& plan, const std::string& variant, int bots, std::string& error, const char* config = nullptr) {
    json::object body{{"variant", variant}, {"bots", bots}};
    if (config) body["config"] = json::parse(config);
    const auto reply = http_request(plan.host, plan.port, "POST", "/api/hns/matches", json::serialize(body), kRestTimeout);
    if (reply.status != 201) {
        error = "POST /api/hns/matches answered " + std::to_string(reply.status) + ": " + reply.body.substr(0, 300);
        return "";
    }
    auto o = parse_object(reply.body);
    if (!o || !o->contains("id") || !o->at("id").is_string()) {
        error = "POST /api/hns/matches: no id in " + reply.body.substr(0, 300);
        return "";
    }
    return std::string(o->at("id").as_string());
}

struct MatchState {
    std::int64_t tick = -1;
    std::string phase;
};

MatchState match_state(const HnsPlan& plan, const std::string& id) {
    MatchState m;
    const auto reply = http_request(plan.host, plan.port, "GET", "/api/hns/matches/" + id, {}, kRestTimeout);
    if (reply.status != 200) return m;
    if (auto o = parse_object(reply.body)) {
        if (const auto* t = o->if_contains("tick"); t && t->is_int64()) m.tick = t->as_int64();
        if (const auto* p = o->if_contains("phase"); p && p->is_string()) m.phase = std::string(p->as_string());
    }
    return m;
}

std::vector<std::string> seat_targets(const std::string& id) {
    std::vector<std::string> out;
    for (int slot = 0; slot < kSeatsPerMatch; ++slot)
        out.push_back("/player?match=" + id + "&slot=" + std::to_string(slot) + "&name=s" + std::to_string(slot));
    return out;
}

// ---- reporting pieces ----

// Every thread's /proc/PID/task/TID/schedstat: ns on the CPU, ns runnable but waiting for one, and
// timeslices. The wait says how much a busy machine (others' work, or the load generator) held the
// server back, which CPU % alone cannot.
struct SchedSample {
    double run_ns = 0, wait_ns = 0, slices = 0;
};

std::optional<SchedSample> sample_sched(int pid) {
    namespace fs = std::filesystem;
    std::error_code ec;
    SchedSample s;
    bool any = false;
    for (const auto& task : fs::directory_iterator("/proc/" + std::to_string(pid) + "/task", ec)) {
        std::ifstream in(task.path() / "schedstat");
        double run = 0, wait = 0, slices = 0;
        if (in >> run >> wait >> slices) {
            s.run_ns += run;
            s.wait_ns += wait;
            s.slices += slices;
            any = true;
        }
    }
    if (!any) return std::nullopt;
    return s;
}

struct Probe {
    std::optional<ProcSample> server, self;
    std::optional<SchedSample> sched;
    std::int64_t at_us = 0;
};

Probe probe(const HnsPlan& plan) {
    Probe p;
    if (plan.server_pid > 0) {
        p.server = sample_process(plan.server_pid);
        p.sched = sample_sched(plan.server_pid);
    }
    p.self = sample_process(getpid());
    p.at_us = now_us();
    return p;
}

void put_cpu(json::object& o, const char* prefix, const Probe& a, const Probe& b) {
    const double wall = std::max(seconds_between(a.at_us, b.at_us), 1e-9);
    const std::string p(prefix);
    if (a.server && b.server) {
        o[p + "server_cpu_pct"] = 100.0 * (b.server->cpu_seconds - a.server->cpu_seconds) / wall;
        o[p + "server_rss_mib"] = static_cast<double>(b.server->rss_kib) / 1024.0;
        o[p + "server_hwm_mib"] = static_cast<double>(b.server->hwm_kib) / 1024.0;
    }
    if (a.self && b.self) o[p + "loadgen_cpu_pct"] = 100.0 * (b.self->cpu_seconds - a.self->cpu_seconds) / wall;
    if (a.sched && b.sched) {
        // Threads that came and went in between make this approximate; the seats' matches live through the window.
        const double wait_ms = (b.sched->wait_ns - a.sched->wait_ns) / 1e6;
        const double slices = b.sched->slices - a.sched->slices;
        o[p + "server_runqueue_wait_ms_per_s"] = wait_ms / wall;
        o[p + "server_runqueue_wait_us_per_slice"] = slices > 0 ? 1000.0 * wait_ms / slices : 0.0;
    }
}

// Frame intervals, frames and bytes over the window, for every seat that was open.
void put_frames(json::object& o, const std::vector<const Seat*>& seats, double window) {
    std::vector<std::uint32_t> all;
    std::vector<double> rates;
    std::uint64_t frames = 0, bytes = 0, texts = 0, readies = 0;
    for (const auto* s : seats) {
        if (!s->open) continue;
        all.insert(all.end(), s->intervals_us.begin(), s->intervals_us.end());
        rates.push_back(static_cast<double>(s->window_frames) / window);
        frames += s->window_frames;
        bytes += s->window_bytes;
        texts += s->texts;
        readies += s->readies;
    }
    std::sort(all.begin(), all.end());
    std::sort(rates.begin(), rates.end());
    std::uint64_t late = 0, missed = 0;
    for (auto us : all) {
        late += us > kLateMs * 1000;
        missed += us > kMissedMs * 1000;
    }
    const double n = std::max<double>(1, static_cast<double>(all.size()));
    o["window_s"] = window;
    o["frames"] = frames;
    o["frames_per_s"] = static_cast<double>(frames) / window;
    o["bytes_per_s"] = static_cast<double>(bytes) / window;
    o["frame_bytes_mean"] = frames ? static_cast<double>(bytes) / static_cast<double>(frames) : 0.0;
    o["seat_hz_p50"] = sorted_percentile(rates, 0.5);
    o["seat_hz_min"] = rates.empty() ? 0.0 : rates.front();
    o["intervals"] = all.size();
    o["interval_ms_p50"] = sorted_percentile(all, 0.5) / 1000.0;
    o["interval_ms_p90"] = sorted_percentile(all, 0.9) / 1000.0;
    o["interval_ms_p99"] = sorted_percentile(all, 0.99) / 1000.0;
    o["interval_ms_p999"] = sorted_percentile(all, 0.999) / 1000.0;
    o["interval_ms_max"] = all.empty() ? 0.0 : static_cast<double>(all.back()) / 1000.0;
    o["share_over_50ms"] = static_cast<double>(late) / n;
    o["share_over_62ms"] = static_cast<double>(missed) / n;
    o["text_messages"] = texts;
    o["readies_sent"] = readies;
    // Is a late frame one match's (its thread was late) or everybody's at once (a stalled network
    // thread, or the whole process off the CPU)? For each late arrival: the matches with a late
    // arrival within ±kTogetherUs of it, and how many of the match's own seats were late with it.
    constexpr std::int64_t kTogetherUs = 25'000;
    std::vector<std::pair<std::int64_t, std::size_t>> lates;  // (arrival, group)
    std::size_t groups = 0;
    for (const auto* s : seats) {
        groups = std::max(groups, s->group + 1);
        for (auto t : s->late_at_us) lates.emplace_back(t, s->group);
    }
    std::sort(lates.begin(), lates.end());
    std::vector<double> together, own;
    std::size_t lo = 0, hi = 0;
    std::vector<int> count(groups, 0);
    std::size_t distinct = 0;
    for (std::size_t i = 0; i < lates.size(); ++i) {
        while (hi < lates.size() && lates[hi].first <= lates[i].first + kTogetherUs) {
            if (count[lates[hi].second]++ == 0) ++distinct;
            ++hi;
        }
        while (lates[lo].first < lates[i].first - kTogetherUs) {
            if (--count[lates[lo].second] == 0) --distinct;
            ++lo;
        }
        together.push_back(static_cast<double>(distinct));
        own.push_back(static_cast<double>(count[lates[i].second]));
    }
    std::sort(together.begin(), together.end());
    std::sort(own.begin(), own.end());
    o["late_arrivals"] = lates.size();
    o["late_matches_together_p50"] = sorted_percentile(together, 0.5);
    o["late_matches_together_p90"] = sorted_percentile(together, 0.9);
    o["late_own_seats_together_p50"] = sorted_percentile(own, 0.5);
}

void put_sockets(json::object& o, const std::vector<const Seat*>& seats) {
    std::uint64_t open = 0, failed = 0, closed = 0;
    json::object codes, reasons;
    for (const auto* s : seats) {
        if (s->open) ++open;
        if (s->failed) {
            ++failed;
            auto& r = reasons[s->fail_reason];
            r = r.is_int64() ? r.as_int64() + 1 : 1;
        }
        if (s->closed && !s->closed_by_us) {
            ++closed;
            auto& c = codes[std::to_string(s->close_code)];
            c = c.is_int64() ? c.as_int64() + 1 : 1;
        }
    }
    o["sockets"] = seats.size();
    o["opened"] = open;
    o["failed"] = failed;
    o["closed_by_server"] = closed;
    if (!codes.empty()) o["close_codes"] = codes;
    if (!reasons.empty()) o["fail_reasons"] = reasons;
}

json::object base_object(const HnsPlan& plan, const std::string& variant) {
    json::object o;
    o["scenario"] = hns_mode_name(plan.mode);
    o["variant"] = variant;
    double load[3] = {0, 0, 0};
    if (getloadavg(load, 3) > 0) o["loadavg_1m_at_start"] = load[0];
    return o;
}

// A match with six server bots; its id in o["match"], or "" with o["error"].
std::string bot_match(const HnsPlan& plan, const std::string& variant, json::object& o) {
    std::string error;
    const auto id = create_match(plan, variant, kSeatsPerMatch, error);
    if (id.empty()) o["error"] = error;
    else o["match"] = id;
    return id;
}

// ---- the modes ----

json::object run_seats(const HnsPlan& plan) {
    const std::string variant = plan.variant.empty() ? "default" : plan.variant;
    json::object o = base_object(plan, variant);
    o["matches"] = plan.matches;
    o["answer_ready"] = plan.answer_ready;
    o["threads"] = plan.threads;
    const Probe before = probe(plan);
    if (before.server) o["server_rss_before_mib"] = static_cast<double>(before.server->rss_kib) / 1024.0;

    std::vector<std::string> ids;
    const auto create_start = now_us();
    for (int m = 0; m < plan.matches; ++m) {
        std::string error;
        auto id = create_match(plan, variant, 0, error);
        if (id.empty()) {
            o["error"] = error;
            o["matches_created"] = ids.size();
            return o;
        }
        ids.push_back(std::move(id));
    }
    o["create_s"] = seconds_between(create_start, now_us());

    Driver driver(plan, plan.threads, plan.answer_ready);
    for (std::size_t m = 0; m < ids.size(); ++m) driver.add_group(m, seat_targets(ids[m]));
    const auto ramp_start = now_us();
    driver.start();
    if (!driver.wait_ramp()) o["error"] = "ramp did not finish";
    o["ramp_s"] = seconds_between(ramp_start, now_us());
    sleep_seconds(plan.warmup_seconds);

    std::vector<MatchState> start_states;
    for (const auto& id : ids) start_states.push_back(match_state(plan, id));
    const Probe a = probe(plan);
    driver.set_measuring(true);
    sleep_seconds(plan.seconds);
    driver.set_measuring(false);
    const Probe b = probe(plan);
    std::vector<double> tick_rates;
    json::object phases;
    for (std::size_t m = 0; m < ids.size(); ++m) {
        const auto end = match_state(plan, ids[m]);
        if (start_states[m].tick >= 0 && end.tick >= 0)
            tick_rates.push_back(static_cast<double>(end.tick - start_states[m].tick) / seconds_between(a.at_us, b.at_us));
        auto& c = phases[end.phase.empty() ? "?" : end.phase];
        c = c.is_int64() ? c.as_int64() + 1 : 1;
    }
    const int ended_during_run = driver.ended();
    driver.stop();
    const auto seats = driver.seats();
    const double window = seconds_between(a.at_us, b.at_us);
    put_sockets(o, seats);
    o["ended_before_stop"] = ended_during_run;
    put_frames(o, seats, window);
    put_cpu(o, "", a, b);
    std::sort(tick_rates.begin(), tick_rates.end());
    double total_ticks = 0;
    for (double r : tick_rates) total_ticks += r;
    o["match_ticks_per_s_p50"] = sorted_percentile(tick_rates, 0.5);
    o["match_ticks_per_s_min"] = tick_rates.empty() ? 0.0 : tick_rates.front();
    o["ticks_per_s_all_matches"] = total_ticks;
    o["phases_at_end"] = phases;
    for (const auto& id : ids) http_request(plan.host, plan.port, "DELETE", "/api/hns/matches/" + id, {}, kRestTimeout);
    return o;
}

json::object run_spectate(const HnsPlan& plan) {
    const std::string variant = plan.variant.empty() ? "default" : plan.variant;
    json::object o = base_object(plan, variant);
    o["spectators"] = plan.spectators;
    o["stream"] = plan.stream.empty() ? "sprite" : plan.stream;
    const auto id = bot_match(plan, variant, o);
    if (id.empty()) return o;
    sleep_seconds(plan.warmup_seconds);

    // Window 1: the match alone.
    auto s0 = match_state(plan, id);
    const Probe a = probe(plan);
    sleep_seconds(plan.seconds);
    const Probe b = probe(plan);
    auto s1 = match_state(plan, id);
    json::object alone;
    put_cpu(alone, "", a, b);
    if (s0.tick >= 0 && s1.tick >= 0) alone["match_ticks_per_s"] = static_cast<double>(s1.tick - s0.tick) / seconds_between(a.at_us, b.at_us);
    alone["phase_at_end"] = s1.phase;
    o["without_spectator"] = alone;

    // Window 2: with the spectators (after their first, full frame).
    Driver driver(plan, plan.threads, false);
    const std::string query = plan.stream.empty() ? "" : "&stream=" + plan.stream;
    std::vector<std::string> targets(static_cast<std::size_t>(plan.spectators), "/global?match=" + id + query);
    driver.add_group(0, targets);
    driver.start();
    if (!driver.wait_ramp()) o["error"] = "ramp did not finish";
    sleep_seconds(kSpectatorSettleSeconds);
    s0 = match_state(plan, id);
    const Probe c = probe(plan);
    driver.set_measuring(true);
    sleep_seconds(plan.seconds);
    driver.set_measuring(false);
    const Probe d = probe(plan);
    s1 = match_state(plan, id);
    driver.stop();
    const auto seats = driver.seats();
    json::object with;
    put_sockets(with, seats);
    put_frames(with, seats, seconds_between(c.at_us, d.at_us));
    put_cpu(with, "", c, d);
    if (s0.tick >= 0 && s1.tick >= 0) with["match_ticks_per_s"] = static_cast<double>(s1.tick - s0.tick) / seconds_between(c.at_us, d.at_us);
    with["phase_at_end"] = s1.phase;
    std::uint64_t first = 0;
    for (const auto* s : seats) first = std::max(first, s->first_message_bytes);
    with["first_message_bytes"] = first;
    o["with_spectators"] = with;
    if (alone.contains("server_cpu_pct") && with.contains("server_cpu_pct"))
        o["spectator_server_cpu_pct"] = (with.at("server_cpu_pct").as_double() - alone.at("server_cpu_pct").as_double()) /
                                        std::max(1, plan.spectators);
    http_request(plan.host, plan.port, "DELETE", "/api/hns/matches/" + id, {}, kRestTimeout);
    return o;
}

json::object run_fast(const HnsPlan& plan) {
    const std::string variant = plan.variant.empty() ? "certification" : plan.variant;
    json::object o = base_object(plan, variant);
    const Probe a = probe(plan);
    std::string error;
    const auto id = create_match(plan, variant, 0, error);
    if (id.empty()) {
        o["error"] = error;
        return o;
    }
    o["match"] = id;
    Driver driver(plan, 1, true);
    driver.add_group(0, seat_targets(id));
    driver.start();
    const auto deadline = SteadyClock::now() + std::chrono::duration_cast<SteadyClock::duration>(std::chrono::duration<double>(plan.timeout_seconds));
    if (!driver.wait_ramp()) o["error"] = "ramp did not finish";
    const bool all_ended = driver.wait_all_ended(deadline);
    const Probe b = probe(plan);
    if (!all_ended) o["error"] = "the match did not end before --timeout";
    driver.stop();
    const auto seats = driver.seats();
    put_sockets(o, seats);
    const auto state = match_state(plan, id);
    std::int64_t last_close = 0, last_open = 0;
    std::uint64_t frames_min = UINT64_MAX, frames_max = 0, readies = 0;
    for (const auto* s : seats) {
        if (!s->open) continue;
        last_close = std::max(last_close, s->closed_us);
        last_open = std::max(last_open, s->opened_us);
        frames_min = std::min(frames_min, s->frames);
        frames_max = std::max(frames_max, s->frames);
        readies += s->readies;
    }
    o["final_tick"] = state.tick;
    o["phase"] = state.phase;
    o["frames_per_seat_min"] = frames_min == UINT64_MAX ? 0 : frames_min;
    o["frames_per_seat_max"] = frames_max;
    o["readies_sent"] = readies;
    const double whole = seconds_between(a.at_us, last_close);  // POST → the last socket closed
    const double after_join = seconds_between(last_open, last_close);
    o["match_wall_s"] = whole;
    o["from_sixth_seat_s"] = after_join;
    if (state.tick > 0 && whole > 0) o["ticks_per_s"] = static_cast<double>(state.tick) / whole;
    if (state.tick > 0 && after_join > 0) o["ticks_per_s_after_join"] = static_cast<double>(state.tick) / after_join;
    put_cpu(o, "", a, b);
    return o;
}

json::object run_replay(const HnsPlan& plan) {
    json::object o = base_object(plan, "certification");
    o["viewers"] = plan.viewers;
    o["match_config"] = kLongReplayConfig;
    std::string error;
    const auto id = create_match(plan, "certification", kSeatsPerMatch, error, kLongReplayConfig);
    if (id.empty()) {
        o["error"] = error;
        return o;
    }
    o["match"] = id;
    {
        // Played out by one spectator at 16 ticks per frame ('6'); the match closes it with 1000.
        Driver player(plan, 1, false);
        player.set_keys("6", "");
        player.add_group(0, {"/global?match=" + id});
        player.start();
        if (!player.wait_ramp() || !player.wait_all_ended(SteadyClock::now() + kPlayOutLimit)) o["error"] = "the match did not end";
        player.stop();
    }
    const auto state = match_state(plan, id);
    o["final_tick"] = state.tick;
    if (o.contains("error")) return o;

    Driver driver(plan, plan.threads, false);
    driver.set_keys("e", "b");
    driver.add_group(0, std::vector<std::string>(static_cast<std::size_t>(plan.viewers), "/replay?match=" + id));
    const Probe before = probe(plan);
    driver.start();
    if (!driver.wait_ramp()) o["error"] = "ramp did not finish";
    sleep_seconds(plan.warmup_seconds);
    const Probe a = probe(plan);
    driver.set_measuring(true);
    sleep_seconds(plan.seconds);
    driver.set_measuring(false);
    const Probe b = probe(plan);
    driver.stop();
    const auto seats = driver.seats();
    put_sockets(o, seats);
    put_frames(o, seats, seconds_between(a.at_us, b.at_us));
    put_cpu(o, "", a, b);
    if (before.server) o["server_rss_before_mib"] = static_cast<double>(before.server->rss_kib) / 1024.0;
    return o;
}

// One socket's figures in a watch window: bytes in its first seconds, then bytes and frames a second.
json::object viewer_figures(const Seat& s, double window) {
    json::object v;
    v["opened"] = s.open;
    v["first_5s_bytes"] = s.first_window_bytes;
    v["first_message_bytes"] = s.first_message_bytes;
    v["bytes_per_s"] = static_cast<double>(s.window_bytes) / window;
    v["frames_per_s"] = static_cast<double>(s.window_frames) / window;
    v["closed_by_server"] = s.closed && !s.closed_by_us;
    return v;
}

json::object run_watch(const HnsPlan& plan) {
    const std::string variant = plan.variant.empty() ? "default" : plan.variant;
    json::object o = base_object(plan, variant);
    // Side by side: one match, the contract's /global and our compact stream opened together.
    const auto id = bot_match(plan, variant, o);
    if (id.empty()) return o;
    {
        Driver driver(plan, 1, false);
        driver.add_group(0, {"/global?match=" + id, "/global?match=" + id + "&stream=compact"});
        driver.start();
        if (!driver.wait_ramp()) o["error"] = "ramp did not finish";
        sleep_seconds(kFirstWindowSeconds);
        const auto s0 = match_state(plan, id);
        const Probe a = probe(plan);
        driver.set_measuring(true);
        sleep_seconds(plan.seconds);
        driver.set_measuring(false);
        const Probe b = probe(plan);
        const auto s1 = match_state(plan, id);
        driver.stop();
        const double window = seconds_between(a.at_us, b.at_us);
        const auto seats = driver.seats();
        json::object contract = viewer_figures(*seats[0], window), compact = viewer_figures(*seats[1], window);
        o["contract"] = contract;
        o["compact"] = compact;
        o["steady_window_s"] = window;
        if (s0.tick >= 0 && s1.tick >= 0) o["match_ticks_per_s"] = static_cast<double>(s1.tick - s0.tick) / window;
        const double compact_rate = compact.at("bytes_per_s").as_double();
        if (compact_rate > 0) o["contract_over_compact"] = contract.at("bytes_per_s").as_double() / compact_rate;
        put_cpu(o, "", a, b);
    }
    http_request(plan.host, plan.port, "DELETE", "/api/hns/matches/" + id, {}, kRestTimeout);
    // The speed keys: a fresh match for each, read on the compact stream after its keyframe.
    json::array speeds;
    for (const auto& speed : kSpeedKeys) {
        std::string error;
        const auto sid = create_match(plan, variant, kSeatsPerMatch, error);
        if (sid.empty()) break;
        Driver driver(plan, 1, false);
        driver.set_keys(speed.key, "");
        driver.add_group(0, {"/global?match=" + sid + "&stream=compact"});
        driver.start();
        driver.wait_ramp();
        sleep_seconds(kSpeedWarmupSeconds);
        const auto s0 = match_state(plan, sid);
        const auto a = now_us();
        driver.set_measuring(true);
        sleep_seconds(kSpeedWindowSeconds);
        driver.set_measuring(false);
        const auto b = now_us();
        const auto s1 = match_state(plan, sid);
        driver.stop();
        json::object row = viewer_figures(*driver.seats()[0], seconds_between(a, b));
        row["ticks_per_frame"] = speed.ticks_per_frame;
        if (s0.tick >= 0 && s1.tick >= 0) row["match_ticks_per_s"] = static_cast<double>(s1.tick - s0.tick) / seconds_between(a, b);
        row["phase_at_end"] = s1.phase;
        speeds.push_back(std::move(row));
        http_request(plan.host, plan.port, "DELETE", "/api/hns/matches/" + sid, {}, kRestTimeout);
    }
    o["compact_by_speed"] = std::move(speeds);
    return o;
}

}  // namespace

const char* hns_mode_name(HnsMode mode) {
    switch (mode) {
    case HnsMode::Seats: return "hns-seats";
    case HnsMode::Spectate: return "hns-spectate";
    case HnsMode::Fast: return "hns-fast";
    case HnsMode::Replay: return "hns-replay";
    case HnsMode::Watch: return "hns-watch";
    }
    return "?";
}

json::object run_hns(const HnsPlan& plan) {
    switch (plan.mode) {
    case HnsMode::Seats: return run_seats(plan);
    case HnsMode::Spectate: return run_spectate(plan);
    case HnsMode::Fast: return run_fast(plan);
    case HnsMode::Replay: return run_replay(plan);
    case HnsMode::Watch: return run_watch(plan);
    }
    return {};
}

void print_hns_table(const json::object& o, std::ostream& out) {
    char line[512];
    out << json::serialize(o.at("scenario")) << " " << json::serialize(o.at("variant")) << "\n";
    if (const auto* e = o.if_contains("error")) out << "  error: " << json::serialize(*e) << "\n";
    const auto frames = [&](const json::object& x) {
        std::snprintf(line, sizeof line,
                      "  sockets %.0f open %.0f failed %.0f closed %.0f | %.0f frames/s, %.0f B/s, seat Hz p50 %.2f min %.2f\n"
                      "  interval ms p50 %.2f p90 %.2f p99 %.2f p99.9 %.2f max %.2f | >50 ms %.3f%%, >62 ms %.3f%%\n",
                      json_number(x, "sockets"), json_number(x, "opened"), json_number(x, "failed"), json_number(x, "closed_by_server"), json_number(x, "frames_per_s"),
                      json_number(x, "bytes_per_s"), json_number(x, "seat_hz_p50"), json_number(x, "seat_hz_min"), json_number(x, "interval_ms_p50"),
                      json_number(x, "interval_ms_p90"), json_number(x, "interval_ms_p99"), json_number(x, "interval_ms_p999"), json_number(x, "interval_ms_max"),
                      100 * json_number(x, "share_over_50ms"), 100 * json_number(x, "share_over_62ms"));
        out << line;
    };
    const auto cpu = [&](const json::object& x) {
        std::snprintf(line, sizeof line,
                      "  server CPU %.1f %%, RSS %.1f MiB (peak %.1f); load generator CPU %.1f %%; server threads waited for a CPU "
                      "%.1f ms/s (%.0f us per timeslice)\n",
                      json_number(x, "server_cpu_pct"), json_number(x, "server_rss_mib"), json_number(x, "server_hwm_mib"), json_number(x, "loadgen_cpu_pct"),
                      json_number(x, "server_runqueue_wait_ms_per_s"), json_number(x, "server_runqueue_wait_us_per_slice"));
        out << line;
    };
    const std::string scenario(o.at("scenario").as_string());
    if (scenario == "hns-seats") {
        std::snprintf(line, sizeof line, "  %.0f matches, ready answered: %s; match ticks/s p50 %.2f min %.2f\n", json_number(o, "matches"),
                      o.at("answer_ready").as_bool() ? "yes" : "no", json_number(o, "match_ticks_per_s_p50"), json_number(o, "match_ticks_per_s_min"));
        out << line;
        frames(o);
        cpu(o);
    } else if (scenario == "hns-spectate") {
        if (const auto* x = o.if_contains("without_spectator")) {
            out << "  without spectator:\n";
            cpu(x->as_object());
        }
        if (const auto* x = o.if_contains("with_spectators")) {
            out << "  with " << json_number(o, "spectators") << " spectator(s):\n";
            frames(x->as_object());
            cpu(x->as_object());
        }
    } else if (scenario == "hns-watch") {
        for (const char* kind : {"contract", "compact"}) {
            if (!o.contains(kind)) continue;
            const auto& v = o.at(kind).as_object();
            std::snprintf(line, sizeof line, "  %-8s first 5 s %9.0f B | steady %10.0f B/s, %5.1f frames/s\n", kind,
                          json_number(v, "first_5s_bytes"), json_number(v, "bytes_per_s"), json_number(v, "frames_per_s"));
            out << line;
        }
        std::snprintf(line, sizeof line, "  contract / compact: %.1fx; match %.1f ticks/s\n", json_number(o, "contract_over_compact"),
                      json_number(o, "match_ticks_per_s"));
        out << line;
        if (const auto* speeds = o.if_contains("compact_by_speed")) {
            for (const auto& r : speeds->as_array()) {
                const auto& row = r.as_object();
                std::snprintf(line, sizeof line, "  compact at %2.0f ticks/frame: %9.0f B/s, %5.1f frames/s, match %.0f ticks/s\n",
                              json_number(row, "ticks_per_frame"), json_number(row, "bytes_per_s"), json_number(row, "frames_per_s"),
                              json_number(row, "match_ticks_per_s"));
                out << line;
            }
        }
    } else if (scenario == "hns-replay") {
        std::snprintf(line, sizeof line, "  %.0f viewers of a %.0f-tick replay pressing 'e' then 'b' every 250 ms\n", json_number(o, "viewers"),
                      json_number(o, "final_tick"));
        out << line;
        frames(o);
        cpu(o);
    } else {
        std::snprintf(line, sizeof line, "  final tick %.0f, whole match %.3f s (%.0f ticks/s), from the sixth seat %.3f s (%.0f ticks/s)\n",
                      json_number(o, "final_tick"), json_number(o, "match_wall_s"), json_number(o, "ticks_per_s"), json_number(o, "from_sixth_seat_s"),
                      json_number(o, "ticks_per_s_after_join"));
        out << line;
        cpu(o);
    }
}

}  // namespace hschool::load
