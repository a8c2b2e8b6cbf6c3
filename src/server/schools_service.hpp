#pragma once
// The schools on the loop thread: v4 connections, which school each watches, and the clocks.
#include <cstdint>
#include <unordered_map>

#include "protocol/v4.hpp"
#include "server/commands.hpp"

namespace hschool::server {

class Metrics;

class SchoolsService {
public:
    SchoolsService(std::uint8_t tick_rate, Metrics& metrics);

    void join(const cmd::SchoolsJoin& command);
    void open(const cmd::OpenSchool& command);
    void close(const cmd::CloseSchool& command);
    void set_running(const cmd::SetRunning& command);
    void set_speed(const cmd::SetSpeed& command);
    void disconnect(ConnectionId connection);
    void step(std::int64_t real_elapsed_us);
    void broadcast();

    std::size_t watchers() const { return connections_.size(); }

private:
    struct Watcher {
        ConnectionRef connection;
        protocol::v4::Locale locale = protocol::v4::Locale::Russian;
        std::int32_t open_school = 0;  // 0: none open (ids start at 1)
    };
    Watcher* find(ConnectionId id);

    std::uint8_t tick_rate_;
    Metrics& metrics_;
    std::unordered_map<ConnectionId, Watcher> connections_;
};

}  // namespace hschool::server
