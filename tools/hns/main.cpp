// hschool-hns: the hide-and-seek game on the command line.
//   run --variant certification --seed 42 --replay out.replay --results out.json
//   verify FILE     exit 0 when every hash matches, 1 on a mismatch, 2 on an unreadable file
//   info FILE       header, seats, games, final tick, results
//   seat --url ws://HOST:PORT/player?slot=N&token=T [--scripted burrow|scatter] [--external-orders FILE|-]
//        [--builtin idle|random --seed S] [--prompt-file FILE]
//                   a league seat: plays the match on that socket, exit 0 when it is over
//   bridge [--envs N] [--framing json|binary] [--replays DIR]
//                   the training bridge on stdin/stdout (bridge_command.hpp)
//   league --entrant a=builtin:burrow --entrant b=cmd:"python3 bot.py {url}" --matches 24 --out DIR
//                   a league: built-ins headless, prompt:/cmd: through hschool-server; replays and
//                   DIR/league.json (league_command.hpp)
#include <CLI/CLI.hpp>
#include <boost/json.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "sim/hns/match.hpp"
#include "sim/hns/room_files.hpp"
#include "sim/hns/verify.hpp"
#include "bridge_command.hpp"
#include "bridge_frames.hpp"
#include "league_command.hpp"
#include "seat_program.hpp"

namespace hns = hschool::sim::hns;

namespace {

constexpr int kExitOk = 0;
constexpr int kExitMismatch = 1;
constexpr int kExitError = 2;
constexpr int kProgressEveryTicks = 240;
// Far above any replay of a 660 s match; anything larger is not one of ours.
constexpr std::streamoff kMaxFileBytes = std::streamoff{1} << 30;

bool read_file(const std::string& path, std::string& out) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return false;
    const std::streamoff size = in.tellg();
    if (size < 0 || size > kMaxFileBytes) return false;
    in.seekg(0);
    out.resize(static_cast<std::size_t>(size));
    return static_cast<bool>(in.read(out.data(), size));
}

bool write_file(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return static_cast<bool>(out);
}

int cmd_run(const std::string& variant, long long seed, bool seedSet, const std::string& configPath,
            const std::string& seats, const std::string& replayPath, const std::string& resultsPath, bool quiet,
            bool enemyMemory, const std::string& gameVersion, int stopTick) {
    auto config = hns::variant_config(variant);
    if (!config) return std::fprintf(stderr, "hschool-hns: %s\n", config.error.c_str()), kExitError;
    if (!configPath.empty()) {
        std::string text;
        if (!read_file(configPath, text)) return std::fprintf(stderr, "hschool-hns: cannot read %s\n", configPath.c_str()), kExitError;
        config = hns::apply_config_json(*config, text);
        if (!config) return std::fprintf(stderr, "hschool-hns: %s: %s\n", configPath.c_str(), config.error.c_str()), kExitError;
    }
    if (seedSet) config->seed = seed;
    if (!gameVersion.empty()) config->gameVersion = *hns::parse_game_version(gameVersion);
    auto pinned = hns::resolve_room_spec(*config);
    if (!pinned) return std::fprintf(stderr, "hschool-hns: %s\n", pinned.error.c_str()), kExitError;
    hns::MatchOptions opt;
    // GameVersion 2's seats always remember; the flag turns memory on under GameVersion 1's rules.
    if (enemyMemory) opt.enemyMemory = true;
    opt.wallClockStopTick = stopTick;
    std::stringstream list(seats);
    std::string item;
    for (int s = 0; s < 6 && std::getline(list, item, ','); ++s) opt.seats[s] = hns::parse_baseline(item);
    auto progress = [&](const hns::Sim& sim) {
        if (!quiet && sim.tick_count() % kProgressEveryTicks == 0)
            std::fprintf(stderr, "tick %d game %d %s\n", sim.tick_count(), sim.game_index() + 1,
                         sim.phase() == hns::GamePhase::Playing ? "playing" : "between games");
    };
    auto outcome = hns::run_match(*pinned, opt, progress);
    if (!outcome) return std::fprintf(stderr, "hschool-hns: %s\n", outcome.error.c_str()), kExitError;
    if (!replayPath.empty() && !write_file(replayPath, outcome->replay))
        return std::fprintf(stderr, "hschool-hns: cannot write %s\n", replayPath.c_str()), kExitError;
    if (!resultsPath.empty() && !write_file(resultsPath, outcome->results + "\n"))
        return std::fprintf(stderr, "hschool-hns: cannot write %s\n", resultsPath.c_str()), kExitError;
    std::printf("game version %s\n", std::string(hns::game_version_text(pinned->gameVersion)).c_str());
    std::printf("final tick %d hash 0x%016llx\n", outcome->finalTick, static_cast<unsigned long long>(outcome->finalHash));
    return kExitOk;
}

int cmd_verify(const std::string& path) {
    std::string bytes;
    if (!read_file(path, bytes)) return std::fprintf(stderr, "hschool-hns: cannot read %s\n", path.c_str()), kExitError;
    auto data = hns::parse_replay(bytes);
    if (!data) return std::fprintf(stderr, "hschool-hns: %s: %s\n", path.c_str(), data.error.c_str()), kExitError;
    const hns::VerifyReport r = hns::verify_replay(*data);
    // The header's version picked the rules the replay was re-stepped by.
    std::printf("game version %s: %s\n", data->gameVersion.c_str(), r.message().c_str());
    if (r.ok) return kExitOk;
    return r.mismatchTick != 0 ? kExitMismatch : kExitError;
}

int cmd_info(const std::string& path) {
    std::string bytes;
    if (!read_file(path, bytes)) return std::fprintf(stderr, "hschool-hns: cannot read %s\n", path.c_str()), kExitError;
    auto data = hns::parse_replay(bytes);
    if (!data) return std::fprintf(stderr, "hschool-hns: %s: %s\n", path.c_str(), data.error.c_str()), kExitError;
    std::printf("format     COWLDHNS v1%s\n", data->compressed ? " (compressed)" : "");
    std::printf("game       %s %s\n", data->gameName.c_str(), data->gameVersion.c_str());
    std::printf("version    %s (re-stepped by GameVersion %s's rules)\n", data->gameVersion.c_str(),
                data->gameVersion.c_str());
    std::printf("start ms   %llu\n", static_cast<unsigned long long>(data->startMs));
    boost::system::error_code ec;
    const auto config = boost::json::parse(data->configJson, ec);
    if (!ec && config.is_object()) {
        const auto& o = config.as_object();
        if (const auto* seed = o.if_contains("seed")) std::printf("seed       %s\n", boost::json::serialize(*seed).c_str());
        if (const auto* spec = o.if_contains("mapSpec"); spec && spec->is_object())
            if (const auto* name = spec->as_object().if_contains("name"))
                std::printf("room       %s\n", boost::json::serialize(*name).c_str());
    }
    for (const auto& j : data->joins)
        std::printf("seat %d     %s (slot %d, ms %u)\n", j.player, j.name.c_str(), j.slot, j.ms);
    std::printf("records    %zu hashes, %zu inputs, %zu chats\n", data->hashes.size(), data->inputs.size(),
                data->chats.size());
    if (!data->hashes.empty())
        std::printf("final tick %u hash 0x%016llx\n", data->hashes.back().tick,
                    static_cast<unsigned long long>(data->hashes.back().hash));
    for (auto it = data->chats.rbegin(); it != data->chats.rend(); ++it) {
        if (it->message.rfind("{\"k\":\"result\"", 0) != 0) continue;
        const auto result = boost::json::parse(it->message, ec);
        if (ec || !result.is_object() || !result.as_object().contains("results")) break;
        const auto& r = result.as_object().at("results").as_object();
        for (const char* key : {"games", "gameMargins", "huntTicksPlayed", "reason", "endRule", "finalTick"})
            if (const auto* v = r.if_contains(key)) std::printf("%-10s %s\n", key, boost::json::serialize(*v).c_str());
        if (const auto* scores = r.if_contains("scores"); scores && scores->is_array()) {
            std::printf("scores    ");
            for (const auto& v : scores->as_array()) std::printf(" %.3f", v.is_double() ? v.as_double() : 0.0);
            std::printf("\n");
        }
        break;
    }
    return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"hschool-hns: hide-and-seek matches, replays and verification"};
    app.require_subcommand(1);
    std::string variant = "certification", configPath, seats = "burrow,burrow,burrow,burrow,burrow,burrow";
    std::string replayPath, resultsPath, file, gameVersion;
    long long seed = 0;
    int stopTick = 0;
    bool quiet = false, enemyMemory = false;
    auto* run = app.add_subcommand("run", "play a whole match with six baseline seats");
    run->add_option("--variant", variant, "warren, long-hall or certification");
    auto* seedOpt = run->add_option("--seed", seed, "the episode seed");
    run->add_option("--config", configPath, "a JSON file of config keys applied over the variant");
    run->add_option("--seats", seats, "six comma-separated baselines (burrow or scatter)");
    run->add_option("--replay", replayPath, "write the COWLDHNS replay here");
    run->add_option("--results", resultsPath, "write the results JSON here");
    run->add_flag("--quiet", quiet, "no progress on stderr");
    run->add_option("--stop-at-tick", stopTick, "force the wall-clock stop at this tick (the deadline ending)")
        ->check(CLI::Range(0, 100000000));
    run->add_option("--game-version", gameVersion, "the rules to play: 2 (today's reference, the default) or 1 (before its review fixes)")
        ->check(CLI::IsMember({"1", "2"}));
    run->add_flag("--enemy-memory", enemyMemory,
                  "GameVersion 1 only: seats remember seen enemies (GameVersion 2's always do, GameVersion 1's never did)");
    auto* verify = app.add_subcommand("verify", "re-step a replay and check every hash");
    verify->add_option("file", file)->required();
    auto* info = app.add_subcommand("info", "print a replay's header, seats, games and results");
    info->add_option("file", file)->required();
    hschool::tools::hns::SeatOptions seatOptions;
    auto* seat = app.add_subcommand("seat", "a league seat: register, play the match on one /player socket, exit 0 when it is over");
    seat->add_option("--url", seatOptions.url, "the seat's socket, ws://HOST:PORT/player?slot=N&token=T (default: $COWORLD_PLAYER_WS_URL)");
    seat->add_option("--scripted", seatOptions.scripted, "the baseline the server plays for this seat (teacher: burrow through the order catalog)")
        ->check(CLI::IsMember({"burrow", "scatter", "teacher"}));
    seat->add_option("--external-orders", seatOptions.external_orders,
                     "answer decisions: a JSON-lines file of orders (one per turn, the last repeats), or - for "
                     "decisions on stdout and orders from stdin");
    seat->add_option("--label", seatOptions.label, "the policy label of the register record");
    seat->add_option("--connect-attempts", seatOptions.connect_attempts, "dials, 500 ms apart, before the game must listen")
        ->check(CLI::Range(1, 100000));
    seat->add_option("--builtin", seatOptions.builtin, "play a league built-in here: idle (never presses) or random")
        ->check(CLI::IsMember({"idle", "random"}));
    seat->add_option("--seed", seatOptions.seed, "the match seed random draws its orders from");
    seat->add_option("--prompt-file", seatOptions.prompt_file, "a prompt seat: register with this file's text as the prompt");
    seat->add_option("--numeric-url", seatOptions.numeric_url,
                     "a numeric seat: POST each decision's values and legal mask here, play the order it picks (default: $PLAYER_NUMERIC_URL)");
    seat->add_option("--numeric-key", seatOptions.numeric_key, "the numeric policy's bearer key (default: $PLAYER_NUMERIC_KEY)");
    hschool::tools::hns::LeagueOptions leagueOptions;
    auto* league = app.add_subcommand("league", "play a league; the table goes to DIR/league.json");
    league->add_option("--entrant", leagueOptions.entrants,
                       "NAME=KIND, two or more; KIND: builtin:burrow|scatter|idle|random|teacher, prompt:FILE, cmd:COMMAND "
                       "({url} in COMMAND: the seat's /player URL), numeric:URL (a policy service our numeric player asks)")
        ->required();
    league->add_option("--server", leagueOptions.server,
                       "the hschool-server binary for prompt:/cmd: matches (default: beside hschool-hns, then PATH)");
    league->add_option("--program-grace", leagueOptions.program_grace_seconds,
                       "seconds a cmd: program may take to take its seat before it counts as silent")
        ->check(CLI::Range(hschool::tools::hns::kLeagueMinProgramGrace, hschool::tools::hns::kLeagueMaxProgramGrace));
    league->add_option("--matches", leagueOptions.matches, "matches per pairing (sides swapped every other match)");
    league->add_option("--variant", leagueOptions.variant, "warren, long-hall or certification");
    league->add_option("--seed", leagueOptions.seed, "the league seed; every match seed derives from it");
    league->add_option("--jobs", leagueOptions.jobs, "matches at once (default: the hardware's cores)");
    league->add_option("--out", leagueOptions.out, "the folder for league.json and the replays")->required();
    league->add_flag("--quiet", leagueOptions.quiet, "no progress on stderr");
    hschool::tools::hns::BridgeOptions bridgeOptions;
    auto* bridge = app.add_subcommand("bridge", "the training bridge: JSON lines (or binary frames) on stdin and stdout");
    bridge->add_option("--envs", bridgeOptions.envs, "episodes stepped side by side, one request for all of them")
        ->check(CLI::Range(1, hschool::tools::hns::kMaxBridgeEnvs));
    bridge->add_option("--threads", bridgeOptions.threads, "threads that step them (default: one per environment, at most the cores)")
        ->check(CLI::Range(1, 256));
    bridge->add_option("--framing", bridgeOptions.framing, "json: the reference's JSON lines; binary: length-prefixed frames of arrays")
        ->check(CLI::IsMember({"json", "binary"}));
    bridge->add_option("--replays", bridgeOptions.replays, "write each finished episode's COWLDHNS replay into this folder");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? kExitOk : kExitError;
    }
    if (*run) return cmd_run(variant, seed, seedOpt->count() > 0, configPath, seats, replayPath, resultsPath, quiet,
                                enemyMemory, gameVersion, stopTick);
    if (*verify) return cmd_verify(file);
    if (*seat) return hschool::tools::hns::run_seat(seatOptions);
    if (*league) return hschool::tools::hns::run_league(leagueOptions);
    if (*bridge) return hschool::tools::hns::run_bridge(bridgeOptions);
    return cmd_info(file);
}
