// The hide-and-seek archive's write of 100 simultaneous finishes (issue 34), on both backends: 100
// matches of ~300 KiB replays saved at once from kThreads threads (the matches' own threads in the
// server each save their one), into SQLite + files in a temporary folder and into PostgreSQL at
// $HSCHOOL_TEST_DATABASE_URL (scripts/with-postgres.sh starts a throwaway cluster). Prints the wall
// time of all and the time per save; --json prints one JSON line. Figures only.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "store/hns_archive.hpp"

namespace {

using namespace hschool::store;
using Clock = std::chrono::steady_clock;

constexpr int kMatches = 100;
constexpr int kThreads = 16;
constexpr std::size_t kReplayBytes = 300 * 1024;

struct Figures {
    double wall_ms = 0, p50 = 0, p99 = 0;
    int failed = 0;
};

ArchivedMatch match_of(int i) {
    ArchivedMatch match;
    match.id = "b" + std::to_string(i);
    match.variant = "default";
    match.finished_at_ms = 1764590000000 + i;
    match.final_tick = 2760;
    match.end_reason = "complete";
    match.results_json = R"({"scores":[3,-3,3,-3,3,-3]})";
    match.summary_json = R"({"seats":[]})";
    return match;
}

template <class Archive>
Figures save_all(Archive& archive) {
    std::string replay(kReplayBytes, '\0');
    for (std::size_t i = 0; i < replay.size(); ++i) replay[i] = static_cast<char>((i * 2654435761u) >> 13);
    std::vector<double> per_save(kMatches);
    std::vector<int> failed(kThreads, 0);
    const auto started = Clock::now();
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            for (int i = t; i < kMatches; i += kThreads) {
                const auto begun = Clock::now();
                if (!archive.save(match_of(i), replay)) ++failed[static_cast<std::size_t>(t)];
                per_save[static_cast<std::size_t>(i)] = std::chrono::duration<double, std::milli>(Clock::now() - begun).count();
            }
        });
    }
    for (auto& thread : threads) thread.join();
    Figures f;
    f.wall_ms = std::chrono::duration<double, std::milli>(Clock::now() - started).count();
    std::sort(per_save.begin(), per_save.end());
    f.p50 = per_save[per_save.size() / 2];
    f.p99 = per_save[per_save.size() * 99 / 100];
    for (int n : failed) f.failed += n;
    return f;
}

void print(const char* name, const Figures& f, bool json, bool last) {
    if (json) {
        std::printf("\"%s\":{\"matches\":%d,\"threads\":%d,\"replay_bytes\":%zu,\"wall_ms\":%.1f,\"per_save_ms_p50\":%.2f,"
                    "\"per_save_ms_p99\":%.2f,\"failed\":%d}%s",
                    name, kMatches, kThreads, kReplayBytes, f.wall_ms, f.p50, f.p99, f.failed, last ? "" : ",");
    } else {
        std::printf("%-8s %d saves of %zu KiB from %d threads: %.0f ms in all, %.1f ms p50, %.1f ms p99 a save, %d failed\n", name,
                    kMatches, kReplayBytes / 1024, kThreads, f.wall_ms, f.p50, f.p99, f.failed);
    }
}

}  // namespace

int main(int argc, char** argv) {
    const bool json = argc > 1 && std::string(argv[1]) == "--json";
    const auto folder = std::filesystem::temp_directory_path() / ("hschool-archive-bench-" + std::to_string(::getpid()));
    std::filesystem::create_directories(folder);
    auto sqlite = HnsArchive::open(folder / "archive.db", folder / "replays");
    if (!sqlite) {
        std::fprintf(stderr, "sqlite: %s\n", sqlite.error().message.c_str());
        return 1;
    }
    const auto on_sqlite = save_all(**sqlite);
    std::filesystem::remove_all(folder);
    const char* url = std::getenv("HSCHOOL_TEST_DATABASE_URL");
    if (json) std::printf("{");
    print("sqlite", on_sqlite, json, url == nullptr);
    if (url) {
        auto pg = HnsArchive::open_postgres(url);
        if (!pg) {
            std::fprintf(stderr, "postgres: %s\n", pg.error().message.c_str());
            return 1;
        }
        print("postgres", save_all(**pg), json, true);
    }
    if (json) std::printf("}\n");
    return 0;
}
