#include "flood.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <algorithm>
#include <array>
#include <chrono>
#include <map>
#include <memory>
#include <vector>

#include "protocol/v1.hpp"
#include "protocol/v4.hpp"
#include "schools_setup.hpp"
#include "server_probe.hpp"

namespace hschool::load {

namespace net = boost::asio;
namespace json = boost::json;
using tcp = net::ip::tcp;
using SteadyClock = std::chrono::steady_clock;
using protocol::Bytes;

namespace {

constexpr auto kSamplePeriod = std::chrono::milliseconds(100);
constexpr auto kOpenTimeout = std::chrono::seconds(5);          // connect + upgrade answer
constexpr auto kRefusedBackoff = std::chrono::milliseconds(100); // after a failed connect or a refused upgrade
constexpr std::size_t kReadChunk = 64 * 1024;
constexpr std::size_t kMaxUpgradeAnswer = 16 * 1024;
constexpr int kPingEvery = 8;  // Mixed: one Ping in every 8 frames
constexpr std::array<std::uint8_t, 4> kMask = {0x5a, 0xc3, 0x1e, 0x77};
constexpr std::uint16_t kNoStatus = 1005;  // a Close without a code
constexpr int kOpcodeClose = 0x8;

// A masked binary client frame (RFC 6455 §5.2); payloads here are far below 126 bytes.
void append_frame(Bytes& out, const Bytes& payload) {
    out.push_back(0x82);
    out.push_back(static_cast<std::uint8_t>(0x80 | payload.size()));
    out.insert(out.end(), kMask.begin(), kMask.end());
    for (std::size_t i = 0; i < payload.size(); ++i) out.push_back(payload[i] ^ kMask[i % 4]);
}

bool is_v4(FloodKind kind, int slot) { return kind == FloodKind::SetRunning || (kind == FloodKind::Mixed && slot % 2 == 0); }

// What a connection sends once after the upgrade.
Bytes make_prefix(FloodKind kind, int slot, std::int32_t school_id) {
    Bytes out;
    if (is_v4(kind, slot)) {
        append_frame(out, protocol::v4::encode(protocol::v4::Hello{protocol::v4::kVersion, 1}));
        append_frame(out, protocol::v4::encode(protocol::v4::OpenSchool{school_id}));
    } else {
        append_frame(out, protocol::v1::encode(protocol::v1::Hello{protocol::v1::kVersion, "flood" + std::to_string(slot)}));
    }
    return out;
}

// One write's worth of whole frames, sent again and again.
struct Chunk {
    Bytes bytes;
    std::size_t frames = 0;
};

Chunk make_chunk(FloodKind kind, int slot, std::size_t limit) {
    Chunk chunk;
    const bool v4 = is_v4(kind, slot);
    const bool pings_only = kind == FloodKind::Ping;
    const bool mixed = kind == FloodKind::Mixed;
    std::uint32_t sequence = 1;
    for (std::size_t i = 0;; ++i) {
        Bytes payload;
        const bool ping = pings_only || (mixed && i % kPingEvery == kPingEvery - 1);
        if (ping) {
            payload = v4 ? protocol::v4::encode(protocol::v4::Ping{static_cast<std::int64_t>(i)})
                         : protocol::v1::encode(protocol::v1::Ping{static_cast<std::int64_t>(i)});
        } else if (v4) {
            payload = protocol::v4::encode(protocol::v4::SetRunning{static_cast<std::uint8_t>(i % 2)});
        } else {
            payload = protocol::v1::encode(protocol::v1::Input{sequence++, static_cast<std::uint8_t>(1u << (i % 4))});
        }
        if (chunk.bytes.size() + 2 + kMask.size() + payload.size() > limit && chunk.frames > 0) break;
        append_frame(chunk.bytes, payload);
        ++chunk.frames;
    }
    return chunk;
}

// Finds the server's Close frame in whatever the socket hands over; everything else is skipped.
class ServerFrameScanner {
public:
    void feed(const std::uint8_t* p, std::size_t n) {
        while (n > 0) {
            if (remaining_ > 0) {
                const auto take = static_cast<std::size_t>(std::min<std::uint64_t>(remaining_, n));
                for (std::size_t i = 0; i < take && in_close_ && code_bytes_ < 2; ++i) code_[code_bytes_++] = p[i];
                if (in_close_ && code_bytes_ == 2) close_code_ = static_cast<std::uint16_t>(code_[0] << 8 | code_[1]);
                p += take;
                n -= take;
                remaining_ -= take;
                continue;
            }
            head_[head_len_++] = *p++;
            --n;
            if (head_len_ < 2) continue;
            const std::uint8_t len7 = head_[1] & 0x7f;
            std::size_t need = 2 + (len7 == 126 ? 2 : len7 == 127 ? 8 : 0) + ((head_[1] & 0x80) ? 4 : 0);
            if (head_len_ < need) continue;
            std::uint64_t length = len7;
            if (len7 == 126) length = static_cast<std::uint64_t>(head_[2]) << 8 | head_[3];
            if (len7 == 127) {
                length = 0;
                for (int i = 0; i < 8; ++i) length = length << 8 | head_[2 + i];
            }
            in_close_ = (head_[0] & 0x0f) == kOpcodeClose;
            if (in_close_) {
                saw_close_ = true;
                code_bytes_ = 0;
                close_code_ = kNoStatus;
            }
            remaining_ = length;
            head_len_ = 0;
            ++frames_;
        }
    }
    // A whole Close has arrived (its code, if any, is known).
    bool closed() const { return saw_close_ && (remaining_ == 0 || code_bytes_ == 2); }
    std::uint16_t close_code() const { return close_code_; }
    std::uint64_t frames() const { return frames_; }

private:
    std::array<std::uint8_t, 14> head_{};
    std::size_t head_len_ = 0;
    std::uint64_t remaining_ = 0;
    bool in_close_ = false;
    bool saw_close_ = false;
    std::array<std::uint8_t, 2> code_{};
    int code_bytes_ = 0;
    std::uint16_t close_code_ = kNoStatus;
    std::uint64_t frames_ = 0;
};

struct Totals {
    std::uint64_t attempts = 0, connect_failed = 0, open_timeouts = 0, opened = 0, ended_without_close = 0;
    std::uint64_t bytes_sent = 0, bytes_received = 0, frames_received = 0;
    std::uint64_t frames_sent_estimate = 0;
    std::map<int, std::uint64_t> refused_by_status;  // upgrade answered with something else than 101
    std::map<int, std::uint64_t> closes_by_code;     // the server's Close frames
    std::vector<double> lifetimes_ms;                // upgrade → end, per connection the server ended
    std::vector<double> bytes_before_end;            // sent on that connection before it ended
};

class Flood;

// One connection from connect to its end; the slot then starts the next one.
class Attempt : public std::enable_shared_from_this<Attempt> {
public:
    Attempt(Flood& flood, int slot);
    void start();
    void stop();  // the flood is over: end without counting

private:
    void on_upgrade_answer(boost::system::error_code ec, std::size_t header_bytes);
    void write_more();
    void read_more();
    void end(bool count_as_closed_by_server);

    Flood& flood_;
    const int slot_;
    tcp::socket socket_;
    net::steady_timer open_timer_;
    std::string answer_;
    std::array<std::uint8_t, kReadChunk> read_buffer_{};
    ServerFrameScanner scanner_;
    SteadyClock::time_point opened_at_{};
    std::uint64_t sent_ = 0;
    bool open_ = false;
    bool ended_ = false;
    bool prefix_sent_ = false;
};

class Flood {
public:
    explicit Flood(const FloodPlan& plan)
        : plan_(plan), endpoint_(net::ip::make_address(plan.host), plan.port), deadline_(ioc_), sampler_(ioc_),
          signals_(ioc_, SIGINT, SIGTERM) {
        for (int slot = 0; slot < plan.connections; ++slot) {
            prefixes_.push_back(make_prefix(plan.kind, slot, plan.school_id));
            chunks_.push_back(make_chunk(plan.kind, slot, plan.chunk_bytes));
            backoffs_.push_back(std::make_unique<net::steady_timer>(ioc_));
        }
        attempts_.resize(static_cast<std::size_t>(plan.connections));
    }

    json::object run() {
        started_ = SteadyClock::now();
        if (plan_.server_pid > 0) first_sample_ = last_sample_ = sample_process(plan_.server_pid);
        if (first_sample_) peak_rss_kib_ = first_sample_->rss_kib;
        deadline_.expires_after(std::chrono::duration_cast<SteadyClock::duration>(std::chrono::duration<double>(plan_.seconds)));
        deadline_.async_wait([this](boost::system::error_code ec) {
            if (!ec) finish("deadline");
        });
        signals_.async_wait([this](boost::system::error_code ec, int) {
            if (!ec) finish("signal");
        });
        arm_sampler();
        for (int slot = 0; slot < plan_.connections; ++slot) launch(slot);
        ioc_.run();
        return report();
    }

    // Called by attempts.
    net::io_context& ioc() { return ioc_; }
    const tcp::endpoint& endpoint() const { return endpoint_; }
    const FloodPlan& plan() const { return plan_; }
    const Bytes& prefix(int slot) const { return prefixes_[static_cast<std::size_t>(slot)]; }
    const Chunk& chunk(int slot) const { return chunks_[static_cast<std::size_t>(slot)]; }
    bool stopping() const { return stopping_; }
    Totals& totals() { return totals_; }

    void ended(int slot, std::chrono::milliseconds delay) {
        if (stopping_) return;
        auto& timer = *backoffs_[static_cast<std::size_t>(slot)];
        if (delay.count() == 0) {
            net::post(ioc_, [this, slot] {
                if (!stopping_) launch(slot);
            });
            return;
        }
        timer.expires_after(delay);
        timer.async_wait([this, slot](boost::system::error_code ec) {
            if (!ec && !stopping_) launch(slot);
        });
    }

private:
    void launch(int slot) {
        auto attempt = std::make_shared<Attempt>(*this, slot);
        attempts_[static_cast<std::size_t>(slot)] = attempt;
        ++totals_.attempts;
        attempt->start();
    }

    void arm_sampler() {
        if (plan_.server_pid <= 0) return;
        sampler_.expires_after(kSamplePeriod);
        sampler_.async_wait([this](boost::system::error_code ec) {
            if (ec || stopping_) return;
            const auto s = sample_process(plan_.server_pid);
            if (!s) return finish("server_gone");
            last_sample_ = s;
            peak_rss_kib_ = std::max(peak_rss_kib_, s->rss_kib);
            if (s->rss_kib > plan_.max_server_rss_mib * 1024) return finish("server_rss_guard");
            arm_sampler();
        });
    }

    void finish(const char* why) {
        if (stopping_) return;
        stopping_ = true;
        stopped_by_ = why;
        ended_at_ = SteadyClock::now();
        if (plan_.server_pid > 0) {
            if (auto s = sample_process(plan_.server_pid)) {
                last_sample_ = s;
                peak_rss_kib_ = std::max(peak_rss_kib_, s->rss_kib);
            }
        }
        deadline_.cancel();
        sampler_.cancel();
        signals_.cancel();
        for (auto& timer : backoffs_) timer->cancel();
        for (auto& weak : attempts_)
            if (auto attempt = weak.lock()) attempt->stop();
    }

    json::object report() const {
        const double seconds = std::max(1e-9, std::chrono::duration<double>(ended_at_ - started_).count());
        json::object o;
        o["scenario"] = "flood";
        o["kind"] = flood_kind_name(plan_.kind);
        o["connections"] = plan_.connections;
        o["stopped_by"] = stopped_by_;
        o["flood_s"] = seconds;
        o["attempts"] = totals_.attempts;
        o["opened"] = totals_.opened;
        o["connect_failed"] = totals_.connect_failed;
        o["open_timeouts"] = totals_.open_timeouts;
        json::object refused;
        for (const auto& [status, n] : totals_.refused_by_status) refused[std::to_string(status)] = n;
        o["refused_by_status"] = std::move(refused);
        json::object closes;
        std::uint64_t closed_by_server = 0;
        for (const auto& [code, n] : totals_.closes_by_code) {
            closes[std::to_string(code)] = n;
            closed_by_server += n;
        }
        o["closes_by_code"] = std::move(closes);
        o["ended_without_close"] = totals_.ended_without_close;
        o["closed_by_server"] = closed_by_server + totals_.ended_without_close;
        o["closes_per_s"] = static_cast<double>(closed_by_server + totals_.ended_without_close) / seconds;
        o["closes_1008_per_s"] = static_cast<double>(totals_.closes_by_code.count(1008) ? totals_.closes_by_code.at(1008) : 0) / seconds;
        o["bytes_sent"] = totals_.bytes_sent;
        o["mib_sent_per_s"] = static_cast<double>(totals_.bytes_sent) / seconds / (1024.0 * 1024.0);
        o["frames_sent"] = totals_.frames_sent_estimate;
        o["frames_sent_per_s"] = static_cast<double>(totals_.frames_sent_estimate) / seconds;
        o["bytes_received"] = totals_.bytes_received;
        o["frames_received"] = totals_.frames_received;
        auto median = [](std::vector<double> v) {
            if (v.empty()) return 0.0;
            std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
            return v[v.size() / 2];
        };
        o["lifetime_ms_p50"] = median(totals_.lifetimes_ms);
        o["lifetime_ms_max"] = totals_.lifetimes_ms.empty() ? 0.0 : *std::max_element(totals_.lifetimes_ms.begin(), totals_.lifetimes_ms.end());
        o["bytes_before_close_p50"] = median(totals_.bytes_before_end);
        if (first_sample_ && last_sample_) {
            o["server_cpu_pct"] = 100.0 * (last_sample_->cpu_seconds - first_sample_->cpu_seconds) / seconds;
            o["server_rss_start_kib"] = first_sample_->rss_kib;
            o["server_rss_end_kib"] = last_sample_->rss_kib;
            o["server_rss_peak_kib"] = peak_rss_kib_;  // sampled every 100 ms
            o["server_hwm_kib"] = last_sample_->hwm_kib;
        }
        return o;
    }

    const FloodPlan& plan_;
    net::io_context ioc_{1};
    tcp::endpoint endpoint_;
    net::steady_timer deadline_;
    net::steady_timer sampler_;
    net::signal_set signals_;
    std::vector<Bytes> prefixes_;
    std::vector<Chunk> chunks_;
    std::vector<std::unique_ptr<net::steady_timer>> backoffs_;
    std::vector<std::weak_ptr<Attempt>> attempts_;
    Totals totals_;
    bool stopping_ = false;
    std::string stopped_by_ = "deadline";
    SteadyClock::time_point started_{}, ended_at_{};
    std::optional<ProcSample> first_sample_, last_sample_;
    std::uint64_t peak_rss_kib_ = 0;
};

Attempt::Attempt(Flood& flood, int slot) : flood_(flood), slot_(slot), socket_(flood.ioc()), open_timer_(flood.ioc()) {}

void Attempt::start() {
    open_timer_.expires_after(kOpenTimeout);
    open_timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
        if (ec || self->open_ || self->ended_) return;
        ++self->flood_.totals().open_timeouts;
        self->end(false);
    });
    socket_.async_connect(flood_.endpoint(), [self = shared_from_this()](boost::system::error_code ec) {
        if (self->ended_) return;
        if (ec) {
            ++self->flood_.totals().connect_failed;
            return self->end(false);
        }
        boost::system::error_code ignored;
        self->socket_.set_option(tcp::no_delay(true), ignored);
        const auto& plan = self->flood_.plan();
        auto request = std::make_shared<std::string>(
            "GET /ws/game HTTP/1.1\r\nHost: " + plan.host + ":" + std::to_string(plan.port) +
            "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n");
        net::async_write(self->socket_, net::buffer(*request), [self, request](boost::system::error_code wec, std::size_t) {
            if (self->ended_) return;
            if (wec) {
                ++self->flood_.totals().connect_failed;
                return self->end(false);
            }
            net::async_read_until(self->socket_, net::dynamic_buffer(self->answer_, kMaxUpgradeAnswer), "\r\n\r\n",
                                  [self](boost::system::error_code rec, std::size_t n) { self->on_upgrade_answer(rec, n); });
        });
    });
}

void Attempt::on_upgrade_answer(boost::system::error_code ec, std::size_t header_bytes) {
    if (ended_) return;
    if (ec) {
        ++flood_.totals().connect_failed;
        return end(false);
    }
    // "HTTP/1.1 101 Switching Protocols"
    int status = 0;
    if (answer_.size() >= 12) status = std::atoi(answer_.substr(9, 3).c_str());
    if (status != 101) {
        ++flood_.totals().refused_by_status[status];
        return end(false);
    }
    open_ = true;
    opened_at_ = SteadyClock::now();
    ++flood_.totals().opened;
    open_timer_.cancel();
    if (answer_.size() > header_bytes) {
        scanner_.feed(reinterpret_cast<const std::uint8_t*>(answer_.data()) + header_bytes, answer_.size() - header_bytes);
    }
    read_more();
    write_more();
}

void Attempt::write_more() {
    const Bytes& bytes = prefix_sent_ ? flood_.chunk(slot_).bytes : flood_.prefix(slot_);
    const bool is_chunk = prefix_sent_;
    prefix_sent_ = true;
    net::async_write(socket_, net::buffer(bytes), [self = shared_from_this(), is_chunk](boost::system::error_code ec, std::size_t n) {
        self->sent_ += n;
        auto& totals = self->flood_.totals();
        totals.bytes_sent += n;
        if (is_chunk) {
            const auto& chunk = self->flood_.chunk(self->slot_);
            totals.frames_sent_estimate += chunk.frames * n / chunk.bytes.size();
        }
        if (self->ended_) return;
        if (ec) return self->end(true);  // reset or broken pipe: the server cut us
        self->write_more();
    });
}

void Attempt::read_more() {
    socket_.async_read_some(net::buffer(read_buffer_), [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
        if (self->ended_) return;
        if (ec) return self->end(true);
        self->flood_.totals().bytes_received += n;
        self->scanner_.feed(self->read_buffer_.data(), n);
        // A hostile client does not answer the Close: it leaves and comes back with a fresh budget.
        if (self->scanner_.closed()) return self->end(true);
        self->read_more();
    });
}

void Attempt::end(bool closed_by_server) {
    if (ended_) return;
    ended_ = true;
    open_timer_.cancel();
    boost::system::error_code ignored;
    socket_.close(ignored);
    if (flood_.stopping()) return;
    auto& totals = flood_.totals();
    totals.frames_received += scanner_.frames();
    if (closed_by_server && open_) {
        if (scanner_.closed()) ++totals.closes_by_code[scanner_.close_code()];
        else ++totals.ended_without_close;
        totals.lifetimes_ms.push_back(std::chrono::duration<double, std::milli>(SteadyClock::now() - opened_at_).count());
        totals.bytes_before_end.push_back(static_cast<double>(sent_));
        flood_.ended(slot_, std::chrono::milliseconds(flood_.plan().reconnect_delay_ms));
    } else {
        flood_.ended(slot_, kRefusedBackoff);
    }
}

void Attempt::stop() {
    if (ended_) return;
    ended_ = true;
    flood_.totals().frames_received += scanner_.frames();
    open_timer_.cancel();
    boost::system::error_code ignored;
    socket_.close(ignored);
}

}  // namespace

const char* flood_kind_name(FloodKind kind) {
    switch (kind) {
    case FloodKind::SetRunning: return "setrunning";
    case FloodKind::Input: return "input";
    case FloodKind::Ping: return "ping";
    case FloodKind::Mixed: return "mixed";
    }
    return "?";
}

json::object run_flood(const FloodPlan& given) {
    FloodPlan plan = given;
    std::string setup_error;
    const bool wants_v4 = plan.kind == FloodKind::SetRunning || (plan.kind == FloodKind::Mixed && plan.connections > 0);
    if (wants_v4 && plan.school_id == 0) {
        auto setup = ensure_schools(plan.host, plan.port, 1);
        if (!setup.ids.empty()) plan.school_id = setup.ids.front();
        else setup_error = setup.error.empty() ? "no school to open" : setup.error;
    }
    if (!setup_error.empty()) return json::object{{"scenario", "flood"}, {"error", setup_error}};
    Flood flood(plan);
    auto o = flood.run();
    o["school_id"] = plan.school_id;
    return o;
}

}  // namespace hschool::load
