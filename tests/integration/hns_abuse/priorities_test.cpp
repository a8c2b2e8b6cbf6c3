// Who comes first when the machine is full (issue 19, "honest seats ≤ 50 ms beside 64 replay
// viewers"), read from the real server's /proc: a match made over REST (on the hub's nice-10
// worker) runs at the server's own priority, not the worker's; replay viewers are drawn by a few
// low-priority pool threads, however many viewers there are. Before, a REST match ran at nice 10
// beside one nice-10 thread per viewer, and a preempted viewer thread holding malloc's arena lock
// stalled the matches behind it (seats' frame p99 135 ms under the hns-all bench, 44 ms after).
#include <gtest/gtest.h>

#include <dirent.h>

#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "hns_abuse_support.hpp"

namespace hschool::test::hns_abuse {
namespace {

struct TaskInfo {
    std::string name;
    int nice = 0;
};

// Every thread of `pid`: its name and nice value (/proc/PID/task/TID/stat field 19).
std::map<int, TaskInfo> tasks_of(int pid) {
    std::map<int, TaskInfo> tasks;
    const std::string dir = "/proc/" + std::to_string(pid) + "/task";
    DIR* d = opendir(dir.c_str());
    if (!d) return tasks;
    while (const dirent* e = readdir(d)) {
        if (e->d_name[0] == '.') continue;
        const std::string base = dir + "/" + e->d_name;
        TaskInfo info;
        std::ifstream(base + "/comm") >> info.name;
        std::ifstream stat_file(base + "/stat");
        std::string stat((std::istreambuf_iterator<char>(stat_file)), std::istreambuf_iterator<char>());
        const auto paren = stat.rfind(')');
        if (paren == std::string::npos) continue;
        std::istringstream rest(stat.substr(paren + 2));
        std::string field;
        for (int i = 3; i <= 19 && rest >> field; ++i) {
            if (i == 19) info.nice = std::stoi(field);
        }
        tasks[std::stoi(e->d_name)] = info;
    }
    closedir(d);
    return tasks;
}

int count_prefixed(const std::map<int, TaskInfo>& tasks, const std::string& prefix) {
    int n = 0;
    for (const auto& [tid, t] : tasks) n += t.name.rfind(prefix, 0) == 0;
    return n;
}

// The threads a REST match runs on (named `match_thread`, `expected` of them) are at the
// server's own priority, not the nice-10 worker's that built the match's room.
void expect_match_threads_at_server_priority(const std::vector<std::string>& extra_args, const std::string& match_thread_prefix,
                                             int expected) {
    TempDir dir;
    ServerProcess server(server_args(dir, extra_args));
    ASSERT_TRUE(server.started()) << server.output();
    const std::string id = create_bot_match(server.port(), "certification", R"({"huntTurns":40,"maxGames":1})");
    ASSERT_FALSE(id.empty());
    const std::string name = match_thread_prefix.empty() ? "hns-" + id : match_thread_prefix;
    auto named = [&](const std::map<int, TaskInfo>& tasks) {
        int n = 0;
        for (const auto& [tid, t] : tasks) n += t.name.starts_with(name);
        return n;
    };
    // Threads name themselves as they start: wait (bounded) until they have.
    std::map<int, TaskInfo> tasks = tasks_of(server.pid());
    for (const auto until = Clock::now() + kWait; named(tasks) < expected && Clock::now() < until;) {
        std::this_thread::sleep_for(10ms);
        tasks = tasks_of(server.pid());
    }
    ASSERT_TRUE(tasks.contains(server.pid()));
    const int base = tasks.at(server.pid()).nice;
    EXPECT_EQ(named(tasks), expected) << "threads named " << name;
    const TaskInfo* worker = nullptr;
    for (const auto& [tid, t] : tasks) {
        if (t.name.starts_with(name)) {
            EXPECT_EQ(t.nice, base) << t.name << " inherited the worker's priority";
        }
        if (t.name == "hns-worker") worker = &t;
        if (!match_thread_prefix.empty()) {
            EXPECT_NE(t.name, "hns-" + id) << "the match has a thread of its own beside the pool";
        }
    }
    ASSERT_NE(worker, nullptr) << "no thread named hns-worker";
    EXPECT_GT(worker->nice, base) << "the worker builds rooms in the background";
}

// By default the live matches share a pool of one thread per core (issue 42 point 3).
TEST(HnsPriorities, AMatchMadeOverRestRunsOnThePoolAtTheServersPriorityNotTheWorkers) {
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    expect_match_threads_at_server_priority({}, "hns-pool-", cores);
}

// --hns-match-threads 0 (as with a model to ask): a thread per match, at the server's priority too.
TEST(HnsPriorities, AMatchOnAThreadOfItsOwnRunsAtTheServersPriorityNotTheWorkers) {
    expect_match_threads_at_server_priority({"--hns-match-threads", "0"}, "", 1);
}

TEST(HnsPriorities, ReplayViewersShareAFewLowPriorityThreads) {
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const int viewers = cores + 6;  // more viewers than the pool has threads
    TempDir dir;
    ServerProcess server(server_args(dir));
    ASSERT_TRUE(server.started()) << server.output();
    const std::string id = played_out_bot_match(server.port());
    ASSERT_FALSE(id.empty());
    const int base = tasks_of(server.pid()).at(server.pid()).nice;
    std::vector<std::unique_ptr<RawWs>> sockets;
    for (int i = 0; i < viewers; ++i) {
        sockets.push_back(sprite_socket(server.port(), "/replay?match=" + id, 2 + i));
        ASSERT_TRUE(sockets.back()) << "viewer " << i;
    }
    // Every viewer is drawn: each gets frames (the replay's first frames, then paused ones).
    for (int i = 0; i < viewers; ++i) {
        auto& v = *sockets[static_cast<std::size_t>(i)];
        int frames = 0;
        const auto until = Clock::now() + kWait;
        while (frames < 3 && Clock::now() < until) {
            auto event = v.read(100ms);
            if (std::holds_alternative<WsEnded>(event)) FAIL() << "viewer " << i << " closed: " << describe(event);
            if (auto* m = std::get_if<WsMessage>(&event); m && m->op == opcode::kBinary) ++frames;
        }
        EXPECT_GE(frames, 3) << "viewer " << i;
    }
    const auto tasks = tasks_of(server.pid());  // the pool's threads have drawn frames: they are named
    EXPECT_EQ(count_prefixed(tasks, "hns-replay-"), cores) << "one pool thread per core, not one per viewer";
    for (const auto& [tid, t] : tasks)
        if (t.name.rfind("hns-replay-", 0) == 0) {
            EXPECT_GT(t.nice, base) << "replay threads yield to the matches";
        }
}

}  // namespace
}  // namespace hschool::test::hns_abuse
