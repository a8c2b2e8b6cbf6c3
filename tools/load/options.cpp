#include "options.hpp"

#include <charconv>
#include <iostream>
#include <string_view>

#include "ws/ws_url.hpp"

namespace hschool::load {

namespace {

constexpr const char* kUsage =
    "usage: hschool-load <arena|schools|idle> --url ws://127.0.0.1:PORT --clients N --seconds S\n"
    "         [--threads 1|2] [--server-pid PID] [--ramp-batch N] [--connect-timeout-ms MS]\n"
    "         [--warmup S] [--label TEXT] [--json-only] [--seed N] [--protocol 1|5] [--replica-every N]\n"
    "       hschool-load flood --url ws://127.0.0.1:PORT --connections N --seconds S\n"
    "         [--kind mixed|setrunning|input|ping] [--server-pid PID] [--chunk-kib N] [--max-server-rss-mib N]\n"
    "         [--reconnect-delay-ms MS] [--school-id ID] [--label TEXT] [--json-only]\n"
    "  arena:   v1 bots: Hello, inputs at 30 Hz (mask changes every second), a Ping every second;\n"
    "           --protocol 5: v5 bots, one input per tick, every Frame chain-checked; every Nth bot\n"
    "           (--replica-every, default 1: all) also applies each Frame to a replica by the session rules\n"
    "  schools: v4 watchers spread over the schools (created up to 6 via POST /api/schools), one open each\n"
    "  idle:    connections that only say hello (v4)\n"
    "  flood:   hostile clients: Hello (v4: and OpenSchool), then small frames as fast as the socket takes them\n"
    "           (1 MiB per write); reconnect at once when the server closes them, until --seconds or SIGINT\n"
    "       hschool-load hns-seats --url ws://127.0.0.1:PORT --matches N --seconds S [--variant V] [--ready]\n"
    "         [--warmup S] [--threads 1|2] [--ramp-batch N] [--server-pid PID] [--label TEXT] [--json-only]\n"
    "       hschool-load hns-spectate --url ws://127.0.0.1:PORT --seconds S [--spectators N] [--stream compact] [--variant V] [--warmup S] [--server-pid PID]\n"
    "       hschool-load hns-watch --url ws://127.0.0.1:PORT --seconds S [--server-pid PID]\n"
    "       hschool-load hns-fast --url ws://127.0.0.1:PORT [--variant V] [--timeout S] [--server-pid PID]\n"
    "       hschool-load hns-replay --url ws://127.0.0.1:PORT --seconds S [--viewers N] [--server-pid PID]\n"
    "  hns-seats:    N hide-and-seek matches (POST /api/hns/matches, default variant, no bots), six unregistered\n"
    "                /player seats each (scripted burrow); frame intervals per seat; --ready answers every frame\n"
    "                with 0x85 (fast mode), otherwise the matches pace themselves at 24 Hz\n"
    "  hns-spectate: one match with six server bots; server CPU alone, then with N /global spectators (bytes/s);\n"
    "                --stream compact: our browser's compact stream instead of the contract's\n"
    "  hns-watch: issue 31's bytes: a default match on /global and on the compact stream side by side (first 5 s,\n"
    "             then --seconds of steady state), then the compact stream at 1, 2, 4, 8 and 16 ticks a frame\n"
    "  hns-fast:     one certification match, six seats answering 0x85 at once: ticks/s and the whole match's wall time\n"
    "  hns-replay:   a long certification match played out, then N /replay viewers pressing 'e' once and 'b' every 250 ms:\n"
    "                frames/s per viewer, server CPU and RSS\n"
    "Prints one JSON line and a table. Loopback servers only.\n";

bool parse_url(std::string_view url, LoadPlan& plan) {
    auto parsed = tools::ws::parse_ws_url(url);
    if (!parsed || !parsed->port_given) return false;
    plan.host = parsed->host == "localhost" ? "127.0.0.1" : parsed->host;
    int port = 0;
    const auto& text = parsed->port;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), port);
    if (ec != std::errc() || end != text.data() + text.size() || port <= 0 || port > 65535) return false;
    plan.port = static_cast<std::uint16_t>(port);
    return plan.host.starts_with("127.");  // loopback only: this tool must never load someone else's server
}

bool fail(const std::string& why) {
    std::cerr << "hschool-load: " << why << "\n" << kUsage;
    return false;
}

bool parse_into(int argc, char** argv, Options& o) {
    if (argc < 2) return fail("missing scenario");
    const std::string_view scenario = argv[1];
    if (scenario == "arena") o.plan.scenario = Scenario::Arena;
    else if (scenario == "schools") o.plan.scenario = Scenario::Schools;
    else if (scenario == "idle") o.plan.scenario = Scenario::Idle;
    else if (scenario == "flood") o.plan.scenario = Scenario::Flood;
    else if (scenario == "hns-seats" || scenario == "hns-spectate" || scenario == "hns-fast" || scenario == "hns-replay" ||
             scenario == "hns-watch") {
        o.plan.scenario = Scenario::Hns;
        o.hns.mode = scenario == "hns-seats"      ? HnsMode::Seats
                     : scenario == "hns-spectate" ? HnsMode::Spectate
                     : scenario == "hns-replay"   ? HnsMode::Replay
                     : scenario == "hns-watch"    ? HnsMode::Watch
                                                  : HnsMode::Fast;
    }
    else if (scenario == "--help" || scenario == "-h") return fail("help");
    else return fail("unknown scenario " + std::string(scenario));
    bool have_url = false;
    bool warmup_given = false;  // hns-*: their own defaults otherwise
    bool ramp_given = false;
    for (int i = 2; i < argc; ++i) {
        const std::string_view flag = argv[i];
        if (flag == "--json-only") {
            o.json_only = true;
            continue;
        }
        if (flag == "--ready") {
            o.hns.answer_ready = true;
            continue;
        }
        if (i + 1 >= argc) return fail("missing value for " + std::string(flag));
        const std::string value = argv[++i];
        try {
            if (flag == "--url") {
                if (!parse_url(value, o.plan)) return fail("--url must be ws://127.x.x.x:PORT (loopback only)");
                have_url = true;
            } else if (flag == "--clients") o.plan.clients = std::stoi(value);
            else if (flag == "--seconds") o.seconds = std::stod(value);
            else if (flag == "--threads") o.plan.threads = std::stoi(value);
            else if (flag == "--server-pid") o.server_pid = std::stoi(value);
            else if (flag == "--ramp-batch") {
                o.plan.ramp_batch = std::stoi(value);
                ramp_given = true;
            }
            else if (flag == "--connect-timeout-ms") o.plan.connect_timeout = std::chrono::milliseconds(std::stoi(value));
            else if (flag == "--warmup") {
                o.warmup_seconds = std::stod(value);
                warmup_given = true;
            }
            else if (flag == "--label") o.label = value;
            else if (flag == "--seed") o.plan.seed = std::stoull(value);
            else if (flag == "--protocol") {
                o.plan.protocol = std::stoi(value);
                if (o.plan.protocol != 1 && o.plan.protocol != 5) return fail("--protocol must be 1 or 5");
            }
            else if (flag == "--replica-every") o.plan.replica_every = std::stoi(value);
            else if (flag == "--connections") o.flood.connections = std::stoi(value);
            else if (flag == "--kind") {
                if (value == "mixed") o.flood.kind = FloodKind::Mixed;
                else if (value == "setrunning") o.flood.kind = FloodKind::SetRunning;
                else if (value == "input") o.flood.kind = FloodKind::Input;
                else if (value == "ping") o.flood.kind = FloodKind::Ping;
                else return fail("--kind must be mixed, setrunning, input or ping");
            } else if (flag == "--chunk-kib") o.flood.chunk_bytes = static_cast<std::size_t>(std::stoul(value)) * 1024;
            else if (flag == "--max-server-rss-mib") o.flood.max_server_rss_mib = std::stoull(value);
            else if (flag == "--reconnect-delay-ms") o.flood.reconnect_delay_ms = std::stoi(value);
            else if (flag == "--school-id") o.flood.school_id = std::stoi(value);
            else if (flag == "--matches") o.hns.matches = std::stoi(value);
            else if (flag == "--variant") o.hns.variant = value;
            else if (flag == "--spectators") o.hns.spectators = std::stoi(value);
            else if (flag == "--stream") {
                if (value != "compact" && value != "sprite") return fail("--stream must be compact or sprite");
                o.hns.stream = value == "compact" ? value : "";
            }
            else if (flag == "--viewers") o.hns.viewers = std::stoi(value);
            else if (flag == "--timeout") o.hns.timeout_seconds = std::stod(value);
            else return fail("unknown option " + std::string(flag));
        } catch (const std::exception&) {
            return fail("bad value for " + std::string(flag) + ": " + value);
        }
    }
    if (!have_url) return fail("--url is required");
    if (!(o.seconds > 0 && o.seconds <= kMaxSeconds)) return fail("--seconds must be in (0, " + std::to_string(kMaxSeconds) + "]");
    if (o.plan.scenario == Scenario::Flood) {
        if (o.flood.connections < 1 || o.flood.connections > kMaxFloodConnections)
            return fail("--connections must be 1.." + std::to_string(kMaxFloodConnections));
        if (o.flood.chunk_bytes < 1024 || o.flood.chunk_bytes > (64u << 20)) return fail("--chunk-kib must be 1..65536");
        if (o.flood.reconnect_delay_ms < 0 || o.flood.reconnect_delay_ms > 60'000) return fail("--reconnect-delay-ms out of range");
        o.flood.host = o.plan.host;
        o.flood.port = o.plan.port;
        o.flood.seconds = o.seconds;
        o.flood.server_pid = o.server_pid;
        return true;
    }
    if (o.plan.scenario == Scenario::Hns) {
        if (o.hns.matches < 1 || o.hns.matches > kMaxHnsMatches) return fail("--matches must be 1.." + std::to_string(kMaxHnsMatches));
        if (o.hns.spectators < 1 || o.hns.spectators > kMaxHnsSpectators)
            return fail("--spectators must be 1.." + std::to_string(kMaxHnsSpectators));
        if (o.hns.viewers < 1 || o.hns.viewers > kMaxHnsReplayViewers)
            return fail("--viewers must be 1.." + std::to_string(kMaxHnsReplayViewers));
        if (o.plan.threads < 1 || o.plan.threads > kMaxThreads) return fail("--threads must be 1 or 2");
        if (!(o.hns.timeout_seconds > 0 && o.hns.timeout_seconds <= kMaxSeconds)) return fail("--timeout out of range");
        if (o.plan.ramp_batch < 1 || o.plan.ramp_batch > kMaxRampBatch) return fail("--ramp-batch out of range");
        o.hns.host = o.plan.host;
        o.hns.port = o.plan.port;
        o.hns.seconds = o.seconds;
        o.hns.threads = o.plan.threads;
        o.hns.server_pid = o.server_pid;
        if (warmup_given) o.hns.warmup_seconds = o.warmup_seconds;
        if (ramp_given) o.hns.ramp_batch = o.plan.ramp_batch;
        if (!(o.hns.warmup_seconds >= 0 && o.hns.warmup_seconds <= kMaxSeconds)) return fail("--warmup out of range");
        return true;
    }
    if (o.plan.clients < 1 || o.plan.clients > kMaxClients) return fail("--clients must be 1.." + std::to_string(kMaxClients));
    if (o.plan.replica_every < 1 || o.plan.replica_every > o.plan.clients) return fail("--replica-every must be 1..clients");
    if (o.plan.threads < 1 || o.plan.threads > kMaxThreads) return fail("--threads must be 1 or 2");
    if (o.plan.ramp_batch < 1 || o.plan.ramp_batch > kMaxRampBatch) return fail("--ramp-batch out of range");
    if (!(o.warmup_seconds >= 0 && o.warmup_seconds <= kMaxSeconds)) return fail("--warmup out of range");
    return true;
}

}  // namespace

std::optional<Options> parse_options(int argc, char** argv) {
    Options o;
    if (!parse_into(argc, argv, o)) return std::nullopt;
    return o;
}

const char* scenario_name(Scenario s) {
    switch (s) {
    case Scenario::Arena: return "arena";
    case Scenario::Schools: return "schools";
    case Scenario::Idle: return "idle";
    case Scenario::Flood: return "flood";
    case Scenario::Hns: return "hns";
    }
    return "?";
}

}  // namespace hschool::load
