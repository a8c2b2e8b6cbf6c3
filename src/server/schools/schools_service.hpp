#pragma once
// The schools on the loop thread: their calendars, the v4 connections, and which school each watches.
#include <chrono>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

#include "protocol/v4.hpp"
#include "server/schools/commands.hpp"
#include "net/fanout.hpp"
#include "net/transport_metrics.hpp"
#include "server/schools/school_state.hpp"
#include "server/schools/schools_metrics.hpp"
#include "store/shared_schools.hpp"

namespace hschool::store {
class SchoolStore;
}

namespace hschool::server {

// What a shared database said (issue 34), read at `read_at` by the follower thread.
struct SharedSchoolsView {
    std::chrono::steady_clock::time_point read_at;
    std::vector<store::SharedClockRow> clocks;
    std::vector<SchoolState> arrived;  // schools of `clocks` the follower had not seen, loaded with their packs
};

class SchoolsService {
public:
    // store may be null (tests without persistence).
    SchoolsService(std::uint8_t tick_rate, SchoolsMetrics& metrics, store::SchoolStore* store);

    // The schools, for the REST API (loop thread only).
    const std::map<std::int32_t, SchoolState>& schools() const { return schools_; }
    // A school already here is kept as it is (the follower and a create may both bring it).
    void add(SchoolState school);
    // Watchers of a deleted school get SchoolGone; false when there was no such school.
    bool remove(std::int32_t id);

    void join(const cmd::SchoolsJoin& command);
    void open(const cmd::OpenSchool& command);
    void close(const cmd::CloseSchool& command);
    void set_running(const cmd::SetRunning& command);
    void set_speed(const cmd::SetSpeed& command);
    void disconnect(net::ConnectionId connection);
    void step(std::int64_t real_elapsed_us);
    // One Clock frame per watched school, encoded once, to that school's watchers only.
    void broadcast();
    // Where clocks go out; until set, pushed on the loop thread.
    void set_fanout(net::FanOut& fanout) { fanout_ = &fanout; }
    // Every clock to the store now (shutdown).
    void persist_all();
    // Several servers on one database: schools created or deleted elsewhere come and go, every
    // control (pause, speed) made anywhere is adopted, and a clock this server does not hold
    // follows the database. A view read before a local change never undoes it.
    void follow(SharedSchoolsView view);

    std::size_t watchers() const { return connections_.size(); }
    // Clock updates handed to the store so far (controls that change nothing hand over none).
    std::uint64_t clock_updates_queued() const { return clock_updates_queued_; }

private:
    struct Watcher {
        net::ConnectionRef connection;
        protocol::v4::Locale locale = protocol::v4::Locale::Russian;
        std::int32_t open_school = 0;  // 0: none open (ids start at 1)
        SchoolRights rights;           // which schools it may pause or speed up
    };
    // The open school, when this connection may change its clock (owners mode: its owner or the operator).
    SchoolState* controllable_school_of(net::ConnectionId id);
    Watcher* find(net::ConnectionId id);
    void stop_watching(Watcher& watcher);
    SchoolState* open_school_of(net::ConnectionId id);
    net::Frame map_snapshot(SchoolState& school, protocol::v4::Locale locale);
    void persist(const SchoolState& school, bool control = false);

    std::uint8_t tick_rate_;
    SchoolsMetrics& metrics_;
    store::SchoolStore* store_;
    std::uint64_t clock_updates_queued_ = 0;
    std::map<std::int32_t, SchoolState> schools_;
    std::map<std::int32_t, std::chrono::steady_clock::time_point> removed_at_;  // so a stale view does not bring one back
    std::unordered_map<net::ConnectionId, Watcher> connections_;
    std::unordered_map<std::int32_t, net::BroadcastGroup> audiences_;  // school → its watchers
    net::NoTransportMetrics no_transport_metrics_;  // the direct fan-out has no network threads to count for
    net::DirectFanOut direct_fanout_{no_transport_metrics_};
    net::FanOut* fanout_ = &direct_fanout_;
};

}  // namespace hschool::server
