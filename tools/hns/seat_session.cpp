#include "seat_session.hpp"

#include <boost/json.hpp>

#include "protocol/sprite_v1.hpp"

namespace hschool::tools::hns {

namespace sv = protocol::sprite_v1;
namespace json = boost::json;

namespace {

protocol::Bytes chat(const std::string& text) { return sv::encode(sv::ClientMessage{sv::InputText{text}}); }
protocol::Bytes ready() { return {sv::id::kPlayerReady}; }

}  // namespace

std::string registration_text(const SeatPolicy& policy) {
    const bool byServer = !policy.external && !policy.manual;  // the server plays a baseline for it
    std::string label = policy.label;
    if (label.empty()) label = policy.external ? "external" : policy.manual ? "manual" : !policy.prompt.empty() ? "prompt" : policy.scripted;
    if (label.size() > kMaxPolicyLabelChars) label.resize(kMaxPolicyLabelChars);
    json::object o{{"type", "register"}, {"prompt", policy.prompt}, {"policy", label}};
    // A seat the server does not script names no baseline (JSON null), as the reference's does.
    if (byServer) o["scripted"] = policy.scripted;
    else o["scripted"] = nullptr;
    if (policy.external) o["mode"] = "external";
    else if (policy.manual) o["mode"] = "manual";
    return json::serialize(o);
}

SeatSession::SeatSession(SeatPolicy policy, OrderSource orders)
    : policy_(std::move(policy)), registration_(registration_text(policy_)), source_(std::move(orders)) {}

std::vector<protocol::Bytes> SeatSession::on_open() {
    frames_ = 0;
    resends_ = 0;
    return {chat(registration_)};
}

std::vector<protocol::Bytes> SeatSession::on_message(bool text, const std::string& data) {
    std::vector<protocol::Bytes> out;
    ++frames_;
    if (resends_ < kRegistrationResends && frames_ % kResendEveryFrames == 1) {
        ++resends_;
        out.push_back(chat(registration_));
    }
    if (policy_.external && text && source_) {
        boost::system::error_code ec;
        const auto request = json::parse(data, ec);
        const auto* o = !ec && request.is_object() ? &request.as_object() : nullptr;
        const auto* type = o ? o->if_contains("type") : nullptr;
        const auto* turn = o ? o->if_contains("turn") : nullptr;
        const auto* observation = o ? o->if_contains("observation") : nullptr;
        const auto* game = observation && observation->is_object() ? observation->as_object().if_contains("game") : nullptr;
        if (type && type->is_string() && type->as_string() == "decision" && turn && turn->is_int64() && game && game->is_int64()) {
            if (auto order = source_(data)) {
                out.push_back(chat("orders:" + std::to_string(game->as_int64()) + ":" + std::to_string(turn->as_int64()) + ":" + *order));
                ++orders_;
            }
        }
    }
    out.push_back(ready());
    return out;
}

}  // namespace hschool::tools::hns
