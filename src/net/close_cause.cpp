#include "net/close_cause.hpp"

#include "net/close_codes.hpp"

namespace hschool::net {

const char* label(CloseCause cause) {
    switch (cause) {
    case CloseCause::Normal: return "normal";
    case CloseCause::GoingAway: return "going_away";
    case CloseCause::ProtocolError: return "protocol_error";
    case CloseCause::InvalidPayload: return "invalid_payload";
    case CloseCause::Policy: return "policy";
    case CloseCause::TooBig: return "too_big";
    case CloseCause::InternalError: return "internal_error";
    case CloseCause::TryAgainLater: return "try_again_later";
    case CloseCause::OtherCode: return "other_code";
    case CloseCause::NotReading: return "not_reading";
    case CloseCause::ServerBehind: return "server_behind";
    case CloseCause::PeerSilent: return "peer_silent";
    case CloseCause::GreetingTimeout: return "greeting_timeout";
    case CloseCause::OverBudget: return "over_budget";
    case CloseCause::Shutdown: return "shutdown";
    case CloseCause::WriteStall: return "write_stall";
    case CloseCause::WriteFailed: return "write_failed";
    case CloseCause::HandshakeFailed: return "handshake_failed";
    case CloseCause::SetupFailed: return "setup_failed";
    case CloseCause::SkipLimit: return "skip_limit";
    }
    return "other_code";
}

CloseCause cause_of_code(std::uint16_t code) {
    switch (code) {
    case close_code::kNormal: return CloseCause::Normal;
    case close_code::kGoingAway: return CloseCause::GoingAway;
    case close_code::kProtocolError: return CloseCause::ProtocolError;
    case close_code::kInvalidPayload: return CloseCause::InvalidPayload;
    case close_code::kPolicyViolation: return CloseCause::Policy;
    case close_code::kMessageTooBig: return CloseCause::TooBig;
    case close_code::kInternalError: return CloseCause::InternalError;
    case close_code::kTryAgainLater: return CloseCause::TryAgainLater;
    default: return CloseCause::OtherCode;
    }
}

}  // namespace hschool::net
