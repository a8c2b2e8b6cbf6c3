#include "numeric_seat.hpp"

#include <algorithm>
#include <boost/json.hpp>

#include "sim/hns/nim_json.hpp"

namespace hschool::tools::hns {
namespace json = boost::json;

sh::Expected<NumericAsk> numeric_ask(std::string_view decision_json, std::string_view session) {
    using R = sh::Expected<NumericAsk>;
    boost::system::error_code ec;
    const json::value decision = json::parse(decision_json, ec);
    if (ec || !decision.is_object()) return R::fail("the decision is not a JSON object");
    const json::object& d = decision.get_object();
    const json::value* observation = d.if_contains("observation");
    const json::value* seat = d.if_contains("seat");
    const json::value* turn = d.if_contains("turn");
    const json::value* deadline = d.if_contains("deadline_ms");
    if (observation == nullptr || !observation->is_object()) return R::fail("the decision has no observation");
    if (seat == nullptr || !seat->is_int64() || turn == nullptr || !turn->is_int64())
        return R::fail("the decision has no seat and turn");
    const json::value* game = observation->get_object().if_contains("game");
    if (game == nullptr || !game->is_int64() || game->get_int64() < 1 || game->get_int64() > 1000 || turn->get_int64() < 0 ||
        turn->get_int64() >= kNumericGameStride)
        return R::fail("the decision's game or turn is out of range");
    auto catalog = sh::order_catalog(observation->get_object());
    if (!catalog) return R::fail(catalog.error);
    auto values = sh::numeric_values(observation->get_object());
    if (!values) return R::fail(values.error);
    NumericAsk ask;
    ask.catalog = std::move(*catalog);
    const std::int64_t deadline_ms = deadline != nullptr && deadline->is_int64() ? deadline->get_int64() : 0;
    ask.timeout_seconds = static_cast<int>(std::clamp<std::int64_t>((deadline_ms - kNumericDeadlineMarginMs) / 1000,
                                                                     kMinNumericTimeoutSeconds, 3600));
    std::string& body = ask.body;
    body = "{\"session\":";
    sh::append_nim_json_string(session, body);
    body += ",\"seat\":" + std::to_string(seat->get_int64());
    body += ",\"decision_id\":" + std::to_string((game->get_int64() - 1) * kNumericGameStride + turn->get_int64());
    body += ",\"values\":";
    sh::append_values_json(*values, body);
    body += ",\"action_mask\":[";
    for (std::size_t i = 0; i < ask.catalog.size(); ++i) body += std::string(i > 0 ? "," : "") + (ask.catalog[i] ? "true" : "false");
    body += "]}";
    return R::ok(std::move(ask));
}

sh::Expected<std::string> numeric_order(const NumericAsk& ask, int http_status, std::string_view answer_body) {
    using R = sh::Expected<std::string>;
    if (http_status < 200 || http_status >= 300) return R::fail("numeric policy HTTP " + std::to_string(http_status));
    if (answer_body.size() > kMaxNumericAnswerBytes) return R::fail("numeric policy answered over 64 KiB");
    boost::system::error_code ec;
    const json::value answer = json::parse(answer_body, ec);
    const json::value* actions = !ec && answer.is_object() ? answer.get_object().if_contains("actions") : nullptr;
    if (actions == nullptr || !actions->is_array()) return R::fail("numeric policy answered no actions list");
    if (actions->get_array().size() != 1) return R::fail("numeric policy returned wrong action count");
    const json::value& index = actions->get_array()[0];
    if (!index.is_int64() || index.get_int64() < 0 || index.get_int64() >= sh::kCatalogSize ||
        !ask.catalog[static_cast<std::size_t>(index.get_int64())])
        return R::fail("numeric policy returned illegal order");
    return R::ok(sh::catalog_order_json(*ask.catalog[static_cast<std::size_t>(index.get_int64())]));
}

}  // namespace hschool::tools::hns
