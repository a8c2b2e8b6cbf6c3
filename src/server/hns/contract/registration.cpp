#include "server/hns/contract/registration.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <iterator>

#include "server/hns/contract/limits.hpp"

namespace hschool::server::hns {
namespace {

// By PolicyKind: the reference's word, then ours.
struct KindWords {
    const char* record;
    const char* rest;
};
constexpr KindWords kKindWords[] = {{"scripted", "scripted"}, {"external", "external"}, {"llm", "prompt"}, {"manual", "manual"}};

const KindWords& words_of(PolicyKind kind) {
    const auto i = static_cast<std::size_t>(kind);
    return kKindWords[i < std::size(kKindWords) ? i : 0];
}

std::string string_field(const boost::json::object& object, std::string_view key) {
    const auto* value = object.if_contains(key);
    if (value == nullptr || !value->is_string()) return {};
    return std::string(value->get_string());
}

}  // namespace

Expected<Registration> parse_registration(std::string_view text) {
    if (text.size() > kMaxInputTextBytes) return Expected<Registration>::fail(kRegisterTooLong);
    if (text.empty() || text.front() != '{') return Expected<Registration>::fail(kNotRegisterPrefix);
    boost::system::error_code ec;
    const boost::json::value value = boost::json::parse(text, ec);
    if (ec || !value.is_object()) return Expected<Registration>::fail(kRegisterBadJson);
    const auto& object = value.get_object();
    if (string_field(object, "type") != "register") return Expected<Registration>::fail(kRegisterWrongType);
    return Expected<Registration>::ok(Registration{string_field(object, "prompt"), string_field(object, "policy"),
                                                   string_field(object, "scripted"), string_field(object, "mode")});
}

const char* policy_kind_text(PolicyKind kind) { return words_of(kind).record; }
const char* seat_kind_text(PolicyKind kind) { return words_of(kind).rest; }

SeatPolicy seat_policy(const Registration* registration) {
    SeatPolicy policy;
    if (registration == nullptr) {
        policy.label = "burrow";
        return policy;
    }
    const Registration& r = *registration;
    if (r.scripted == "scatter") policy.baseline = sim::hns::Baseline::Scatter;
    policy.teacher = r.scripted == "teacher";
    std::string fallback_label;
    if (r.mode == "external") {
        policy.kind = PolicyKind::External;
        fallback_label = "external";
    } else if (r.mode == "manual") {  // a human at the keys: manual wins over a prompt
        policy.kind = PolicyKind::Manual;
        fallback_label = "manual";
    } else if (!r.prompt.empty()) {
        policy.kind = PolicyKind::Prompt;
        policy.baseline = sim::hns::Baseline::Burrow;  // §2.3: a prompt seat plays burrow
        policy.fallback_record = true;
        fallback_label = "prompt";
    } else {
        fallback_label = policy.teacher ? "teacher" : policy.baseline == sim::hns::Baseline::Scatter ? "scatter" : "burrow";
    }
    policy.label = r.policy.empty() ? fallback_label : r.policy;
    return policy;
}

bool SeatRegistration::apply(Registration registration) {
    current_ = std::move(registration);
    const bool first = !recorded_;
    recorded_ = true;
    return first;
}

bool registration_applies(int player_index) { return player_index >= 0 && player_index < kSeats; }

}  // namespace hschool::server::hns
