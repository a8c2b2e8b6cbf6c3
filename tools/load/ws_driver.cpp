#include "ws_driver.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cmath>
#include <deque>
#include <memory>
#include <random>
#include <thread>

#include "ws/async_ws.hpp"
#include "net/ws_frame.hpp"
#include "protocol/v1.hpp"
#include "protocol/v4.hpp"
#include "protocol/v5.hpp"
#include "shards.hpp"
#include "sim/arena/v5/replica.hpp"

namespace hschool::load {

namespace net = boost::asio;
using SteadyClock = std::chrono::steady_clock;
using protocol::Bytes;

namespace {

constexpr std::size_t kMaxQueuedWrites = 8;          // a client whose writes back up skips inputs rather than queue them
constexpr std::size_t kMaxReadFrameBytes = 1 << 20;  // snapshots stay under 64 KiB; map snapshots are a few KiB
constexpr auto kStopGrace = std::chrono::seconds(3); // after that the threads are stopped without waiting for handlers
constexpr std::uint32_t kMaxCatchUpInputs = 5;     // v5: ticks a late timer makes up for at once
constexpr std::size_t kV5ChainHeaderBytes = 10;    // v5 Frame: id, tick, baseTick, flags
// v5 bots after the handshake: their sockets are read here, not by Beast (see Shard::go_raw).
constexpr std::size_t kRawReadBytes = 64 * 1024;   // one recv per ready socket per pass
constexpr int kRawEventsPerPass = 256;             // sockets one epoll_wait hands over; then timers get a turn
constexpr std::size_t kRawMaxUnsentBytes = 4096;   // a bot whose socket backs up skips inputs rather than queue them
constexpr std::int64_t kGameMsPerRealSecond[] = {150'000, 300'000, 600'000, 900'000, 1'200'000};  // by speed index

tools::ws::WsOptions client_options() {
    tools::ws::WsOptions o;
    o.max_message_bytes = kMaxReadFrameBytes;
    o.no_delay = true;     // pings must not wait for Nagle
    o.cheap_masks = true;  // masking keys need no cryptographic strength here
    o.fragment = false;
    return o;
}

struct Shard;

struct Client {
    Client(Shard& s, int i, net::io_context& ioc) : shard(s), index(i), ws(ioc, client_options()) {}
    Shard& shard;
    int index;
    tools::ws::AsyncWs ws;
    ClientStats stats;
    std::deque<Bytes> out;
    bool writing = false;
    bool connecting = false;
    bool dead = false;
    SteadyClock::time_point started{};
    std::int32_t school_id = 0;
    // Arena bot state.
    std::uint32_t input_sequence = 0;
    std::uint8_t mask = 0;
    SteadyClock::time_point next_mask_change{};
    // v5: one command per tick since Welcome, and the replica every Frame is applied to.
    SteadyClock::time_point tick_zero{};
    std::uint64_t ticks_sent = 0;
    std::unique_ptr<sim::arena::v5::Replica> replica;
    // v5 after the handshake: the socket is ours (Beast has released it), read through the shard's
    // epoll set; unsent holds the tail of a frame the kernel did not take yet.
    int raw_fd = -1;
    std::unique_ptr<hschool::net::ws::FrameReader> raw_reader;
    Bytes raw_unsent;
    // Last tick frame, for gap counting.
    bool have_last = false;
    std::uint32_t last_tick = 0;
    std::int64_t last_game_ms = 0;
    std::uint8_t last_running = 0;
    std::uint8_t last_speed = 0;
};

// What every shard reads or counts into; the main thread reads the counters while they run.
struct SharedState {
    LoadPlan plan;
    std::atomic<bool> measuring{false};
    std::atomic<int> pending{0};
    std::atomic<int> welcomed{0};
};

struct Shard {
    Shard(SharedState& o, int shard_index)
        : owner(o), plan(o.plan), ramp(o.plan.ramp_batch), rng(o.plan.seed + static_cast<std::uint64_t>(shard_index)) {}

    net::io_context ioc{1};  // one thread per context: no locks anywhere in a shard
    SharedState& owner;
    const LoadPlan& plan;
    std::string host_header;
    std::vector<std::unique_ptr<Client>> clients;
    net::steady_timer timer{ioc};
    net::steady_timer ping_timer{ioc};
    SteadyClock::time_point next_timer{};
    std::uint64_t timer_ticks = 0;
    ConnectRamp ramp;
    std::size_t sweep_from = 0;  // clients before this index are resolved (welcomed or failed)
    bool stopping = false;
    std::atomic<bool> finished{false};
    std::mt19937_64 rng;
    std::vector<std::uint32_t> rtt_us;
    std::uint64_t pings_sent = 0;
    std::uint64_t send_errors = 0;
    // The raw v5 sockets' epoll set, itself watched by the io_context (it owns the descriptor).
    int raw_epoll = ::epoll_create1(EPOLL_CLOEXEC);
    net::posix::stream_descriptor raw_watch{ioc, raw_epoll};
    std::vector<std::uint8_t> raw_scratch = std::vector<std::uint8_t>(kRawReadBytes);
    std::uint32_t mask_state = 0x9E3779B9u;  // masking keys need no cryptographic strength here

    bool measuring() const { return owner.measuring.load(std::memory_order_relaxed); }

    void run() {
        launch_more();
        next_timer = SteadyClock::now();
        arm_timer();
        if (plan.scenario == Scenario::Arena && plan.protocol == 5) watch_raw();
        ioc.run();
        finished = true;
    }

    void launch_more() {
        ramp.launch(stopping, clients.size(), [this](std::size_t i) { start_connect(*clients[i]); });
    }

    void resolved(Client& c) {
        c.connecting = false;
        ramp.resolved();
        owner.pending.fetch_sub(1);
        launch_more();
    }

    void start_connect(Client& c) {
        c.connecting = true;
        c.started = SteadyClock::now();
        c.ws.connect(plan.host, plan.port, host_header, "/ws/game", [this, &c](std::optional<tools::ws::WsRefusal> refused) {
            if (refused) return fail(c);
            if (plan.scenario == Scenario::Arena && plan.protocol == 5 && !go_raw(c)) return fail(c);
            send_hello(c);
            if (c.raw_fd < 0) read_next(c);
        });
    }

    void fail(Client& c) {
        if (!c.connecting) return;
        c.stats.failed = true;
        c.dead = true;
        close_socket(c);
        resolved(c);
    }

    void close_socket(Client& c) {
        if (c.raw_fd >= 0) {
            ::close(c.raw_fd);  // closing takes it out of the epoll set too
            c.raw_fd = -1;
            return;
        }
        c.ws.close();
    }

    // A v5 bot reads ~20 Frames a second: through Beast each costs a composed read of several
    // handlers and type-erased executors, which at 5,000 bots took the load generator's whole core.
    // After the handshake the socket leaves Beast: one recv per ready socket per pass of the shard's
    // epoll set, the server's frames read by the server's own (fuzzed) reader, inputs framed and
    // masked by hand.
    bool go_raw(Client& c) {
        const int fd = c.ws.release();
        if (fd < 0) return false;
        c.raw_fd = fd;
        c.raw_reader = std::make_unique<hschool::net::ws::FrameReader>(kMaxReadFrameBytes, hschool::net::ws::Sender::Server);
        epoll_event event{};
        event.events = EPOLLIN;
        event.data.u64 = static_cast<std::uint64_t>(c.index / std::max(1, plan.threads));  // its place in clients
        return raw_epoll >= 0 && ::epoll_ctl(raw_epoll, EPOLL_CTL_ADD, fd, &event) == 0;
    }

    void watch_raw() {
        if (stopping) return;
        raw_watch.async_wait(net::posix::descriptor_base::wait_read, [this](boost::system::error_code ec) {
            if (ec || stopping) return;
            std::array<epoll_event, kRawEventsPerPass> events;
            const int ready = ::epoll_wait(raw_epoll, events.data(), kRawEventsPerPass, 0);
            for (int i = 0; i < ready; ++i) {
                const auto at = static_cast<std::size_t>(events[i].data.u64);
                if (at < clients.size()) on_raw_readable(*clients[at]);
            }
            watch_raw();  // the wait re-arms with the set's current state: what is left comes at once
        });
    }

    void on_raw_readable(Client& c) {
        namespace ws = hschool::net::ws;
        if (c.raw_fd < 0) return;
        const ssize_t got = ::recv(c.raw_fd, raw_scratch.data(), raw_scratch.size(), MSG_DONTWAIT);
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
        if (got <= 0) return on_raw_end(c, 0);
        c.raw_reader->feed(protocol::ByteView(raw_scratch.data(), static_cast<std::size_t>(got)));
        while (auto event = c.raw_reader->next()) {
            switch (event->kind) {
                case ws::Event::Kind::Message:
                    on_frame(c, event->payload);
                    break;
                case ws::Event::Kind::Ping:
                    send_raw(c, ws::Opcode::Pong, event->payload);
                    break;
                case ws::Event::Kind::Pong:
                    break;
                case ws::Event::Kind::Close:
                    return on_raw_end(c, event->close_code);
                case ws::Event::Kind::TooBig:
                case ws::Event::Kind::ProtocolError:
                    return on_raw_end(c, 0);
            }
            if (c.raw_fd < 0) return;
        }
    }

    void on_raw_end(Client& c, std::uint16_t close_code) {
        if (c.connecting) return fail(c);
        close_socket(c);
        if (c.dead || stopping) return;
        c.dead = true;
        c.stats.closed_after_welcome = true;
        c.stats.close_code = close_code;
    }

    void send_raw(Client& c, hschool::net::ws::Opcode opcode, protocol::ByteView payload) {
        if (c.raw_fd < 0) return;
        mask_state ^= mask_state << 13, mask_state ^= mask_state >> 17, mask_state ^= mask_state << 5;
        const std::array<std::uint8_t, 4> mask{static_cast<std::uint8_t>(mask_state), static_cast<std::uint8_t>(mask_state >> 8),
                                               static_cast<std::uint8_t>(mask_state >> 16), static_cast<std::uint8_t>(mask_state >> 24)};
        const Bytes frame = hschool::net::ws::encode_client_frame(opcode, payload, mask);
        if (!c.raw_unsent.empty() && !write_raw(c, c.raw_unsent)) return;
        if (!c.raw_unsent.empty()) {  // still backed up: this one waits behind, or is skipped
            if (c.raw_unsent.size() + frame.size() <= kRawMaxUnsentBytes) c.raw_unsent.insert(c.raw_unsent.end(), frame.begin(), frame.end());
            return;
        }
        Bytes rest = frame;
        if (write_raw(c, rest) && !rest.empty()) c.raw_unsent = std::move(rest);
    }

    // Writes what the socket takes and keeps the rest in bytes; false when the socket failed.
    bool write_raw(Client& c, Bytes& bytes) {
        const ssize_t sent = ::send(c.raw_fd, bytes.data(), bytes.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
        if (sent < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return true;
            if (!stopping) ++send_errors;
            bytes.clear();
            return false;
        }
        bytes.erase(bytes.begin(), bytes.begin() + sent);
        return true;
    }

    void send_hello(Client& c) {
        if (plan.scenario == Scenario::Arena && plan.protocol == 5) {
            if (c.index % plan.replica_every == 0) c.replica = std::make_unique<sim::arena::v5::Replica>();
            send(c, protocol::v5::encode(protocol::v5::Hello{protocol::v5::kVersion, "bot" + std::to_string(c.index)}));
        } else if (plan.scenario == Scenario::Arena) {
            send(c, protocol::v1::encode(protocol::v1::Hello{protocol::v1::kVersion, "bot" + std::to_string(c.index)}));
        } else {
            send(c, protocol::v4::encode(protocol::v4::Hello{protocol::v4::kVersion, 1}));
        }
    }

    void on_welcome(Client& c, std::uint8_t tick_rate) {
        if (!c.connecting) return;
        c.stats.welcomed = true;
        c.stats.tick_rate = tick_rate;
        c.stats.welcome_us = static_cast<std::uint32_t>(
            std::chrono::duration_cast<std::chrono::microseconds>(SteadyClock::now() - c.started).count());
        owner.welcomed.fetch_add(1);
        if (plan.scenario == Scenario::Schools && c.school_id != 0) {
            send(c, protocol::v4::encode(protocol::v4::OpenSchool{c.school_id}));
        }
        c.next_mask_change = SteadyClock::now();
        c.tick_zero = SteadyClock::now();
        resolved(c);
    }

    void send(Client& c, Bytes frame) {
        if (c.raw_fd >= 0) return send_raw(c, hschool::net::ws::Opcode::Binary, frame);
        if (c.dead || c.out.size() >= kMaxQueuedWrites) return;
        c.out.push_back(std::move(frame));
        if (!c.writing) write_next(c);
    }

    void write_next(Client& c) {
        c.writing = true;
        c.ws.write(c.out.front(), false, [this, &c](bool ok) {
            c.writing = false;
            c.out.pop_front();
            if (!ok) {
                if (!stopping) ++send_errors;
                c.out.clear();
                return;
            }
            if (!c.out.empty() && !c.dead) write_next(c);
        });
    }

    void read_next(Client& c) {
        c.ws.read([this, &c](protocol::ByteView frame, bool, std::optional<tools::ws::WsEnd> end) {
            if (end) return on_read_end(c, *end);
            on_frame(c, frame);
            if (!c.dead) read_next(c);
        });
    }

    void on_read_end(Client& c, const tools::ws::WsEnd& end) {
        if (c.connecting) return fail(c);
        if (c.dead || stopping) return;
        c.dead = true;
        c.stats.closed_after_welcome = true;
        c.stats.close_code = end.code;  // 0 without a Close frame
    }

    void on_frame(Client& c, protocol::ByteView frame) {
        if (frame.empty()) return;
        const bool counting = measuring();
        if (counting) c.stats.bytes += frame.size();
        if (plan.scenario == Scenario::Arena && plan.protocol == 5) {
            on_v5_frame(c, frame, counting);
        } else if (plan.scenario == Scenario::Arena) {
            on_v1_frame(c, frame, counting);
        } else {
            on_v4_frame(c, frame, counting);
        }
    }

    void on_v1_frame(Client& c, protocol::ByteView frame, bool counting) {
        namespace v1 = protocol::v1;
        switch (frame[0]) {
        case v1::id::kSnapshot: {
            // Only the header: decoding every entity would cost the load generator more than the server.
            std::uint32_t tick = 0;
            protocol::ByteReader reader(frame.subspan(1));
            if (!reader.u32(tick)) return;
            if (counting) {
                ++c.stats.tick_frames;
                if (c.have_last && tick > c.last_tick + 1) c.stats.tick_gaps += tick - c.last_tick - 1;
            }
            c.have_last = true;
            c.last_tick = tick;
            return;
        }
        case v1::id::kWelcome:
            if (auto m = v1::decode_server(frame); m && std::holds_alternative<v1::Welcome>(*m)) {
                on_welcome(c, std::get<v1::Welcome>(*m).tick_rate);
            }
            return;
        case v1::id::kPong:
            if (auto m = v1::decode_server(frame); m && std::holds_alternative<v1::Pong>(*m)) {
                on_pong(std::get<v1::Pong>(*m).client_time_ms, counting);
            }
            return;
        default:
            return;
        }
    }

    // A client with a replica decodes and applies every Frame: the replica checks the chain and the
    // session rules. The others (--replica-every) check the chain from each Frame's header alone.
    void on_v5_frame(Client& c, protocol::ByteView frame, bool counting) {
        namespace v5 = protocol::v5;
        if (!c.replica && frame.size() >= kV5ChainHeaderBytes && frame[0] == v5::id::kFrame) return on_v5_header(c, frame, counting);
        auto m = v5::decode_server(frame);
        if (!m) {
            if (counting) ++c.stats.chain_errors;
            return;
        }
        if (auto* f = std::get_if<v5::Frame>(&*m)) {
            if (c.replica->apply(*f) && counting) ++c.stats.chain_errors;
            if (counting) {
                ++c.stats.tick_frames;
                if (c.have_last && f->tick > c.last_tick + 1) c.stats.tick_gaps += f->tick - c.last_tick - 1;
            }
            c.have_last = true;
            c.last_tick = f->tick;
        } else if (auto* welcome = std::get_if<v5::Welcome>(&*m)) {
            on_welcome(c, welcome->tick_rate);
        } else if (auto* pong = std::get_if<v5::Pong>(&*m)) {
            on_pong(pong->client_time_ms, counting);
        }
    }

    void on_v5_header(Client& c, protocol::ByteView frame, bool counting) {
        protocol::ByteReader r(frame.subspan(1));
        std::uint32_t tick = 0, base_tick = 0;
        std::uint8_t flags = 0;
        r.u32(tick), r.u32(base_tick), r.u8(flags);
        const bool keyframe = (flags & protocol::v5::frame_flags::kKeyframe) != 0;
        const bool chained = c.have_last ? base_tick == c.last_tick : keyframe && base_tick == 0;
        if (counting) {
            if (!chained) ++c.stats.chain_errors;
            ++c.stats.tick_frames;
            if (c.have_last && tick > c.last_tick + 1) c.stats.tick_gaps += tick - c.last_tick - 1;
        }
        c.have_last = true;
        c.last_tick = tick;
    }

    void on_v4_frame(Client& c, protocol::ByteView frame, bool counting) {
        namespace v4 = protocol::v4;
        const std::uint8_t id = frame[0];
        if (id != v4::id::kClock && id != v4::id::kWelcome && id != v4::id::kPong) return;  // map snapshots: bytes only
        auto m = v4::decode_server(frame);
        if (!m) return;
        if (auto* clock = std::get_if<v4::Clock>(&*m)) return on_clock(c, *clock, counting);
        if (auto* welcome = std::get_if<v4::Welcome>(&*m)) return on_welcome(c, welcome->tick_rate);
        if (auto* pong = std::get_if<v4::Pong>(&*m)) return on_pong(pong->client_time_ms, counting);
    }

    // Clock has no sequence number: a gap is a game-time jump of more than one step at the same speed.
    void on_clock(Client& c, const protocol::v4::Clock& clock, bool counting) {
        if (counting) {
            ++c.stats.tick_frames;
            const bool comparable = c.have_last && c.last_running && clock.running && c.last_speed == clock.speed_index &&
                                    clock.speed_index < std::size(kGameMsPerRealSecond) && c.stats.tick_rate > 0;
            if (comparable) {
                const double step_ms = static_cast<double>(kGameMsPerRealSecond[clock.speed_index]) / c.stats.tick_rate;
                const auto steps = std::llround(static_cast<double>(clock.game_time_ms - c.last_game_ms) / step_ms);
                if (steps > 1) c.stats.tick_gaps += static_cast<std::uint64_t>(steps - 1);
            }
        }
        c.have_last = true;
        c.last_game_ms = clock.game_time_ms;
        c.last_running = clock.running;
        c.last_speed = clock.speed_index;
    }

    // The Ping carries our steady clock in microseconds (the server echoes it unchanged).
    void on_pong(std::int64_t sent_us, bool counting) {
        if (!counting) return;
        const auto rtt = now_us() - sent_us;
        if (rtt >= 0) rtt_us.push_back(static_cast<std::uint32_t>(rtt));
    }

    void arm_timer() {
        if (stopping) return;
        next_timer += kInputPeriod;
        timer.expires_at(next_timer);
        timer.async_wait([this](boost::system::error_code ec) {
            if (ec || stopping) return;
            on_timer();
            arm_timer();
            // Pings go half a period after the input burst: a Pong must not queue behind our own
            // burst of writes, or the round trip would measure the load generator, not the server.
            ping_timer.expires_at(next_timer - kInputPeriod / 2);
            ping_timer.async_wait([this](boost::system::error_code ping_ec) {
                if (!ping_ec && !stopping) send_pings();
            });
        });
    }

    void on_timer() {
        const auto now = SteadyClock::now();
        sweep_connecting(now);
        if (plan.scenario == Scenario::Idle) return;
        if (plan.scenario != Scenario::Arena) return;
        for (auto& owned : clients) {
            Client& c = *owned;
            if (c.stats.welcomed && !c.dead) send_input(c, now);
        }
    }

    void send_pings() {
        if (plan.scenario == Scenario::Idle) return;
        const int ping_slot = static_cast<int>(timer_ticks++ % kTimerTicksPerSecond);
        const bool counting = measuring();
        for (auto& owned : clients) {
            Client& c = *owned;
            if (!c.stats.welcomed || c.dead || c.index % kTimerTicksPerSecond != ping_slot) continue;  // spread over the second
            send(c, c.shard.plan.scenario == Scenario::Arena ? protocol::v1::encode(protocol::v1::Ping{now_us()})  // v5's Ping is the same
                                                             : protocol::v4::encode(protocol::v4::Ping{now_us()}));
            if (counting) ++pings_sent;
        }
    }

    void send_input(Client& c, SteadyClock::time_point now) {
        if (now >= c.next_mask_change) {
            c.mask = static_cast<std::uint8_t>(rng() & protocol::v1::buttons::kKnown);
            c.next_mask_change += kMaskChangePeriod;
        }
        if (plan.protocol != 5) {
            send(c, protocol::v1::encode(protocol::v1::Input{c.input_sequence++, c.mask}));
            return;
        }
        // One command per tick since Welcome, as a browser sends them.
        const auto period = std::chrono::nanoseconds(std::chrono::seconds(1)) / std::max<int>(1, c.stats.tick_rate);
        const auto due = static_cast<std::uint64_t>((now - c.tick_zero) / period);
        if (due > c.ticks_sent + kMaxCatchUpInputs) c.ticks_sent = due - kMaxCatchUpInputs;
        for (; c.ticks_sent < due; ++c.ticks_sent) send(c, protocol::v5::encode(protocol::v5::Input{++c.input_sequence, c.mask}));
    }

    void sweep_connecting(SteadyClock::time_point now) {
        for (std::size_t i = sweep_from; i < ramp.next; ++i) {
            Client& c = *clients[i];
            if (c.connecting && now - c.started > plan.connect_timeout) fail(c);
        }
        while (sweep_from < ramp.next && !clients[sweep_from]->connecting) ++sweep_from;
    }

    // Runs on the shard's thread: ends every connection so the context runs out of work.
    void shutdown() {
        stopping = true;
        timer.cancel();
        ping_timer.cancel();
        boost::system::error_code ignored;
        raw_watch.cancel(ignored);
        for (auto& c : clients) {
            c->dead = true;
            close_socket(*c);
        }
    }
};

}  // namespace

struct WsDriver::Impl : SharedState {
    std::vector<std::unique_ptr<Shard>> shards;
    ShardThreads<Shard> threads{shards};
};

WsDriver::WsDriver(LoadPlan plan) : impl_(std::make_unique<Impl>()) {
    impl_->plan = std::move(plan);
    const auto& p = impl_->plan;
    const int threads = std::max(1, p.threads);
    for (int s = 0; s < threads; ++s) {
        auto shard = std::make_unique<Shard>(*impl_, s);
        shard->host_header = p.host + ":" + std::to_string(p.port);
        impl_->shards.push_back(std::move(shard));
    }
    for (int i = 0; i < p.clients; ++i) {
        Shard& shard = *impl_->shards[static_cast<std::size_t>(i % threads)];
        auto client = std::make_unique<Client>(shard, i, shard.ioc);
        if (!p.school_ids.empty()) client->school_id = p.school_ids[static_cast<std::size_t>(i) % p.school_ids.size()];
        shard.clients.push_back(std::move(client));
    }
    impl_->pending = p.clients;
}

WsDriver::~WsDriver() {
    if (impl_->threads.running()) stop();
}

void WsDriver::start() { impl_->threads.start(); }

int WsDriver::pending() const { return impl_->pending.load(); }
int WsDriver::welcomed() const { return impl_->welcomed.load(); }
void WsDriver::set_measuring(bool on) { impl_->measuring = on; }

DriverResult WsDriver::stop() {
    impl_->measuring = false;
    impl_->threads.stop(kStopGrace);

    DriverResult result;
    result.clients.resize(static_cast<std::size_t>(impl_->plan.clients));
    for (auto& shard : impl_->shards) {
        for (auto& c : shard->clients) result.clients[static_cast<std::size_t>(c->index)] = c->stats;
        result.rtt_us.insert(result.rtt_us.end(), shard->rtt_us.begin(), shard->rtt_us.end());
        result.pings_sent += shard->pings_sent;
        result.send_errors += shard->send_errors;
    }
    return result;
}

}  // namespace hschool::load
