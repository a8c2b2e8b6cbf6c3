#include "server_runner.hpp"

#include <unistd.h>

#include <boost/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <set>

#include "child_process.hpp"
#include "league/prompt_turns.hpp"
#include "seat_program.hpp"
#include "server_match.hpp"
#include "sim/hns/replay.hpp"
#include "sim/hns/room_files.hpp"

namespace hschool::tools::hns {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using namespace hschool::league;

constexpr const char* kServerName = "hschool-server";
constexpr const char* kUrlPlaceholder = "{url}";
constexpr int kTokenBytes = 16;  // 128 random bits: a seat's token cannot be guessed by another program

bool executable(const fs::path& path) {
    std::error_code ec;
    return fs::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

std::string fresh_token() {
    static constexpr char kHex[] = "0123456789abcdef";
    std::random_device device;
    std::string token;
    for (int i = 0; i < kTokenBytes; ++i) {
        const auto byte = device() & 0xFFu;
        token += {kHex[byte >> 4], kHex[byte & 15]};
    }
    return token;
}

// The drop-in config: the variant's keys with this match's seed, six tokens, and a lobby timeout
// the runner's stand-ins always beat (the lobby may tick at the fast-mode ceiling meanwhile).
std::string match_config(sim::hns::GameConfig config, std::int64_t seed, const std::array<std::string, kMatchSeats>& tokens,
                         std::chrono::seconds grace) {
    config.seed = seed;
    const long long lobby = (grace.count() + kLobbySlackSeconds) * kServerMaxTicksPerSecond;
    config.lobbyJoinTimeoutTicks = std::max<int>(config.lobbyJoinTimeoutTicks, static_cast<int>(lobby));
    json::object o = json::parse(sim::hns::config_to_json(config)).as_object();
    json::array list;
    for (const auto& t : tokens) list.emplace_back(t);
    o["tokens"] = std::move(list);
    o.erase("players");
    o.erase("slots");
    return json::serialize(o);
}

// Six scores by slot: the results' arrays follow the players, the replay's joins say whose slot.
Result<std::array<double, kSeats>> scores_by_slot(const json::object& results, const sim::hns::ReplayData& replay,
                                                  std::array<int, kSeats>& slotOfPlayer) {
    using R = Result<std::array<double, kSeats>>;
    const auto* scores = results.if_contains("scores");
    if (scores == nullptr || !scores->is_array() || scores->as_array().size() != kSeats) return R(hschool::unexpected(std::string("the results carry no six scores")));
    slotOfPlayer.fill(-1);
    std::set<int> slots;
    for (const auto& join : replay.joins)
        if (join.player < kSeats && join.slot >= 0 && join.slot < kSeats && slotOfPlayer[join.player] < 0) {
            slotOfPlayer[join.player] = join.slot;
            slots.insert(join.slot);
        }
    if (slots.size() != kSeats) return R(hschool::unexpected(std::string("the replay does not seat six slots")));
    std::array<double, kSeats> out{};
    for (int p = 0; p < kSeats; ++p) {
        const auto& v = scores->as_array()[p];
        if (!v.is_number()) return R(hschool::unexpected(std::string("a score is not a number")));
        out[slotOfPlayer[p]] = v.to_number<double>();
    }
    return out;
}

int int_at(const json::object& results, const char* key, int player) {
    const auto* list = results.if_contains(key);
    if (list == nullptr || !list->is_array() || player >= static_cast<int>(list->as_array().size())) return 0;
    const auto& v = list->as_array()[player];
    return v.is_int64() ? static_cast<int>(v.as_int64()) : 0;
}

// The fallback causes the replay recorded for a slot, in the order they first came.
std::vector<std::string> fallback_causes(const sim::hns::ReplayData& replay, int slot) {
    std::vector<std::string> causes;
    for (const auto& chat : replay.chats) {
        if (chat.message.rfind(R"({"k":"fallback")", 0) != 0) continue;
        boost::system::error_code ec;
        const auto record = json::parse(chat.message, ec);
        if (ec || !record.is_object()) continue;
        const auto* s = record.as_object().if_contains("slot");
        const auto* cause = record.as_object().if_contains("cause");
        if (!s || !s->is_int64() || s->as_int64() != slot || !cause || !cause->is_string()) continue;
        const std::string text(cause->as_string());
        if (std::find(causes.begin(), causes.end(), text) == causes.end()) causes.push_back(text);
    }
    return causes;
}

std::string joined(const std::vector<std::string>& parts) {
    std::string out;
    for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
    return out;
}

}  // namespace

bool needs_server(const std::vector<Entrant>& entrants) {
    return std::any_of(entrants.begin(), entrants.end(), [](const Entrant& e) { return e.kind.family != KindFamily::Builtin; });
}

Result<fs::path> find_server(const std::string& given) {
    if (!given.empty()) {
        if (executable(given)) return fs::absolute(given);
        return Result<fs::path>(hschool::unexpected("--server " + given + ": not an executable file"));
    }
    std::vector<fs::path> candidates;
    if (const fs::path self = self_executable(); !self.empty()) {
        candidates.push_back(self.parent_path() / kServerName);
        candidates.push_back(self.parent_path().parent_path().parent_path() / kServerName);  // build/tools/hns → build
    }
    if (const char* path = std::getenv("PATH"); path != nullptr) {
        std::string dirs(path);
        for (std::size_t from = 0; from <= dirs.size();) {
            const std::size_t colon = std::min(dirs.find(':', from), dirs.size());
            if (colon > from) candidates.push_back(fs::path(dirs.substr(from, colon - from)) / kServerName);
            from = colon + 1;
        }
    }
    for (const auto& c : candidates)
        if (executable(c)) return fs::weakly_canonical(c);
    return Result<fs::path>(hschool::unexpected(std::string(
        "prompt: and cmd: entrants play through hschool-server, found neither beside hschool-hns nor on PATH (give --server PATH)")));
}

std::string command_line(const std::string& command, const std::string& url) {
    std::string quoted = "'";
    for (const char c : url) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    quoted += "'";
    std::string out = command;
    for (std::size_t at = out.find(kUrlPlaceholder); at != std::string::npos; at = out.find(kUrlPlaceholder, at + quoted.size()))
        out.replace(at, std::string_view(kUrlPlaceholder).size(), quoted);
    return out;
}

Result<std::unique_ptr<ServerRunner>> ServerRunner::create(const std::vector<Entrant>& entrants, ServerRunnerOptions options,
                                                           const std::string& roomsDir) {
    using R = Result<std::unique_ptr<ServerRunner>>;
    std::unique_ptr<ServerRunner> runner(new ServerRunner());
    std::vector<Entrant> builtins;
    for (const Entrant& e : entrants) {
        if (e.kind.family == KindFamily::Builtin) builtins.push_back(e);
        if (e.kind.family != KindFamily::Prompt) continue;
        if (auto prompt = read_prompt_file(e.kind.arg); !prompt)
            return R(hschool::unexpected("entrant " + e.name + " (" + e.kind.text() + "): " + prompt.error));
        runner->prompts_[e.name] = fs::absolute(e.kind.arg).string();
    }
    // The built-ins' own matches, and the variant and rooms checked before any match starts.
    auto headless = HeadlessRunner::create(builtins, options.variant, roomsDir);
    if (!headless) return R(hschool::unexpected(headless.error()));
    auto config = sim::hns::variant_config(options.variant);
    if (!config) return R(hschool::unexpected(config.error));
    runner->headless_ = std::move(*headless);
    runner->base_ = *config;
    runner->entrants_ = entrants;
    runner->options_ = std::move(options);
    return runner;
}

Result<PlayedMatch> ServerRunner::play(const ScheduledMatch& match) const {
    const auto fail = [&](const std::string& m) { return Result<PlayedMatch>(hschool::unexpected("match " + match.id + ": " + m)); };
    std::array<const Entrant*, kSeats> seat{};
    bool server = false;
    for (int s = 0; s < kSeats; ++s) {
        for (const Entrant& e : entrants_)
            if (e.name == match.seats[s]) seat[s] = &e;
        if (seat[s] == nullptr) return fail("no entrant named " + match.seats[s]);
        server = server || seat[s]->kind.family != KindFamily::Builtin;
    }
    if (!server) return headless_->play(match);

    MatchPlan plan;
    plan.id = match.id;
    for (auto& t : plan.tokens) t = fresh_token();
    plan.config_json = match_config(base_, match.seed, plan.tokens, options_.grace);
    plan.server = options_.server;
    plan.tool = options_.tool;
    plan.logs = options_.out / "logs" / match.id;
    plan.grace = options_.grace;
    plan.wall = std::chrono::seconds(base_.wallClockBudgetSeconds) + options_.grace + kMatchWallMargin;
    const std::string tool = options_.tool.string(), seed = std::to_string(match.seed);
    for (int s = 0; s < kSeats; ++s) {
        const EntrantKind& kind = seat[s]->kind;
        plan.reported[s] = kind.family != KindFamily::Builtin;
        if (kind.family == KindFamily::Command) {
            plan.program[s] = [command = kind.arg](const std::string& url) {
                return std::vector<std::string>{"/bin/sh", "-c", command_line(command, url)};
            };
        } else if (kind.family == KindFamily::Numeric) {
            // Our own numeric player asks the entrant's policy service (PLAYER_NUMERIC_KEY passes through).
            plan.program[s] = [tool, policy = kind.arg, name = seat[s]->name](const std::string& url) {
                return std::vector<std::string>{tool, "seat", "--url", url, "--numeric-url", policy, "--label", name};
            };
        } else if (kind.family == KindFamily::Prompt) {
            plan.program[s] = [tool, file = prompts_.at(seat[s]->name)](const std::string& url) {
                return std::vector<std::string>{tool, "seat", "--url", url, "--prompt-file", file};
            };
        } else if (kind.arg == "idle" || kind.arg == "random") {
            plan.program[s] = [tool, seed, arg = kind.arg](const std::string& url) {
                return std::vector<std::string>{tool, "seat", "--url", url, "--builtin", arg, "--seed", seed};
            };
        } else {
            plan.program[s] = [tool, arg = kind.arg](const std::string& url) {
                return std::vector<std::string>{tool, "seat", "--url", url, "--scripted", arg};
            };
        }
    }
    std::error_code ec;
    fs::create_directories(plan.logs, ec);
    if (ec) return fail("cannot make " + plan.logs.string() + ": " + ec.message());
    auto run = run_server_match(plan);
    if (!run) return fail(run.error());

    boost::system::error_code jec;
    const json::value results = json::parse(run->results, jec);
    if (jec || !results.is_object()) return fail("the server's results are not a JSON object");
    const auto replay = sim::hns::parse_replay(run->replay);
    if (!replay) return fail("the server's replay does not parse: " + replay.error);
    std::array<int, kSeats> slotOfPlayer{};
    auto scores = scores_by_slot(results.as_object(), *replay, slotOfPlayer);
    if (!scores) return fail(scores.error());

    PlayedMatch out;
    out.scores = *scores;
    out.replay = std::move(run->replay);
    out.gameVersion = replay->gameVersion;
    std::lock_guard lock(mutex_);
    for (int p = 0; p < kSeats; ++p) {
        const int s = slotOfPlayer[p];
        if (!plan.reported[s]) continue;
        Tally& tally = tallies_[seat[s]->name];
        std::string ending = run->endings[s];
        if (seat[s]->kind.family == KindFamily::Prompt) {
            const int model = int_at(results.as_object(), "llmTurns", p), fallback = int_at(results.as_object(), "fallbackTurns", p);
            const auto causes = fallback_causes(*replay, s);
            tally.modelTurns += model;
            tally.fallbackTurns += fallback;
            for (const auto& c : causes) ++tally.causes[c];
            ending += "; " + prompt_turns_note(model, fallback, causes);
        } else {
            ++tally.endings[ending];
        }
        out.programs[s] = std::move(ending);
    }
    return out;
}

std::vector<std::string> ServerRunner::notes() const {
    std::lock_guard lock(mutex_);
    std::vector<std::string> lines;
    for (const Entrant& e : entrants_) {
        const auto it = tallies_.find(e.name);
        if (it == tallies_.end()) continue;
        const Tally& t = it->second;
        std::string line = e.name + ": ";
        if (e.kind.family == KindFamily::Prompt) {
            std::vector<std::string> causes;
            for (const auto& [cause, seats] : t.causes) causes.push_back(cause);
            line += "the model gave " + std::to_string(t.modelTurns) + " turns, burrow played " + std::to_string(t.fallbackTurns) +
                    " in fallback" + (causes.empty() ? "" : " (" + joined(causes) + ")");
        } else {
            std::vector<std::string> endings;
            for (const auto& [ending, seats] : t.endings) endings.push_back(std::to_string(seats) + " x " + ending);
            line += "programs ended " + joined(endings);
        }
        lines.push_back(std::move(line));
    }
    return lines;
}

}  // namespace hschool::tools::hns
