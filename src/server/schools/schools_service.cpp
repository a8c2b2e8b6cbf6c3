#include "server/schools/limits.hpp"
#include "server/schools/schools_service.hpp"
#include "server/schools/schools_session.hpp"

#include "content/lang.hpp"
#include "store/school_store.hpp"

namespace hschool::server {

namespace v4 = protocol::v4;

SchoolsService::SchoolsService(std::uint8_t tick_rate, SchoolsMetrics& metrics, store::SchoolStore* store)
    : tick_rate_(tick_rate), metrics_(metrics), store_(store) {}

SchoolsService::Watcher* SchoolsService::find(net::ConnectionId id) {
    const auto found = connections_.find(id);
    return found == connections_.end() ? nullptr : &found->second;
}

SchoolState* SchoolsService::open_school_of(net::ConnectionId id) {
    Watcher* watcher = find(id);
    if (!watcher || watcher->open_school == 0) return nullptr;
    const auto found = schools_.find(watcher->open_school);
    return found == schools_.end() ? nullptr : &found->second;
}

void SchoolsService::add(SchoolState school) {
    const auto id = school.id;
    school.added_at = std::chrono::steady_clock::now();
    schools_.try_emplace(id, std::move(school));
}

bool SchoolsService::remove(std::int32_t id) {
    if (schools_.erase(id) == 0) return false;
    if (store_ && store_->shared()) removed_at_[id] = std::chrono::steady_clock::now();
    audiences_.erase(id);
    const net::Frame gone = net::make_frame(v4::encode(v4::SchoolGone{id}));
    for (auto& [connection, watcher] : connections_) {
        if (watcher.open_school != id) continue;
        watcher.open_school = 0;
        watcher.connection.outbox->push_reliable(gone);
    }
    return true;
}

void SchoolsService::join(const cmd::SchoolsJoin& command) {
    command.connection.outbox->push_welcome(
        net::make_frame(v4::encode(v4::Welcome{v4::kVersion, tick_rate_, static_cast<std::uint8_t>(kMaxSchools)})));
    connections_.emplace(command.connection.id, Watcher{command.connection, command.locale, 0, command.rights});
}

net::Frame SchoolsService::map_snapshot(SchoolState& school, v4::Locale locale) {
    net::Frame& cached = school.map_snapshots[static_cast<std::size_t>(content::lang_from_locale_byte(static_cast<unsigned>(locale)))];
    if (cached) return cached;
    v4::MapSnapshot snapshot{school.id, {}};
    if (school.packs) {
        const auto lang = content::lang_from_locale_byte(static_cast<unsigned>(locale));
        for (auto& node : school.packs->tree(school.map, lang)) {
            snapshot.nodes.push_back({static_cast<std::uint8_t>(node.kind), std::move(node.id), std::move(node.parent),
                                      std::move(node.name), std::move(node.items), std::move(node.positions)});
        }
    }
    cached = net::make_frame(v4::encode(snapshot));
    return cached;
}

void SchoolsService::open(const cmd::OpenSchool& command) {
    Watcher* watcher = find(command.connection);
    if (!watcher) return;
    stop_watching(*watcher);
    const auto found = schools_.find(command.school_id);
    if (found == schools_.end()) {
        watcher->connection.outbox->push_reliable(net::make_frame(v4::encode(v4::SchoolGone{command.school_id})));
        return;
    }
    watcher->open_school = command.school_id;
    watcher->connection.outbox->push_reliable(map_snapshot(found->second, watcher->locale));
    audiences_[command.school_id].add(watcher->connection);
}

void SchoolsService::stop_watching(Watcher& watcher) {
    if (watcher.open_school == 0) return;
    if (auto audience = audiences_.find(watcher.open_school); audience != audiences_.end()) {
        audience->second.remove(watcher.connection.id);
        if (audience->second.empty()) audiences_.erase(audience);
    }
    watcher.open_school = 0;
}

void SchoolsService::close(const cmd::CloseSchool& command) {
    if (Watcher* watcher = find(command.connection)) stop_watching(*watcher);
}

SchoolState* SchoolsService::controllable_school_of(net::ConnectionId id) {
    SchoolState* school = open_school_of(id);
    if (!school) return nullptr;
    if (find(id)->rights.allows(school->owner_hash)) return school;
    // A stranger's pause or speed would change every watcher's school.
    metrics_.school_control_refused();
    return nullptr;
}

void SchoolsService::set_running(const cmd::SetRunning& command) {
    SchoolState* school = controllable_school_of(command.connection);
    if (!school || command.running > 1) return;  // nothing open, or a value with no meaning: ignored
    const bool running = command.running == 1;
    if (school->clock.running == running) return;  // no change: nothing to persist, the store sleeps on
    sim::set_running(school->clock, running);
    persist(*school, /*control=*/true);
}

void SchoolsService::set_speed(const cmd::SetSpeed& command) {
    SchoolState* school = controllable_school_of(command.connection);
    if (!school || school->clock.speed_index == command.speed_index) return;  // the same speed changes nothing
    if (sim::set_speed(school->clock, command.speed_index)) persist(*school, /*control=*/true);
}

void SchoolsService::disconnect(net::ConnectionId connection) {
    if (Watcher* watcher = find(connection)) stop_watching(*watcher);
    connections_.erase(connection);
}

void SchoolsService::persist(const SchoolState& school, bool control) {
    if (!control && !school.holds_clock) return;  // time passing is the lease holder's to write
    ++clock_updates_queued_;
    if (store_) store_->queue_clock(school.id, school.clock.game_time_ms, school.clock.running, school.clock.speed_index, control);
}

void SchoolsService::follow(SharedSchoolsView view) {
    std::map<std::int32_t, const store::SharedClockRow*> rows;
    for (const auto& row : view.clocks) rows.emplace(row.id, &row);
    std::vector<std::int32_t> gone;
    for (const auto& [id, school] : schools_)
        if (!rows.count(id) && school.added_at < view.read_at) gone.push_back(id);  // deleted through another server
    for (const auto id : gone) remove(id);
    for (auto& school : view.arrived) {
        const auto removed = removed_at_.find(school.id);
        if (rows.count(school.id) && (removed == removed_at_.end() || removed->second < view.read_at)) add(std::move(school));
    }
    std::erase_if(removed_at_, [&](const auto& entry) { return entry.second < view.read_at; });
    for (const auto& [id, row] : rows) {
        const auto found = schools_.find(id);
        if (found == schools_.end()) continue;
        SchoolState& school = found->second;
        school.holds_clock = row->held_here;
        if (row->control_seq != school.control_seq) {
            // A pause or speed change, made here or elsewhere: everyone takes it; who does not hold
            // the clock also takes the moment it was made.
            school.control_seq = row->control_seq;
            sim::set_running(school.clock, row->state.running);
            sim::set_speed(school.clock, row->state.speed_index);
            if (!row->held_here) school.clock.game_time_ms = row->state.game_time_ms;
        } else if (!row->held_here && row->state.game_time_ms > school.clock.game_time_ms) {
            school.clock.game_time_ms = row->state.game_time_ms;  // the holder is ahead: catch up, never go back
        }
    }
}

void SchoolsService::persist_all() {
    for (const auto& [id, school] : schools_) persist(school);
}

void SchoolsService::step(std::int64_t real_elapsed_us) {
    for (auto& [id, school] : schools_) {
        if (!school.clock.running) continue;
        sim::advance(school.clock, real_elapsed_us);
        persist(school);  // the store keeps only the latest per school and commits a few times a second
    }
}

void SchoolsService::broadcast() {
    for (auto& [id, audience] : audiences_) {
        const auto school = schools_.find(id);
        if (school == schools_.end()) continue;
        const auto& clock = school->second.clock;
        const net::Frame frame = net::make_frame(
            v4::encode(v4::Clock{id, clock.game_time_ms, static_cast<std::uint8_t>(clock.running), clock.speed_index}));
        audience.deliver(*fanout_, frame, schools::kV4Tag);
    }
}

}  // namespace hschool::server
