// hschool-load: opens many WebSocket clients against a loopback server and reports what they saw.
#include <sys/resource.h>
#include <unistd.h>

#include <boost/json/serialize.hpp>
#include <chrono>
#include <iostream>
#include <thread>

#include "flood.hpp"
#include "hns_load.hpp"
#include "http_client.hpp"
#include "load_plan.hpp"
#include "options.hpp"
#include "report.hpp"
#include "schools_setup.hpp"
#include "server_probe.hpp"
#include "ws_driver.hpp"

using namespace hschool::load;
using SteadyClock = std::chrono::steady_clock;

namespace {

constexpr auto kPollPeriod = std::chrono::milliseconds(20);
constexpr const char* kTickHistogram = "hschool_tick_duration_seconds";
constexpr const char* kArenaSimulateHistogram = "hschool_arena_simulate_seconds";  // absent from other servers: not reported
constexpr auto kMetricsTimeout = std::chrono::seconds(15);  // a saturated server answers late; late beats missing

// Thousands of sockets need more descriptors than the usual soft limit of 1024.
void raise_fd_limit() {
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
}

double seconds_since(SteadyClock::time_point t) {
    return std::chrono::duration<double>(SteadyClock::now() - t).count();
}

struct ServerHistograms {
    std::optional<Histogram> ticks;
    std::optional<Histogram> arena_simulate;
};

ServerHistograms scrape_histograms(const Options& o) {
    const auto reply = http_request(o.plan.host, o.plan.port, "GET", "/metrics", {}, kMetricsTimeout);
    if (reply.status != 200) return {};
    return {parse_histogram(reply.body, kTickHistogram), parse_histogram(reply.body, kArenaSimulateHistogram)};
}

std::optional<ProcSample> probe(const Options& o) {
    if (o.server_pid <= 0) return std::nullopt;
    return sample_process(o.server_pid);
}

// A scenario that summarises itself (flood, hns): the JSON line on stdout, the table on stderr;
// the exit code says whether the summary carries an error.
int report_summary(boost::json::object summary, const Options& o,
                   void (*print_table)(const boost::json::object&, std::ostream&)) {
    if (!o.label.empty()) summary["label"] = o.label;
    std::cout << boost::json::serialize(summary) << std::endl;
    if (!o.json_only) print_table(summary, std::cerr);
    return summary.contains("error") ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
    auto parsed = parse_options(argc, argv);
    if (!parsed) return 2;
    Options& o = *parsed;
    raise_fd_limit();
    if (o.plan.scenario == Scenario::Flood) return report_summary(run_flood(o.flood), o, print_flood_table);
    if (o.plan.scenario == Scenario::Hns) return report_summary(run_hns(o.hns), o, print_hns_table);

    RunFacts facts;
    facts.options = &o;
    facts.before_connect = probe(o);
    if (o.plan.scenario == Scenario::Schools) {
        auto setup = ensure_schools(o.plan.host, o.plan.port);
        facts.error = setup.error;
        o.plan.school_ids = setup.ids;
        facts.schools_watched = static_cast<int>(setup.ids.size());
    }

    if (facts.error.empty()) {
        WsDriver driver(o.plan);
        const auto ramp_start = SteadyClock::now();
        driver.start();
        while (driver.pending() > 0 && seconds_since(ramp_start) < o.ramp_limit_seconds) std::this_thread::sleep_for(kPollPeriod);
        facts.ramp_seconds = seconds_since(ramp_start);
        if (driver.pending() > 0) facts.error = "ramp did not finish within the limit";
        sleep_seconds(o.warmup_seconds);

        const auto before = scrape_histograms(o);
        facts.window_start = probe(o);
        facts.self_start = sample_process(getpid());
        const auto window_start = SteadyClock::now();
        driver.set_measuring(true);
        sleep_seconds(o.seconds);
        driver.set_measuring(false);
        facts.window_seconds = seconds_since(window_start);
        facts.window_end = probe(o);
        facts.self_end = sample_process(getpid());
        const auto after = scrape_histograms(o);
        if (before.ticks && after.ticks) facts.tick_durations = subtract(*after.ticks, *before.ticks);
        if (before.arena_simulate && after.arena_simulate)
            facts.arena_simulate = subtract(*after.arena_simulate, *before.arena_simulate);
        facts.result = driver.stop();
    }

    const auto summary = summarize(facts);
    std::cout << boost::json::serialize(summary) << std::endl;
    if (!o.json_only) print_table(summary, std::cerr);
    return facts.error.empty() ? 0 : 1;
}
