#pragma once
// One league seat's conversation with the game, as the reference's seat program holds it: the
// registration as a 0x81 chat message on connect and again after session frames 1, 25, 49, … (ten
// re-sends), a decision answered with "orders:<game>:<turn>:<order>" when the seat is external,
// and a standalone 0x85 after every message received. No sockets and no clock: the program feeds
// it messages and sends what it returns.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "protocol/bytes.hpp"

namespace hschool::tools::hns {

inline constexpr int kRegistrationResends = 10;  // re-sends after the first, ~1 s apart
inline constexpr int kResendEveryFrames = 24;    // ~1 s of frames at 24 Hz
inline constexpr std::size_t kMaxPolicyLabelChars = 64;
// The server cuts a 0x81 chat longer than this (server/hns/limits.hpp kMaxInputTextBytes): a
// registration must fit whole, prompt included.
inline constexpr std::size_t kMaxRegistrationBytes = 4096;

struct SeatPolicy {
    std::string scripted = "burrow";  // burrow | scatter | teacher: the baseline a scripted seat plays
    bool external = false;            // the seat answers the server's decisions itself
    std::string label;                // the register record's policy ("" : the baseline's, "external" or "manual")
    std::string prompt{};             // a prompt seat: the server asks a model with this guidance
    bool manual = false;              // a manual seat: its cog moves only by 0x84 masks (idle sends none)
};

// The registration JSON: {"type":"register","prompt":…,"policy":…,"scripted":…[,"mode":"external"|"manual"]}.
std::string registration_text(const SeatPolicy& policy);

class SeatSession {
public:
    // decision JSON → the order JSON to send (nullopt: send none and let the server fall back).
    using OrderSource = std::function<std::optional<std::string>(const std::string& decision)>;

    SeatSession(SeatPolicy policy, OrderSource orders);

    // A new socket: the registration to send first. Resets the per-session counts.
    std::vector<protocol::Bytes> on_open();
    // One message from the game; what to send back, in order.
    std::vector<protocol::Bytes> on_message(bool text, const std::string& data);

    int session_frames() const { return frames_; }
    int resends() const { return resends_; }
    int orders_sent() const { return orders_; }

private:
    const SeatPolicy policy_;
    const std::string registration_;
    OrderSource source_;
    int frames_ = 0;
    int resends_ = 0;
    int orders_ = 0;
};

}  // namespace hschool::tools::hns
