#pragma once
// The hide-and-seek load's sockets (issue 12): many Sprite v1 sockets — seats, spectators, /replay
// viewers — on one or two threads, connected in a ramp and read to the end, each message's arrival
// and size kept; seats may answer every frame with a ready (fast mode), viewers may press keys.
// The WebSockets are tools/ws's; nothing here sees Beast.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hns_load.hpp"

namespace hschool::load {

inline constexpr double kLateMs = 50.0;                 // the target's bound on the frame interval
inline constexpr double kMissedMs = 1.5 * 1000.0 / 24;  // an interval this long means a frame time went by without a frame
inline constexpr double kFirstWindowSeconds = 5.0;      // watch: "the first 5 s" of a viewer, from its socket's open

// One socket's figures: its thread writes them, the modes read them after stop().
struct HnsSocket {
    std::string target;
    bool connecting = false, open = false, failed = false, closed = false, closed_by_us = false;
    std::string fail_reason;
    std::uint16_t close_code = 0;  // 0: ended without a Close frame
    std::int64_t started_us = 0, opened_us = 0, first_frame_us = 0, last_frame_us = 0, closed_us = 0;
    std::uint64_t frames = 0, bytes = 0, texts = 0, readies = 0;  // whole life
    std::uint64_t first_message_bytes = 0;
    std::uint64_t first_window_bytes = 0;  // received within kFirstWindowSeconds of the open
    std::uint64_t window_frames = 0, window_bytes = 0;
    std::vector<std::uint32_t> intervals_us;  // window: arrival of a binary message − arrival of the previous one
    std::vector<std::int64_t> late_at_us;     // window: arrivals that ended an interval over kMissedMs
    std::size_t group = 0;                    // the match (seats) this socket belongs to
};

class HnsSockets {
public:
    // `threads`: io_context threads (1–2), a match's sockets on one; `answer_ready`: each binary
    // message is answered with a lone 0x85.
    HnsSockets(const HnsPlan& plan, int threads, bool answer_ready);
    ~HnsSockets();  // stops
    HnsSockets(const HnsSockets&) = delete;
    HnsSockets& operator=(const HnsSockets&) = delete;

    // Before start(): one match's targets ("/player?match=…"), kept on one thread.
    void add_group(std::size_t group, const std::vector<std::string>& targets);
    // Before start(): 0x81 texts every socket sends when it opens, and every kBackKeyPeriod.
    void set_keys(const std::string& on_open, const std::string& periodic);
    void start();
    // Every socket open or failed; false after the ramp limit.
    bool wait_ramp();
    // Every socket ended (failed or closed by the server); false at the deadline.
    bool wait_all_ended(std::chrono::steady_clock::time_point until);
    // While on, window figures are counted.
    void set_measuring(bool on);
    int opened() const;
    int ended() const;
    void stop();
    // After stop(): every socket's figures, thread by thread.
    std::vector<const HnsSocket*> sockets() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace hschool::load
