#include "report.hpp"

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <cstdio>
#include <vector>

namespace hschool::load {

namespace json = boost::json;

namespace {

constexpr double kDeliveredTarget = 0.99;  // a client "keeps up" at 99 % of the expected tick rate

// Nearest-rank percentile of an unsorted copy; 0 for an empty set.
template <class T>
double percentile(std::vector<T> values, double p) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const auto rank = static_cast<std::size_t>(p * static_cast<double>(values.size() - 1) + 0.5);
    return static_cast<double>(values[std::min(rank, values.size() - 1)]);
}

}  // namespace

double json_number(const json::object& o, const char* key) {
    const auto* v = o.if_contains(key);
    if (!v) return 0;
    if (v->is_double()) return v->as_double();
    if (v->is_int64()) return static_cast<double>(v->as_int64());
    if (v->is_uint64()) return static_cast<double>(v->as_uint64());
    return 0;
}

json::object summarize(const RunFacts& f) {
    const auto& clients = f.result.clients;
    const double window = std::max(f.window_seconds, 1e-9);
    std::vector<double> rates, byte_rates, welcome_ms;
    std::uint64_t connected = 0, failed = 0, closed = 0, frames = 0, gaps = 0, with_gaps = 0, keeping_up = 0, chain_errors = 0;
    int tick_rate = 0;
    for (const auto& c : clients) {
        if (c.failed) ++failed;
        if (!c.welcomed) continue;
        ++connected;
        if (c.closed_after_welcome) ++closed;
        tick_rate = std::max<int>(tick_rate, c.tick_rate);
        rates.push_back(static_cast<double>(c.tick_frames) / window);
        byte_rates.push_back(static_cast<double>(c.bytes) / window);
        welcome_ms.push_back(c.welcome_us / 1000.0);
        frames += c.tick_frames;
        gaps += c.tick_gaps;
        chain_errors += c.chain_errors;
        if (c.tick_gaps > 0) ++with_gaps;
    }
    const bool expects_ticks = f.options->plan.scenario != Scenario::Idle;
    const double expected = expects_ticks ? tick_rate : 0;
    for (double r : rates) {
        if (expects_ticks && r >= kDeliveredTarget * expected) ++keeping_up;
    }
    std::vector<double> rtt_ms;
    rtt_ms.reserve(f.result.rtt_us.size());
    for (auto us : f.result.rtt_us) rtt_ms.push_back(us / 1000.0);

    json::object o;
    o["scenario"] = scenario_name(f.options->plan.scenario);
    if (!f.options->label.empty()) o["label"] = f.options->label;
    if (!f.error.empty()) o["error"] = f.error;
    o["clients"] = f.options->plan.clients;
    o["connected"] = connected;
    o["failed"] = failed;
    o["closed_during_run"] = closed;
    o["ramp_s"] = f.ramp_seconds;
    o["welcome_ms_p50"] = percentile(welcome_ms, 0.5);
    o["welcome_ms_p99"] = percentile(welcome_ms, 0.99);
    o["window_s"] = f.window_seconds;
    o["schools_watched"] = f.schools_watched;
    o["expected_hz"] = expected;
    o["frames_hz_p50"] = percentile(rates, 0.5);
    o["frames_hz_p1"] = percentile(rates, 0.01);
    o["frames_hz_min"] = rates.empty() ? 0.0 : *std::min_element(rates.begin(), rates.end());
    o["clients_at_99pct"] = keeping_up;
    o["clients_at_99pct_share"] = connected ? static_cast<double>(keeping_up) / static_cast<double>(connected) : 0.0;
    o["delivered_frames"] = frames;
    o["delivered_hz_total"] = static_cast<double>(frames) / window;
    o["delivered_share"] = expects_ticks && connected ? static_cast<double>(frames) / (expected * window * static_cast<double>(connected)) : 0.0;
    o["tick_gaps"] = gaps;
    o["protocol"] = f.options->plan.protocol;
    o["replica_every"] = f.options->plan.replica_every;
    o["chain_errors"] = chain_errors;
    o["clients_with_gaps"] = with_gaps;
    o["bytes_per_client_s_p50"] = percentile(byte_rates, 0.5);
    o["pings_sent"] = f.result.pings_sent;
    o["pongs"] = f.result.rtt_us.size();
    o["rtt_ms_p50"] = percentile(rtt_ms, 0.5);
    o["rtt_ms_p99"] = percentile(rtt_ms, 0.99);
    o["rtt_ms_max"] = rtt_ms.empty() ? 0.0 : *std::max_element(rtt_ms.begin(), rtt_ms.end());
    o["send_errors"] = f.result.send_errors;
    if (f.window_start && f.window_end) {
        const double cpu = f.window_end->cpu_seconds - f.window_start->cpu_seconds;
        o["server_cpu_pct"] = 100.0 * cpu / window;
        o["server_rss_kib"] = f.window_end->rss_kib;
        o["server_hwm_kib"] = f.window_end->hwm_kib;
        o["server_cpu_us_per_frame"] = frames ? 1e6 * cpu / static_cast<double>(frames) : 0.0;
        if (f.before_connect) {
            o["server_rss_before_kib"] = f.before_connect->rss_kib;
            const double grown = static_cast<double>(f.window_end->rss_kib) - static_cast<double>(f.before_connect->rss_kib);
            o["server_rss_per_client_bytes"] = connected ? grown * 1024.0 / static_cast<double>(connected) : 0.0;
        }
    }
    if (f.self_start && f.self_end) o["load_cpu_pct"] = 100.0 * (f.self_end->cpu_seconds - f.self_start->cpu_seconds) / window;
    if (f.tick_durations) {
        const auto& h = *f.tick_durations;
        o["tick_count"] = h.buckets.empty() ? 0.0 : h.buckets.back().second;
        o["tick_ms_mean"] = h.count > 0 ? 1000.0 * h.sum / h.count : 0.0;
        o["tick_ms_p50"] = 1000.0 * quantile(h, 0.5);
        o["tick_ms_p99"] = 1000.0 * quantile(h, 0.99);
        o["tick_ms_max_bucket"] = 1000.0 * max_bound(h);
        o["tick_share_le_1ms"] = fraction_at_most(h, 0.001);
        o["tick_share_le_5ms"] = fraction_at_most(h, 0.005);
    }
    if (f.arena_simulate && f.arena_simulate->count > 0) {
        const auto& h = *f.arena_simulate;
        o["sim_ms_p50"] = 1000.0 * quantile(h, 0.5);
        o["sim_ms_p99"] = 1000.0 * quantile(h, 0.99);
        o["sim_ms_max_bucket"] = 1000.0 * max_bound(h);
        o["sim_share_le_1ms"] = fraction_at_most(h, 0.001);
    }
    return o;
}

void print_table(const json::object& s, std::ostream& out) {
    auto row = [&](const char* name, const char* key, const char* unit, int decimals = 2) {
        if (!s.if_contains(key)) return;
        char value[64];
        std::snprintf(value, sizeof value, "%.*f", decimals, json_number(s, key));
        char line[160];
        std::snprintf(line, sizeof line, "  %-34s %14s %s\n", name, value, unit);
        out << line;
    };
    out << "hschool-load " << s.at("scenario").as_string().c_str();
    if (const auto* label = s.if_contains("label")) out << " (" << label->as_string().c_str() << ")";
    out << "\n";
    if (const auto* error = s.if_contains("error")) out << "  ERROR: " << error->as_string().c_str() << "\n";
    row("clients requested", "clients", "", 0);
    row("connected", "connected", "", 0);
    row("failed", "failed", "", 0);
    row("closed during run", "closed_during_run", "", 0);
    row("ramp", "ramp_s", "s");
    row("connect→Welcome p50 / p99", "welcome_ms_p50", "ms");
    row("", "welcome_ms_p99", "ms");
    row("window", "window_s", "s");
    row("expected tick rate", "expected_hz", "Hz", 0);
    row("frames/client/s median", "frames_hz_p50", "Hz");
    row("frames/client/s 1st percentile", "frames_hz_p1", "Hz");
    row("frames/client/s slowest client", "frames_hz_min", "Hz");
    row("clients at ≥99 % of expected", "clients_at_99pct", "", 0);
    row("delivered share of expected", "delivered_share", "", 4);
    row("delivered frames/s (all clients)", "delivered_hz_total", "Hz", 0);
    row("tick gaps (dropped frames)", "tick_gaps", "", 0);
    row("clients with gaps", "clients_with_gaps", "", 0);
    row("bytes/client/s median", "bytes_per_client_s_p50", "B/s", 0);
    row("Ping→Pong p50", "rtt_ms_p50", "ms", 3);
    row("Ping→Pong p99", "rtt_ms_p99", "ms", 3);
    row("Ping→Pong max", "rtt_ms_max", "ms", 3);
    row("server CPU", "server_cpu_pct", "%", 1);
    row("server RSS", "server_rss_kib", "KiB", 0);
    row("server RSS before connecting", "server_rss_before_kib", "KiB", 0);
    row("server RSS per client", "server_rss_per_client_bytes", "B", 0);
    row("load generator CPU", "load_cpu_pct", "%", 1);
    row("server CPU per delivered frame", "server_cpu_us_per_frame", "µs", 3);
    row("server ticks in window", "tick_count", "", 0);
    row("server tick mean", "tick_ms_mean", "ms", 3);
    row("server tick p50", "tick_ms_p50", "ms", 3);
    row("server tick p99", "tick_ms_p99", "ms", 3);
    row("server tick max (bucket bound)", "tick_ms_max_bucket", "ms", 3);
    row("server ticks ≤ 1 ms", "tick_share_le_1ms", "", 4);
    row("arena simulate+encode p50", "sim_ms_p50", "ms", 3);
    row("arena simulate+encode p99", "sim_ms_p99", "ms", 3);
    row("arena simulate+encode max (bucket)", "sim_ms_max_bucket", "ms", 3);
    row("server ticks ≤ 5 ms", "tick_share_le_5ms", "", 4);
}

void print_flood_table(const json::object& s, std::ostream& out) {
    auto row = [&](const char* name, const char* key, const char* unit, int decimals = 2) {
        if (!s.if_contains(key)) return;
        char line[160];
        std::snprintf(line, sizeof line, "  %-34s %14.*f %s\n", name, decimals, json_number(s, key), unit);
        out << line;
    };
    auto counts = [&](const char* name, const char* key) {
        const auto* v = s.if_contains(key);
        if (!v || !v->is_object()) return;
        out << "  " << name << ":";
        if (v->as_object().empty()) out << " none";
        for (const auto& [k, n] : v->as_object()) out << " " << std::string_view(k) << "×" << json::serialize(n);
        out << "\n";
    };
    out << "hschool-load flood";
    if (const auto* kind = s.if_contains("kind")) out << " " << kind->as_string().c_str();
    if (const auto* label = s.if_contains("label")) out << " (" << label->as_string().c_str() << ")";
    out << "\n";
    if (const auto* error = s.if_contains("error")) out << "  ERROR: " << error->as_string().c_str() << "\n";
    if (const auto* why = s.if_contains("stopped_by")) out << "  stopped by " << why->as_string().c_str() << "\n";
    row("connections at once", "connections", "", 0);
    row("flood duration", "flood_s", "s");
    row("connection attempts", "attempts", "", 0);
    row("upgraded (101)", "opened", "", 0);
    row("connect/upgrade failed", "connect_failed", "", 0);
    counts("upgrade refused, by status", "refused_by_status");
    counts("closed by the server, by code", "closes_by_code");
    row("ended without a Close frame", "ended_without_close", "", 0);
    row("closes by the server per second", "closes_per_s", "/s");
    row("connection lifetime p50", "lifetime_ms_p50", "ms");
    row("bytes sent per connection p50", "bytes_before_close_p50", "B", 0);
    row("sent", "mib_sent_per_s", "MiB/s");
    row("frames sent", "frames_sent_per_s", "/s", 0);
    row("frames received", "frames_received", "", 0);
    row("server CPU over the flood", "server_cpu_pct", "%", 1);
    row("server RSS at start", "server_rss_start_kib", "KiB", 0);
    row("server RSS peak (100 ms samples)", "server_rss_peak_kib", "KiB", 0);
    row("server RSS at end", "server_rss_end_kib", "KiB", 0);
    row("server VmHWM at end", "server_hwm_kib", "KiB", 0);
}

}  // namespace hschool::load
