#pragma once
// The training bridge's binary framing (docs/hide-and-seek.md "Binary framing"): what a trainer
// sends and reads instead of JSON lines, so it reads arrays without parsing text. Every frame is
// a u32 little-endian payload length and the payload. A request names one operation for all the
// environments at once; the answer is one fixed-size record per environment — its state, seat,
// decision id, teacher index, scores and its values (f32) and legal mask (u8) — that numpy reads
// with one structured dtype. Pure: bytes in, bytes out; a malformed request is an error, never a crash.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/hns/expected.hpp"
#include "sim/hns/order_catalog.hpp"

namespace hschool::tools::hns {

namespace sh = hschool::sim::hns;

// Environments one bridge process steps side by side, at most.
inline constexpr int kMaxBridgeEnvs = 1024;
// A request payload larger than this is refused unread (a reset of kMaxBridgeEnvs long seeds fits).
inline constexpr std::uint32_t kMaxBridgeFrameBytes = 1u << 20;
inline constexpr std::size_t kFrameLengthBytes = 4;
// A reset entry with this seed length leaves its environment as it is.
inline constexpr std::uint16_t kLeaveEnvSeed = 0xFFFF;
// A step entry with this action leaves its environment as it is.
inline constexpr std::int16_t kLeaveEnvAction = -1;

enum class FrameOp : std::uint8_t { Reset = 1, Step = 2, Teacher = 3, Observe = 4 };

struct FrameRequest {
    FrameOp op = FrameOp::Observe;
    int envs = 0;                                   // how many environments it is for
    std::vector<std::optional<std::string>> seeds;  // reset: per env, nullopt = leave it
    std::vector<std::int16_t> actions;              // step: per env, kLeaveEnvAction = leave it
};

// A request payload (after its length) for `envs` environments.
sh::Expected<FrameRequest> parse_frame_request(std::string_view payload, int envs);
// The same request as a payload, for clients and tests.
std::string frame_request_payload(const FrameRequest& request);

enum class EnvState : std::uint8_t {
    Decision = 0,   // a seat is asked: values, mask and (after teacher) the teacher's choice are set
    Terminal = 1,   // the episode is over: scores are set; reset it
    Rejected = 2,   // the step's action is not in the catalog (or outside it): the decision stands
    NoEpisode = 3,  // never reset
    Failed = 4,     // the reset could not start an episode
};

struct EnvRecord {
    EnvState state = EnvState::NoEpisode;
    std::uint8_t seat = 0;
    std::int16_t teacher = -1;
    std::uint32_t decision = 0;
    std::uint32_t episode = 0;  // how many episodes this environment has started
    std::array<float, sh::kSeats> scores{};
    std::array<float, sh::kNumericValueCount> values{};
    sh::LegalMask mask{};
};

// The record's bytes: 12 of header, 24 of scores, 1424 of values, 107 of mask, 1 of padding.
inline constexpr std::size_t kEnvRecordBytes = 12 + 4 * sh::kSeats + 4 * sh::kNumericValueCount + sh::kCatalogSize + 1;
static_assert(kEnvRecordBytes % 4 == 0);
inline constexpr std::uint8_t kFrameOk = 0;
inline constexpr std::uint8_t kFrameError = 1;

// A whole frame (length included): the records, or the error that refused the request.
std::string ok_frame(const std::vector<EnvRecord>& records);
std::string error_frame(std::string_view message);
// Reading an answer back (clients and tests): records, or the error's text.
sh::Expected<std::vector<EnvRecord>> parse_answer_payload(std::string_view payload);

}  // namespace hschool::tools::hns
