// Thread names and priorities: take_thread_role only ever lowers a thread's priority, and a
// ThreadLauncher's threads run at the launcher's priority, not at the caller's.
#include "net/thread_role.hpp"

#include <gtest/gtest.h>
#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <string>
#include <thread>

namespace hschool::net {
namespace {

int own_nice() { return getpriority(PRIO_PROCESS, static_cast<id_t>(gettid())); }

std::string own_name() {
    std::array<char, 16> name{};
    pthread_getname_np(pthread_self(), name.data(), name.size());
    return name.data();
}

TEST(ThreadRole, NamesTheThreadAndLowersItsPriority) {
    std::string name;
    int before = 0, after = 0;
    std::thread([&] {
        before = own_nice();
        take_thread_role("role-test-thread-long", before + 3);
        name = own_name();
        after = own_nice();
    }).join();
    EXPECT_EQ(name, "role-test-threa");  // Linux keeps 15 characters
    EXPECT_EQ(after, std::min(before + 3, 19));
}

TEST(ThreadRole, NeverRaisesAPriority) {
    int after = 0, lowered = 0;
    std::thread([&] {
        lowered = std::min(own_nice() + 4, 19);
        take_thread_role("niced", lowered);
        take_thread_role("niced", lowered - 4);  // asks for more than it has: it keeps what it has
        after = own_nice();
    }).join();
    EXPECT_EQ(after, lowered);
}

TEST(ThreadLauncher, ItsThreadsRunAtItsPriorityNotTheCallers) {
    const int base = own_nice();
    if (base >= 16) GTEST_SKIP() << "the test itself runs too niced to lower a thread below it";
    ThreadLauncher launcher;  // made here, at the test's priority
    int caller = 0, launched = 0, direct = 0;
    std::thread([&] {
        take_thread_role("background", base + 3);  // as the hub's worker: a nice background thread
        caller = own_nice();
        std::thread t = launcher.launch([&] { launched = own_nice(); });
        t.join();
        std::thread([&] { direct = own_nice(); }).join();  // what a thread started here would get
    }).join();
    EXPECT_EQ(caller, base + 3);
    EXPECT_EQ(direct, base + 3);
    EXPECT_EQ(launched, base);
}

TEST(ThreadLauncher, StartsEveryRequestFromManyThreads) {
    ThreadLauncher launcher;
    std::atomic<int> ran{0};
    std::vector<std::thread> callers;
    for (int i = 0; i < 8; ++i) {
        callers.emplace_back([&] {
            for (int j = 0; j < 10; ++j) launcher.launch([&] { ran.fetch_add(1); }).join();
        });
    }
    for (auto& c : callers) c.join();
    EXPECT_EQ(ran.load(), 80);
}

}  // namespace
}  // namespace hschool::net
