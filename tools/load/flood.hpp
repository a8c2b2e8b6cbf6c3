#pragma once
// The hostile client: a few connections that say Hello (and, for v4, open a school) and then
// stream small client frames as fast as the socket takes them, 1 MiB per write. When the server
// closes one (1008 over budget, or anything else) it reconnects at once and floods again, so the
// cost of a sustained attack is measured, not of one burst. Raw TCP and hand-made frames: no
// WebSocket library stands between the flood and the socket.
#include <boost/json/object.hpp>
#include <cstddef>
#include <cstdint>
#include <string>

namespace hschool::load {

enum class FloodKind {
    SetRunning,  // v4: Hello, OpenSchool, then SetRunning 1/0 alternating (each one a real change)
    Input,       // v1: Hello, then Input with rising sequence numbers
    Ping,        // v1: Hello, then Ping (each one asks for a Pong)
    Mixed,       // even connections v4 SetRunning, odd ones v1 Input; a Ping after every 7 frames on both
};

struct FloodPlan {
    std::string host = "127.0.0.1";
    std::uint16_t port = 0;
    int connections = 2;
    FloodKind kind = FloodKind::Mixed;
    double seconds = 10;                 // the whole flood; SIGINT/SIGTERM end it early (and still report)
    std::size_t chunk_bytes = 1 << 20;   // one write: whole frames up to this size
    int server_pid = 0;                  // sampled every 100 ms: CPU, RSS, peak RSS
    std::uint64_t max_server_rss_mib = 4096;  // a guard for servers without defences: stop flooding above this
    int reconnect_delay_ms = 0;          // after a close; a refused upgrade (503) or failed connect waits 100 ms
    std::int32_t school_id = 0;          // for v4 connections; 0 = first school the server lists (created if none)
};

const char* flood_kind_name(FloodKind kind);

// Runs the flood to its end and returns what it saw (one JSON object, "scenario": "flood").
boost::json::object run_flood(const FloodPlan& plan);

}  // namespace hschool::load
