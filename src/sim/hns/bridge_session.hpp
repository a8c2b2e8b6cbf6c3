#pragma once
// The training bridge's contract (the reference's numeric_bridge.nim at 02429f2), one JSON line in
// and one out, with no I/O: `reset` (a seed string, six players) starts an episode and answers its
// first decision; `encode` answers the decision's 356 values and 107-entry order catalog; `teacher`
// the burrow baseline's choice from the catalog; `step` one catalog order for the seat asked now
// ("stale decision" and "action outside visible order catalog" are rejected), answered with the
// next decision or, after the last, the terminal scores. Where the reference dies — a malformed or
// oversized line, an unknown kind, a field of the wrong type, a request before any reset or after
// the episode ended — this answers {"kind":"error","reason":…} and keeps the episode as it was.
// The typed calls (reset, observe, teacher_index, step_index) are the same episode without JSON,
// for the binary framing and many environments at once.
#include <array>
#include <boost/json/object.hpp>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "sim/hns/bridge_episode.hpp"
#include "sim/hns/order_catalog.hpp"

namespace hschool::sim::hns {

// A request line longer than this is refused unread: the longest real one is a step of ~100 bytes.
inline constexpr std::size_t kMaxBridgeLineBytes = 64 * 1024;
// A seed string longer than this is refused (a seed is a name, not a payload).
inline constexpr std::size_t kMaxBridgeSeedBytes = 256;
// The only roster the reference's bridge plays.
inline constexpr int kBridgePlayers = kSeats;

struct BridgeRequest {
    enum class Kind { Reset, Encode, Teacher, Step } kind = Kind::Encode;
    std::string seed;           // reset
    std::int64_t decision = 0;  // step
    std::string response;       // step: the order as JSON text
};

// One request line, or why it is not one (the text of the error line).
Expected<BridgeRequest> parse_bridge_request(std::string_view line);

// Pins the room a config's seed picks (resolve_room_spec, or a cache of it): the session reads no files.
using RoomResolver = std::function<Expected<GameConfig>(GameConfig)>;

class BridgeSession {
public:
    enum class StepResult { Accepted, Stale, OutsideCatalog, NoDecision };
    // Called once per finished episode with its seed string and replay (when `record_replays`).
    using EpisodeEnd = std::function<void(const std::string& seed, const std::string& replay)>;

    explicit BridgeSession(RoomResolver resolve, bool record_replays = false, EpisodeEnd on_end = {});

    // One JSON line in, one JSON line out (no newline).
    std::string handle_line(std::string_view line);

    // The typed calls. reset: an empty optional, or why the episode could not start.
    std::optional<std::string> reset(std::string_view seed);
    bool has_decision() const { return episode_ && !episode_->finished(); }
    bool finished() const { return episode_ && episode_->finished(); }
    int decision_id() const { return episode_ ? episode_->decision() : 0; }
    int seat() const { return episode_ ? episode_->seat() : -1; }
    // The current decision's values and legal mask; false when there is none.
    bool observe(NumericValues& values, LegalMask& mask);
    // The teacher's catalog index for the current decision (-1 when there is none).
    int teacher_index();
    StepResult step_index(int index);
    // Every seat's score once the episode is finished (zeros before).
    const std::array<double, kSeats>& scores() const { return scores_; }
    const std::string& seed() const { return seed_; }

private:
    // The current decision's view and catalog, built once per decision.
    struct Decision {
        int id = -1;
        boost::json::object view;
        OrderCatalog catalog{};
    };
    const Decision& decision();
    void after_step();
    std::string answer_reset(const BridgeRequest& request);
    std::string answer_step(const BridgeRequest& request);
    std::string decision_json();
    std::string terminal_json() const;

    RoomResolver resolve_;
    bool record_;
    EpisodeEnd on_end_;
    std::optional<BridgeEpisode> episode_;
    std::string seed_;
    Decision decision_;
    std::array<double, kSeats> scores_{};
};

}  // namespace hschool::sim::hns
