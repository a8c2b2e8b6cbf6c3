#include "server/schools/school_follower.hpp"

#include "net/thread_role.hpp"
#include "server/schools/schools_service.hpp"
#include "server/schools/store_health.hpp"
#include "store/shared_schools.hpp"

namespace hschool::server {

SchoolFollower::SchoolFollower(store::SharedSchools& shared, const content::ContentLibrary& library, OnSchoolsThread on_loop,
                               StoreHealth& health, std::set<std::int32_t> known)
    : shared_(shared), library_(library), on_loop_(std::move(on_loop)), health_(health), known_(std::move(known)) {}

SchoolFollower::~SchoolFollower() { stop(); }

void SchoolFollower::start() {
    follow_once();  // the leases are taken before the first step, so a lone server advances its clocks at once
    thread_ = std::thread([this] {
        net::take_thread_role("school-follow", 0);
        run();
    });
}

void SchoolFollower::stop() {
    if (stopping_.exchange(true)) return;
    if (thread_.joinable()) thread_.join();
    shared_.release_leases();
}

void SchoolFollower::run() {
    while (!stopping_.load()) {
        shared_.wait_for_announcement(std::chrono::duration_cast<std::chrono::milliseconds>(store::kFollowInterval));
        if (stopping_.load()) break;
        follow_once();
    }
}

void SchoolFollower::follow_once() {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_renew_ >= store::kLeaseRenewInterval) {
        auto renewed = shared_.renew_leases();
        health_.record("clock lease", renewed ? std::nullopt : std::optional<store::StoreError>(renewed.error()));
        if (renewed) last_renew_ = now;
    }
    SharedSchoolsView view;
    view.read_at = std::chrono::steady_clock::now();
    auto clocks = shared_.read_clocks();
    if (!clocks) {
        health_.record("school follow", std::optional<store::StoreError>(clocks.error()));
        return;  // the loop keeps what it has; the next pass tries again
    }
    std::set<std::int32_t> present;
    for (const auto& row : *clocks) {
        present.insert(row.id);
        if (known_.count(row.id)) continue;
        auto record = shared_.load_one(row.id);
        if (!record) continue;  // tried again next pass
        if (*record) view.arrived.push_back(school_from_record(**record, library_));
        known_.insert(row.id);
    }
    std::erase_if(known_, [&](std::int32_t id) { return !present.count(id); });
    view.clocks = std::move(*clocks);
    on_loop_([view = std::move(view)](SchoolsService& service) mutable { service.follow(std::move(view)); });
}

}  // namespace hschool::server
