#include "hns_sockets.hpp"

#include <boost/asio/steady_timer.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <optional>

#include "ws/async_ws.hpp"
#include "load_plan.hpp"
#include "protocol/sprite_v1.hpp"
#include "shards.hpp"

namespace hschool::load {

namespace net = boost::asio;
using SteadyClock = std::chrono::steady_clock;

namespace {

constexpr std::size_t kMaxReadMessageBytes = 16u << 20;  // a spectator's first frame is ~1.45 MB in two messages
constexpr std::array<std::uint8_t, 1> kReady{0x85};       // Sprite v1 "ready": one whole 1-byte message
constexpr auto kConnectTimeout = std::chrono::seconds(10);
constexpr auto kSweepPeriod = std::chrono::milliseconds(200);
constexpr auto kRampLimit = std::chrono::seconds(60);
constexpr auto kStopGrace = std::chrono::seconds(3);
constexpr auto kPoll = std::chrono::milliseconds(5);
constexpr auto kBackKeyPeriod = std::chrono::milliseconds(250);  // how often each viewer presses the periodic key

protocol::Bytes key_message(const std::string& text) {
    return protocol::sprite_v1::encode(protocol::sprite_v1::ClientMessage{protocol::sprite_v1::InputText{text}});
}

tools::ws::WsOptions socket_options() {
    tools::ws::WsOptions o;
    o.max_message_bytes = kMaxReadMessageBytes;
    o.no_delay = true;  // a 1-byte ready must not wait for Nagle
    o.cheap_masks = true;
    o.fragment = false;
    return o;
}

struct Counters {
    std::atomic<bool> measuring{false};
    std::atomic<int> pending{0};
    std::atomic<int> opened{0};
    std::atomic<int> ended{0};  // failed or closed
};

// One socket: its WebSocket and what it is doing now; its figures are what the modes read.
struct Client {
    Client(net::io_context& ioc, std::string target) : ws(ioc, socket_options()) { figures.target = std::move(target); }
    tools::ws::AsyncWs ws;
    HnsSocket figures;
    bool writing = false, ready_owed = false;
};

// One io_context and its thread; sockets never move between shards, so no locks.
struct Shard {
    Shard(const HnsPlan& p, Counters& c) : plan(p), counters(c), ramp(p.ramp_batch) { host_header = p.host + ":" + std::to_string(p.port); }

    const HnsPlan& plan;
    Counters& counters;
    net::io_context ioc{1};
    std::string host_header;
    std::vector<std::unique_ptr<Client>> clients;
    bool answer_ready = false;
    protocol::Bytes open_key, periodic_key;  // Sprite v1 0x81 texts: sent once on open; every kBackKeyPeriod
    net::steady_timer key_timer{ioc};
    ConnectRamp ramp;
    bool stopping = false;
    net::steady_timer sweep{ioc};
    std::atomic<bool> finished{false};

    void add(std::string target, std::size_t group) {
        clients.push_back(std::make_unique<Client>(ioc, std::move(target)));
        clients.back()->figures.group = group;
    }

    void run() {
        launch_more();
        arm_sweep();
        if (!periodic_key.empty()) arm_keys();
        ioc.run();
        finished = true;
    }

    void launch_more() {
        ramp.launch(stopping, clients.size(), [this](std::size_t i) { connect(*clients[i]); });
    }

    void resolved() {
        ramp.resolved();
        counters.pending.fetch_sub(1);
        launch_more();
    }

    void connect(Client& c) {
        HnsSocket& s = c.figures;
        s.connecting = true;
        s.started_us = now_us();
        c.ws.connect(plan.host, plan.port, host_header, s.target, [this, &c](std::optional<tools::ws::WsRefusal> refused) {
            if (refused) return fail(c, (refused->connected ? "upgrade: " : "connect: ") + refused->error);
            HnsSocket& opened = c.figures;
            opened.connecting = false;
            opened.open = true;
            opened.opened_us = now_us();
            counters.opened.fetch_add(1);
            resolved();
            read_next(c);
            if (!open_key.empty()) send_key(c, open_key);
        });
    }

    void fail(Client& c, std::string why) {
        HnsSocket& s = c.figures;
        if (!s.connecting) return;
        s.connecting = false;
        s.failed = true;
        s.fail_reason = std::move(why);
        c.ws.close();
        counters.ended.fetch_add(1);
        resolved();
    }

    void read_next(Client& c) {
        c.ws.read([this, &c](protocol::ByteView message, bool binary, std::optional<tools::ws::WsEnd> end) {
            if (end) return on_end(c, *end);
            on_message(c, message.size(), binary);
            read_next(c);
        });
    }

    void on_message(Client& c, std::size_t n, bool binary) {
        HnsSocket& s = c.figures;
        const auto t = now_us();
        if (!binary) {
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
        if (answer_ready) send_ready(c);
    }

    // One write in flight; a ready owed meanwhile goes right after it (the server keeps a flag, not a count).
    void send_ready(Client& c) {
        if (c.figures.closed || stopping) return;
        if (c.writing) {
            c.ready_owed = true;
            return;
        }
        c.writing = true;
        c.ws.write(kReady, false, [this, &c](bool ok) {
            c.writing = false;
            if (!ok) return;
            ++c.figures.readies;
            if (c.ready_owed) {
                c.ready_owed = false;
                send_ready(c);
            }
        });
    }

    // A key press; skipped when a write is in flight (the next period presses again).
    void send_key(Client& c, const protocol::Bytes& key) {
        if (c.figures.closed || stopping || c.writing) return;
        c.writing = true;
        c.ws.write(key, false, [&c](bool) { c.writing = false; });
    }

    void arm_keys() {
        key_timer.expires_after(kBackKeyPeriod);
        key_timer.async_wait([this](boost::system::error_code ec) {
            if (ec || stopping) return;
            for (std::size_t i = 0; i < ramp.next; ++i)
                if (clients[i]->figures.open) send_key(*clients[i], periodic_key);
            arm_keys();
        });
    }

    void on_end(Client& c, const tools::ws::WsEnd& end) {
        HnsSocket& s = c.figures;
        if (s.connecting) return fail(c, "read: " + end.error);
        if (s.closed) return;
        s.closed = true;
        s.closed_us = now_us();
        s.closed_by_us = stopping;
        s.close_code = end.code;
        if (!stopping) counters.ended.fetch_add(1);
    }

    void arm_sweep() {
        sweep.expires_after(kSweepPeriod);
        sweep.async_wait([this](boost::system::error_code ec) {
            if (ec || stopping) return;
            const auto t = now_us();
            for (std::size_t i = 0; i < ramp.next; ++i) {
                Client& c = *clients[i];
                if (c.figures.connecting && t - c.figures.started_us > std::chrono::duration_cast<std::chrono::microseconds>(kConnectTimeout).count())
                    fail(c, "timeout");
            }
            arm_sweep();
        });
    }

    void shutdown() {
        stopping = true;
        sweep.cancel();
        key_timer.cancel();
        for (auto& c : clients) c->ws.close();
    }
};

}  // namespace

struct HnsSockets::Impl {
    Counters counters;
    std::vector<std::unique_ptr<Shard>> shards;
    ShardThreads<Shard> threads{shards};
    std::size_t total = 0;
};

HnsSockets::HnsSockets(const HnsPlan& plan, int threads, bool answer_ready) : impl_(std::make_unique<Impl>()) {
    for (int i = 0; i < std::max(1, threads); ++i) {
        impl_->shards.push_back(std::make_unique<Shard>(plan, impl_->counters));
        impl_->shards.back()->answer_ready = answer_ready;
    }
}

HnsSockets::~HnsSockets() { stop(); }

void HnsSockets::add_group(std::size_t group, const std::vector<std::string>& targets) {
    for (const auto& t : targets) impl_->shards[group % impl_->shards.size()]->add(t, group);
    impl_->counters.pending.fetch_add(static_cast<int>(targets.size()));
    impl_->total += targets.size();
}

void HnsSockets::set_keys(const std::string& on_open, const std::string& periodic) {
    for (auto& s : impl_->shards) {
        if (!on_open.empty()) s->open_key = key_message(on_open);
        if (!periodic.empty()) s->periodic_key = key_message(periodic);
    }
}

void HnsSockets::start() { impl_->threads.start(); }

bool HnsSockets::wait_ramp() {
    const auto until = SteadyClock::now() + kRampLimit;
    while (impl_->counters.pending.load() > 0 && SteadyClock::now() < until) std::this_thread::sleep_for(kPoll);
    return impl_->counters.pending.load() == 0;
}

bool HnsSockets::wait_all_ended(SteadyClock::time_point until) {
    const auto total = static_cast<int>(impl_->total);
    while (impl_->counters.ended.load() < total && SteadyClock::now() < until) std::this_thread::sleep_for(kPoll);
    return impl_->counters.ended.load() >= total;
}

void HnsSockets::set_measuring(bool on) { impl_->counters.measuring = on; }
int HnsSockets::opened() const { return impl_->counters.opened.load(); }
int HnsSockets::ended() const { return impl_->counters.ended.load(); }

void HnsSockets::stop() {
    if (!impl_->threads.running()) return;
    impl_->counters.measuring = false;
    impl_->threads.stop(kStopGrace);
}

std::vector<const HnsSocket*> HnsSockets::sockets() const {
    std::vector<const HnsSocket*> out;
    for (const auto& shard : impl_->shards)
        for (const auto& c : shard->clients) out.push_back(&c->figures);
    return out;
}

}  // namespace hschool::load
