#pragma once
// Seat registration (spec §2.3): the register JSON a seat sends as one 0x81, and the policy it
// selects. Ours beyond the reference: "mode":"manual", where the seat's 0x84 mask drives its cog.
#include <optional>
#include <string>
#include <string_view>

#include "sim/hns/baselines.hpp"
#include "server/hns/contract/expected.hpp"

namespace hschool::server::hns {

// The register fields; a field of the wrong JSON type reads as "" (the reference's getStr).
struct Registration {
    std::string prompt;
    std::string policy;    // free label
    std::string scripted;  // "burrow" | "scatter" | anything (null → "")
    std::string mode;      // "external" | "manual" (ours) | anything
};

// Why a text is not a registration; the caller ignores such a text (it is other chat, dropped).
inline constexpr const char* kNotRegisterPrefix = "does not start with {";
inline constexpr const char* kRegisterTooLong = "register text too long";
inline constexpr const char* kRegisterBadJson = "not a JSON object";
inline constexpr const char* kRegisterWrongType = "type is not register";

// `text` is the 0x81 text after the printable filter. Never throws.
Expected<Registration> parse_registration(std::string_view text);

enum class PolicyKind {
    Scripted,  // a baseline plays the seat
    External,  // decision frames out, orders:<game>:<turn>:<json> back
    Prompt,    // the reference's llm kind: the server's language model plays it (llm/), else burrow with a fallback record
    Manual,    // ours: the seat's own 0x84 mask drives the cog
};
// The kind as the replay's records and the sim's results name it (the reference's: scripted,
// external, llm, manual).
const char* policy_kind_text(PolicyKind kind);
// The kind as the REST's seats and /metrics name it (ours: a prompt seat is "prompt").
const char* seat_kind_text(PolicyKind kind);

struct SeatPolicy {
    PolicyKind kind = PolicyKind::Scripted;
    sim::hns::Baseline baseline = sim::hns::Baseline::Burrow;  // who plays when the seat does not
    bool teacher = false;  // scripted "teacher" (issue 41): burrow's order played as its catalog entry
    std::string label;
    bool fallback_record = false;  // each turn writes a fallback record (prompt seats)
};

// `registration` null: the seat never registered (burrow).
SeatPolicy seat_policy(const Registration* registration);

// One seat's registration over time: held until the seat is seated, then applied; only the first
// applied registration writes the replay record.
class SeatRegistration {
public:
    // Returns true when this registration must write the replay record.
    bool apply(Registration registration);
    const Registration* current() const { return current_ ? &*current_ : nullptr; }
    SeatPolicy policy() const { return seat_policy(current()); }

private:
    std::optional<Registration> current_;
    bool recorded_ = false;
};

// A registration applies only to a seated player index 0..5.
bool registration_applies(int player_index);

}  // namespace hschool::server::hns
