// Prompt seats' decision turns (issue 21), figures only: one certification match with six prompt
// seats against our fake model sidecar (tests/integration/hns/fake_model.hpp) that answers every
// request after --delay-ms, and the same match with no model at all. Prints each turn's wall time
// (first request in to last answer out, as the sidecar saw it), the most requests it held at once,
// and the server's wall and CPU time for the whole match.
//   hschool-llm-turn [--delay-ms 1000]
#include <sys/types.h>
#include <unistd.h>

#include <boost/json.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include "fake_model.hpp"
#include "protocol/sprite_v1.hpp"
#include "server_process.hpp"
#include "ws_client.hpp"

namespace {

using namespace hschool;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
namespace sv = protocol::sprite_v1;

// utime + stime of a process, in seconds.
double cpu_seconds(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto close = stat.rfind(')');
    if (close == std::string::npos) return 0;
    std::istringstream fields(stat.substr(close + 2));
    std::string f;
    unsigned long utime = 0, stime = 0;
    for (int i = 3; i <= 15 && fields >> f; ++i) {
        if (i == 14) utime = std::stoul(f);
        if (i == 15) stime = std::stoul(f);
    }
    return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

struct Run {
    double wall_s = 0, cpu_s = 0;
    double waiting_s = 0, waiting_cpu_s = 0;  // 100 ms samples with requests held by the model at both ends
    bool finished = false;
};

// One certification match with six prompt seats; returns when it is over.
Run play(test::hns::FakeModel* model) {
    test::TempDir dir;
    std::filesystem::create_directories(dir.path() / "web");
    test::ServerProcess::Launch launch;
    if (model) launch.env.emplace_back("COWORLD_LLM_ENDPOINT", model->url());
    test::ServerProcess server({"--data", (dir.path() / "hschool.db").string(), "--mods", (test::ServerProcess::source_dir() / "mods").string(),
                                "--web-root", (dir.path() / "web").string(), "--log-level", "info"},
                               launch);
    Run run;
    if (!server.started()) return run;
    const auto created = test::http_request(server.port(), "POST", "/api/hns/matches",
                                            R"({"variant":"certification","config":{"turnSpacingMs":0}})",
                                            {{"Content-Type", "application/json"}});
    boost::json::error_code ec;
    const auto body = boost::json::parse(created.body, ec);
    if (ec || !body.is_object()) return run;
    const std::string id(body.as_object().at("id").as_string());
    const double cpu0 = cpu_seconds(server.pid());
    const auto t0 = Clock::now();
    std::vector<std::thread> seats;
    for (int s = 0; s < 6; ++s) {
        seats.emplace_back([&, s] {
            test::WsClient::Options options;
            options.path = "/player?match=" + id + "&slot=" + std::to_string(s) + "&name=b" + std::to_string(s);
            auto ws = test::WsClient::connect(server.port(), options);
            if (!ws) return;
            ws->send(sv::encode(sv::ClientMessage{sv::InputText{R"({"type":"register","prompt":"play well"})"}}));
            for (;;) {  // 0x85 after every frame, as the reference seat does, until the match closes
                auto event = ws->read(60s);
                auto* frame = std::get_if<test::Frame>(&event);
                if (!frame) return;
                if (frame->binary) ws->send(protocol::Bytes{sv::id::kPlayerReady});
            }
        });
    }
    std::atomic<bool> over{false};
    std::thread sampler([&] {
        if (!model) return;
        bool was = false;
        double cpu = cpu_seconds(server.pid());
        while (!over) {
            std::this_thread::sleep_for(100ms);
            const bool now = model->in_flight() > 0;
            const double c = cpu_seconds(server.pid());
            if (was && now) {
                run.waiting_s += 0.1;
                run.waiting_cpu_s += c - cpu;
            }
            was = now;
            cpu = c;
        }
    });
    for (auto& t : seats) t.join();
    over = true;
    sampler.join();
    run.wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
    run.cpu_s = cpu_seconds(server.pid()) - cpu0;
    run.finished = true;
    return run;
}

}  // namespace

int main(int argc, char** argv) {
    int delay_ms = 1000;
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], "--delay-ms") == 0) delay_ms = std::atoi(argv[i + 1]);
    std::mutex mutex;
    std::map<std::pair<int, int>, std::pair<Clock::time_point, Clock::time_point>> turns;  // (game, turn) → first in, last out
    test::hns::FakeModel model([&](const test::hns::ModelRequest& r) {
        const auto in = Clock::now();
        const int game = r.view.contains("game") ? static_cast<int>(r.view.at("game").as_int64()) : 0;
        const int turn = r.view.contains("turn") ? static_cast<int>(r.view.at("turn").as_int64()) : 0;
        {
            std::lock_guard lock(mutex);
            auto [it, fresh] = turns.try_emplace({game, turn}, in, in + std::chrono::milliseconds(delay_ms));
            if (!fresh) it->second.second = std::max(it->second.second, in + std::chrono::milliseconds(delay_ms));
        }
        return test::hns::ModelReply{200, test::hns::messages_answer(R"({"intent":"hide"})"), std::chrono::milliseconds(delay_ms), 0};
    });
    const Run with = play(&model);
    const Run without = play(nullptr);
    if (!with.finished || !without.finished) {
        std::fprintf(stderr, "a match did not run\n");
        return 1;
    }
    double sum = 0, worst = 0;
    for (const auto& [key, span] : turns) {
        const double s = std::chrono::duration<double>(span.second - span.first).count();
        sum += s;
        worst = std::max(worst, s);
        std::printf("turn game %d #%d: %.3f s\n", key.first, key.second, s);
    }
    std::printf("six prompt seats, model answers after %d ms: %zu turns, mean %.3f s, worst %.3f s per turn; %zu requests, at most %d at once\n",
                delay_ms, turns.size(), turns.empty() ? 0.0 : sum / static_cast<double>(turns.size()), worst,
                model.requests().size(), model.max_in_flight());
    std::printf("match with the model: wall %.2f s, server CPU %.3f s; with no model: wall %.2f s, CPU %.3f s\n", with.wall_s,
                with.cpu_s, without.wall_s, without.cpu_s);
    std::printf("match turn cost: %.3f s per turn ((wall with - wall without) / turns)\n",
                turns.empty() ? 0.0 : (with.wall_s - without.wall_s) / static_cast<double>(turns.size()));
    std::printf("server CPU while the model holds requests: %.1f ms per second (%.1f s sampled)\n",
                with.waiting_s > 0 ? 1000.0 * with.waiting_cpu_s / with.waiting_s : 0.0, with.waiting_s);
    return 0;
}
