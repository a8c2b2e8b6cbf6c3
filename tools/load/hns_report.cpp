#include "hns_report.hpp"

#include <unistd.h>

#include <boost/json.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>

#include "load_plan.hpp"
#include "report.hpp"

namespace hschool::load {

namespace json = boost::json;

namespace {

// The wait says how much a busy machine (others' work, or the load generator) held the server
// back, which CPU % alone cannot.
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

}  // namespace

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
void put_frames(json::object& o, const std::vector<const HnsSocket*>& seats, double window) {
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

void put_sockets(json::object& o, const std::vector<const HnsSocket*>& seats) {
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

// One socket's figures in a watch window: bytes in its first seconds, then bytes and frames a second.
json::object viewer_figures(const HnsSocket& s, double window) {
    json::object v;
    v["opened"] = s.open;
    v["first_5s_bytes"] = s.first_window_bytes;
    v["first_message_bytes"] = s.first_message_bytes;
    v["bytes_per_s"] = static_cast<double>(s.window_bytes) / window;
    v["frames_per_s"] = static_cast<double>(s.window_frames) / window;
    v["closed_by_server"] = s.closed && !s.closed_by_us;
    return v;
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
