#pragma once
// Hide-and-seek load (issue 12): matches made through the REST and driven over Sprite v1 sockets.
//   seats:    N matches, six unregistered (so scripted, burrow) /player seats each; every frame is
//             read and its arrival time kept; with --ready each frame is answered with 0x85 (fast
//             mode), without it the match paces itself at 24 Hz. Frame intervals, frames/s.
//   spectate: one match with six server bots at 24 Hz; the server's CPU without a spectator, then
//             with one (or more) /global spectators: bytes/s and frames/s received.
//   fast:     one match (certification by default), six seats answering every frame with 0x85 at
//             once: ticks/s and the wall time of the whole match, until the sockets close (1000).
//   replay:   a long certification match (six bots) played out at 16 ticks per frame, then N /replay
//             viewers that press 'e' once and 'b' every 250 ms: frames/s per viewer, server CPU, RSS.
//   watch:    issue 31's bytes: one default match with six bots watched at once on the contract
//             /global and on our browser's compact stream (first 5 s, then the steady state), then
//             one fresh match per speed (1, 2, 4, 8, 16 ticks a frame) on the compact stream.
// The sockets are hns_sockets.hpp's (tools/ws underneath), the REST calls hns_rest.hpp's, the figures
// hns_report.hpp's; this header sees none of Beast or Asio.
#include <boost/json/object.hpp>
#include <cstdint>
#include <ostream>
#include <string>

namespace hschool::load {

enum class HnsMode { Seats, Spectate, Fast, Replay, Watch };

struct HnsPlan {
    HnsMode mode = HnsMode::Seats;
    std::string host = "127.0.0.1";
    std::uint16_t port = 0;
    int matches = 100;             // seats: matches made; each gets six seats
    std::string variant;           // "" = per mode: default (seats, spectate), certification (fast)
    bool answer_ready = false;     // seats: answer each frame with 0x85 (fast mode); fast: always on
    int spectators = 1;            // spectate
    std::string stream;            // spectate: "" the contract's /global, "compact" our browser's stream
    int viewers = 64;              // replay
    double seconds = 10;           // the measurement window (spectate: each of the two windows)
    double warmup_seconds = 7;     // after every socket is open (default: 5 s start wait + 2 s)
    double timeout_seconds = 300;  // fast: the whole match must end by then
    int threads = 1;               // seats: io_context threads, matches split between them
    int ramp_batch = 64;           // sockets connecting at once
    int server_pid = 0;
};

const char* hns_mode_name(HnsMode mode);

// Runs the mode to its end and returns what it saw (one JSON object, "scenario": "hns-…").
boost::json::object run_hns(const HnsPlan& plan);
void print_hns_table(const boost::json::object& summary, std::ostream& out);

}  // namespace hschool::load
