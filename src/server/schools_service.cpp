#include "server/schools_service.hpp"

#include "server/metrics.hpp"

namespace hschool::server {

namespace v4 = protocol::v4;

inline constexpr std::uint8_t kMaxSchools = 6;

SchoolsService::SchoolsService(std::uint8_t tick_rate, Metrics& metrics) : tick_rate_(tick_rate), metrics_(metrics) {}

SchoolsService::Watcher* SchoolsService::find(ConnectionId id) {
    const auto found = connections_.find(id);
    return found == connections_.end() ? nullptr : &found->second;
}

void SchoolsService::join(const cmd::SchoolsJoin& command) {
    command.connection.outbox->push_welcome(
        make_frame(v4::encode(v4::Welcome{v4::kVersion, tick_rate_, kMaxSchools})));
    connections_.emplace(command.connection.id, Watcher{command.connection, command.locale, 0});
}

void SchoolsService::open(const cmd::OpenSchool& command) {
    Watcher* watcher = find(command.connection);
    if (!watcher) return;
    // No school exists yet in this build: every id is unknown.
    watcher->open_school = 0;
    watcher->connection.outbox->push_reliable(make_frame(v4::encode(v4::SchoolGone{command.school_id})));
}

void SchoolsService::close(const cmd::CloseSchool& command) {
    if (Watcher* watcher = find(command.connection)) watcher->open_school = 0;
}

void SchoolsService::set_running(const cmd::SetRunning&) {}
void SchoolsService::set_speed(const cmd::SetSpeed&) {}

void SchoolsService::disconnect(ConnectionId connection) { connections_.erase(connection); }

void SchoolsService::step(std::int64_t) {}

void SchoolsService::broadcast() {}

}  // namespace hschool::server
