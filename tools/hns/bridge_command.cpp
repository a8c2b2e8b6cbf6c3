#include "bridge_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <boost/json.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "bridge_frames.hpp"
#include "sim/hns/bridge_session.hpp"
#include "sim/hns/room.hpp"
#include "sim/hns/room_files.hpp"
#include "work_pool.hpp"

namespace hschool::tools::hns {
namespace {

namespace json = boost::json;
constexpr std::size_t kReadChunkBytes = 64 * 1024;
// Of a seed string in a replay's file name; the rest of it is in the replay's records.
constexpr std::size_t kMaxSeedInFileName = 48;

// The rooms a seed picks, each read from disk once and shared by every environment.
class CachedRooms {
public:
    sh::Expected<sh::GameConfig> resolve(sh::GameConfig config) {
        const std::string name = sh::room_for_seed(config.roomPool, config.seed);
        std::lock_guard lock(mutex_);
        auto found = specs_.find(name);
        if (found == specs_.end()) {
            auto pinned = sh::resolve_room_spec(config);
            if (!pinned) return pinned;
            found = specs_.emplace(name, pinned->mapSpec).first;
        }
        config.mapSpec = found->second;
        return sh::Expected<sh::GameConfig>::ok(std::move(config));
    }

private:
    std::mutex mutex_;
    std::map<std::string, std::string> specs_;
};

// Lines from stdin; a line over `limit` bytes is read to its end and reported as oversized.
class LineReader {
public:
    explicit LineReader(std::size_t limit) : limit_(limit) {}
    // False at the end of input. `oversized` marks a line that was cut.
    bool next(std::string& line, bool& oversized) {
        line.clear();
        oversized = false;
        for (;;) {
            if (at_ == buffer_.size()) {
                buffer_.resize(kReadChunkBytes);
                // read(2), not fread: a trainer waits for each answer, so take what the pipe holds now.
                ssize_t got = 0;
                do got = ::read(STDIN_FILENO, buffer_.data(), buffer_.size());
                while (got < 0 && errno == EINTR);
                buffer_.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
                at_ = 0;
                if (got <= 0) return !line.empty() || oversized;
            }
            const auto newline = buffer_.find('\n', at_);
            const std::size_t end = newline == std::string::npos ? buffer_.size() : newline;
            if (!oversized) {
                line.append(buffer_, at_, end - at_);
                if (line.size() > limit_) {
                    oversized = true;
                    line.clear();
                }
            }
            at_ = end;
            if (newline != std::string::npos) {
                ++at_;
                if (!line.empty() && line.back() == '\r') line.pop_back();
                return true;
            }
        }
    }

private:
    std::size_t limit_;
    std::string buffer_;
    std::size_t at_ = 0;
};

bool read_exact(std::string& out, std::size_t n) {
    out.resize(n);
    return n == 0 || std::fread(out.data(), 1, n, stdin) == n;
}

void write_out(const std::string& bytes) {
    std::fwrite(bytes.data(), 1, bytes.size(), stdout);
    std::fflush(stdout);
}

std::string file_safe(std::string_view seed) {
    std::string out;
    for (const char c : seed.substr(0, kMaxSeedInFileName)) {
        const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
        out.push_back(safe ? c : '_');
    }
    return out.empty() ? "empty" : out;
}

std::string error_line(std::string_view reason) {
    return json::serialize(json::object{{"kind", "error"}, {"reason", reason}});
}

// One environment: its session and how many episodes it has started.
struct Env {
    std::unique_ptr<sh::BridgeSession> session;
    std::uint32_t episodes = 0;
};

class Bridge {
public:
    explicit Bridge(const BridgeOptions& o) : options_(o), pool_(threads_for(o)) {
        for (int e = 0; e < o.envs; ++e) {
            auto on_end = [this, e](const std::string& seed, const std::string& replay) { write_replay(e, seed, replay); };
            envs_.push_back(Env{std::make_unique<sh::BridgeSession>(
                                    [this](sh::GameConfig c) { return rooms_.resolve(std::move(c)); }, !o.replays.empty(),
                                    o.replays.empty() ? sh::BridgeSession::EpisodeEnd{} : sh::BridgeSession::EpisodeEnd(on_end)),
                                0});
        }
    }

    int run_json() {
        LineReader reader(options_.envs == 1 ? sh::kMaxBridgeLineBytes : kMaxBridgeBatchLineBytes);
        std::string line;
        bool oversized = false;
        while (reader.next(line, oversized)) {
            std::string answer;
            if (oversized) answer = error_line("line is over " + std::to_string(options_.envs == 1 ? sh::kMaxBridgeLineBytes : kMaxBridgeBatchLineBytes) + " bytes");
            else if (options_.envs == 1) answer = handle(0, line);
            else answer = handle_many(line);
            answer.push_back('\n');
            write_out(answer);
        }
        return 0;
    }

    int run_binary() {
        std::string header, payload;
        while (read_exact(header, kFrameLengthBytes)) {
            const std::uint32_t length = static_cast<std::uint8_t>(header[0]) | static_cast<std::uint8_t>(header[1]) << 8 |
                                         static_cast<std::uint8_t>(header[2]) << 16 | static_cast<std::uint32_t>(static_cast<std::uint8_t>(header[3])) << 24;
            if (length > kMaxBridgeFrameBytes) {
                // Nothing after an impossible length can be trusted to start a frame: answer and stop.
                write_out(error_frame("a frame of " + std::to_string(length) + " bytes is over " + std::to_string(kMaxBridgeFrameBytes)));
                return 2;
            }
            if (!read_exact(payload, length)) {
                write_out(error_frame("the input ended inside a frame"));
                return 2;
            }
            auto request = parse_frame_request(payload, options_.envs);
            if (!request) {
                write_out(error_frame(request.error));
                continue;
            }
            std::vector<EnvRecord> records(envs_.size());
            pool_.run(envs_.size(), [&](std::size_t e) { records[e] = apply(*request, e); });
            write_out(ok_frame(records));
        }
        return 0;
    }

private:
    static int threads_for(const BridgeOptions& o) {
        if (o.threads > 0) return o.threads;
        return std::max(1, std::min<int>(o.envs, static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))));
    }

    std::string handle(std::size_t e, std::string_view line) { return envs_[e].session->handle_line(line); }

    // With many environments: a batch, or one request addressed with "env".
    std::string handle_many(std::string_view line) {
        boost::system::error_code ec;
        const json::value parsed = json::parse(line, ec);
        if (ec || !parsed.is_object()) return envs_[0].session->handle_line(line);  // the same error text as one env's
        const json::object& o = parsed.get_object();
        if (const json::value* env = o.if_contains("env")) {
            if (!env->is_int64() || env->get_int64() < 0 || env->get_int64() >= static_cast<std::int64_t>(envs_.size()))
                return error_line("env must be an environment's index, 0 to " + std::to_string(envs_.size() - 1));
            return handle(static_cast<std::size_t>(env->get_int64()), line);
        }
        const json::value* kind = o.if_contains("kind");
        const json::value* requests = o.if_contains("requests");
        if (kind == nullptr || !kind->is_string() || kind->get_string() != "batch")
            return error_line("with several environments, send {\"kind\":\"batch\",\"requests\":[…]} or a request with \"env\"");
        if (requests == nullptr || !requests->is_array() || requests->get_array().size() != envs_.size())
            return error_line("a batch holds one request (or null) per environment: " + std::to_string(envs_.size()));
        const json::array& list = requests->get_array();
        std::vector<std::string> answers(envs_.size());
        pool_.run(envs_.size(), [&](std::size_t e) {
            if (list[e].is_null()) return;
            answers[e] = handle(e, json::serialize(list[e]));
        });
        std::string out = "{\"kind\":\"batch\",\"responses\":[";
        for (std::size_t e = 0; e < answers.size(); ++e) {
            if (e > 0) out.push_back(',');
            out += answers[e].empty() ? "null" : answers[e];
        }
        out += "]}";
        return out;
    }

    EnvRecord apply(const FrameRequest& request, std::size_t e) {
        Env& env = envs_[e];
        sh::BridgeSession& s = *env.session;
        EnvRecord record;
        switch (request.op) {
            case FrameOp::Reset:
                if (request.seeds[e]) {
                    ++env.episodes;
                    if (s.reset(*request.seeds[e])) {
                        record.state = EnvState::Failed;
                        record.episode = env.episodes;
                        return record;
                    }
                }
                break;
            case FrameOp::Step:
                if (request.actions[e] != kLeaveEnvAction && s.step_index(request.actions[e]) == sh::BridgeSession::StepResult::OutsideCatalog) {
                    fill(env, record);
                    if (record.state == EnvState::Decision) record.state = EnvState::Rejected;
                    return record;
                }
                break;
            case FrameOp::Teacher:
                record.teacher = static_cast<std::int16_t>(s.teacher_index());
                break;
            case FrameOp::Observe: break;
        }
        fill(env, record);
        return record;
    }

    static void fill(Env& env, EnvRecord& record) {
        sh::BridgeSession& s = *env.session;
        record.episode = env.episodes;
        record.decision = static_cast<std::uint32_t>(s.decision_id());
        if (s.finished()) {
            record.state = EnvState::Terminal;
            for (int i = 0; i < sh::kSeats; ++i) record.scores[static_cast<std::size_t>(i)] = static_cast<float>(s.scores()[static_cast<std::size_t>(i)]);
            return;
        }
        sh::NumericValues values{};
        if (!s.has_decision() || !s.observe(values, record.mask)) {
            record.state = EnvState::NoEpisode;
            return;
        }
        record.state = EnvState::Decision;
        record.seat = static_cast<std::uint8_t>(s.seat());
        for (std::size_t i = 0; i < values.size(); ++i) record.values[i] = static_cast<float>(values[i]);
    }

    void write_replay(int env, const std::string& seed, const std::string& replay) {
        const std::string name = "env" + std::to_string(env) + "-episode" + std::to_string(++replays_written_[static_cast<std::size_t>(env)]) + "-seed-" + file_safe(seed) + ".cowldhns";
        const std::string path = (std::filesystem::path(options_.replays) / name).string();
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(replay.data(), static_cast<std::streamsize>(replay.size()));
        if (!out) std::fprintf(stderr, "hschool-hns bridge: cannot write %s\n", path.c_str());
    }

    const BridgeOptions options_;
    CachedRooms rooms_;
    WorkPool pool_;
    std::vector<Env> envs_;
    std::vector<std::uint32_t> replays_written_ = std::vector<std::uint32_t>(static_cast<std::size_t>(options_.envs), 0);
};

}  // namespace

int run_bridge(const BridgeOptions& options) {
    if (options.envs < 1 || options.envs > kMaxBridgeEnvs) {
        std::fprintf(stderr, "hschool-hns bridge: --envs must be 1 to %d\n", kMaxBridgeEnvs);
        return 2;
    }
    if (options.framing != "json" && options.framing != "binary") {
        std::fprintf(stderr, "hschool-hns bridge: --framing must be json or binary\n");
        return 2;
    }
    if (!options.replays.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(options.replays, ec);
        if (ec) {
            std::fprintf(stderr, "hschool-hns bridge: --replays %s: %s\n", options.replays.c_str(), ec.message().c_str());
            return 2;
        }
    }
    Bridge bridge(options);
    return options.framing == "binary" ? bridge.run_binary() : bridge.run_json();
}

}  // namespace hschool::tools::hns
