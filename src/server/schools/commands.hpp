#pragma once
// What the schools' v4 connections ask of the loop thread (schools_session.hpp makes them,
// SchoolsService carries them out).
#include <cstdint>

#include "net/ws_connection.hpp"
#include "protocol/v4.hpp"
#include "server/schools/school_rights.hpp"

namespace hschool::server::cmd {

struct SchoolsJoin {
    net::ConnectionRef connection;
    protocol::v4::Locale locale = protocol::v4::Locale::Russian;
    SchoolRights rights;
};
struct OpenSchool {
    net::ConnectionId connection = 0;
    std::int32_t school_id = 0;
};
struct CloseSchool {
    net::ConnectionId connection = 0;
};
struct SetRunning {
    net::ConnectionId connection = 0;
    std::uint8_t running = 0;
};
struct SetSpeed {
    net::ConnectionId connection = 0;
    std::uint8_t speed_index = 0;
};

}  // namespace hschool::server::cmd
