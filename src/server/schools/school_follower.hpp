#pragma once
// Several servers on one database (issue 34): a thread that keeps this server's schools in step
// with the others'. It renews the clock leases, wakes on another server's NOTIFY or every
// kFollowInterval, reads every school's clock and hands the loop what it read (with the schools
// that appeared elsewhere, loaded with their packs). Nothing here is a protocol between servers:
// the database's rows, leases and notifications are all there is.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <set>
#include <thread>

#include "server/schools/schools_routes.hpp"

namespace hschool::store {
class SharedSchools;
}

namespace hschool::server {

class StoreHealth;

class SchoolFollower {
public:
    // known: the schools the server loaded at start-up (not loaded again).
    SchoolFollower(store::SharedSchools& shared, const content::ContentLibrary& library, OnSchoolsThread on_loop,
                   StoreHealth& health, std::set<std::int32_t> known);
    ~SchoolFollower();
    SchoolFollower(const SchoolFollower&) = delete;
    SchoolFollower& operator=(const SchoolFollower&) = delete;

    // Takes the leases once before the loop starts stepping, then follows on its own thread.
    void start();
    // Joins the thread and lets the other servers take this one's schools at once.
    void stop();

private:
    void run();
    void follow_once();

    store::SharedSchools& shared_;
    const content::ContentLibrary& library_;
    OnSchoolsThread on_loop_;
    StoreHealth& health_;
    std::set<std::int32_t> known_;  // ids the follower has handed over (follower thread only)
    std::chrono::steady_clock::time_point last_renew_{};
    std::atomic<bool> stopping_{false};
    std::thread thread_;
};

}  // namespace hschool::server
