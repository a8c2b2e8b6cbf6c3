#include "sim/hns/bridge_session.hpp"

#include <boost/json.hpp>

#include "sim/hns/nim_json.hpp"
#include "sim/hns/string_seed.hpp"

namespace hschool::sim::hns {
namespace json = boost::json;

namespace {

constexpr const char* kStale = "stale decision";
constexpr const char* kOutsideCatalog = "action outside visible order catalog";
// An unknown kind is echoed in the error, cut to this many bytes.
constexpr std::size_t kMaxEchoedKindBytes = 40;
// Room enough for a decision's escapes and its action schema beside the view.
constexpr std::size_t kDecisionSchemaBytes = 8192;

std::string error_line(std::string_view reason) {
    std::string out = "{\"kind\":\"error\",\"reason\":";
    append_nim_json_string(reason, out);
    out.push_back('}');
    return out;
}

std::string rejected_line(std::string_view reason) {
    std::string out = "{\"kind\":\"rejected\",\"reason\":";
    append_nim_json_string(reason, out);
    out.push_back('}');
    return out;
}

Expected<BridgeRequest> fail(std::string message) { return Expected<BridgeRequest>::fail(std::move(message)); }

// Cuts text to at most `limit` bytes on a UTF-8 boundary.
std::string cut_utf8(std::string_view text, std::size_t limit) {
    if (text.size() <= limit) return std::string(text);
    std::size_t end = limit;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
    return std::string(text.substr(0, end)) + "...";
}

}  // namespace

Expected<BridgeRequest> parse_bridge_request(std::string_view line) {
    if (line.size() > kMaxBridgeLineBytes)
        return fail("line is over " + std::to_string(kMaxBridgeLineBytes) + " bytes");
    boost::system::error_code ec;
    const json::value parsed = json::parse(line, ec);
    if (ec) return fail("malformed JSON: " + ec.message());
    if (!parsed.is_object()) return fail("a request is a JSON object");
    const json::object& o = parsed.get_object();
    const json::value* kind = o.if_contains("kind");
    if (kind == nullptr || !kind->is_string()) return fail("a request needs a kind (reset, encode, teacher or step)");
    BridgeRequest out;
    const json::string& k = kind->get_string();
    if (k == "reset") {
        out.kind = BridgeRequest::Kind::Reset;
        const json::value* seed = o.if_contains("seed");
        if (seed == nullptr || !seed->is_string()) return fail("reset needs a seed string");
        if (seed->get_string().size() > kMaxBridgeSeedBytes)
            return fail("the seed is over " + std::to_string(kMaxBridgeSeedBytes) + " bytes");
        out.seed = std::string(seed->get_string());
        const json::value* players = o.if_contains("players");
        if (players == nullptr || !players->is_int64() || players->get_int64() != kBridgePlayers)
            return fail("reset plays " + std::to_string(kBridgePlayers) + " players");
    } else if (k == "encode") {
        out.kind = BridgeRequest::Kind::Encode;
    } else if (k == "teacher") {
        out.kind = BridgeRequest::Kind::Teacher;
    } else if (k == "step") {
        out.kind = BridgeRequest::Kind::Step;
        const json::value* id = o.if_contains("decision_id");
        if (id == nullptr || !id->is_int64()) return fail("step needs an integer decision_id");
        out.decision = id->get_int64();
        const json::value* response = o.if_contains("response");
        if (response == nullptr || !response->is_string())
            return fail("step needs the order as JSON text in a response string");
        out.response = std::string(response->get_string());
    } else {
        return fail("unknown kind " + nim_json_text(json::string(cut_utf8(k, kMaxEchoedKindBytes))));
    }
    return Expected<BridgeRequest>::ok(std::move(out));
}

BridgeSession::BridgeSession(RoomResolver resolve, bool record_replays, EpisodeEnd on_end)
    : resolve_(std::move(resolve)), record_(record_replays), on_end_(std::move(on_end)) {}

std::optional<std::string> BridgeSession::reset(std::string_view seed) {
    if (seed.size() > kMaxBridgeSeedBytes) return "the seed is over " + std::to_string(kMaxBridgeSeedBytes) + " bytes";
    auto config = resolve_(bridge_config(bridge_seed_of(seed)));
    if (!config) return "reset: " + config.error;
    auto created = BridgeEpisode::create(*config, record_);
    if (!created) return "reset: " + created.error;
    // Nothing of the last episode survives: a new episode, a new decision cache, no scores.
    episode_.emplace(std::move(*created));
    seed_ = std::string(seed);
    decision_ = Decision{};
    scores_ = {};
    after_step();
    return std::nullopt;
}

const BridgeSession::Decision& BridgeSession::decision() {
    if (decision_.id != episode_->decision()) {
        decision_.id = episode_->decision();
        decision_.view = episode_->seat_view_object();
        auto catalog = order_catalog(decision_.view);
        // Our own view always reads; an empty catalog would only mean a seat with no cog.
        decision_.catalog = catalog ? *catalog : OrderCatalog{};
    }
    return decision_;
}

bool BridgeSession::observe(NumericValues& values, LegalMask& mask) {
    if (!has_decision()) return false;
    const Decision& d = decision();
    auto read = numeric_values(d.view);
    if (!read) return false;
    values = *read;
    mask = legal_mask(d.catalog);
    return true;
}

int BridgeSession::teacher_index() {
    if (!has_decision()) return -1;
    return ::hschool::sim::hns::teacher_index(decision().catalog, episode_->teacher_order());
}

BridgeSession::StepResult BridgeSession::step_index(int index) {
    if (!has_decision()) return StepResult::NoDecision;
    if (index < 0 || index >= kCatalogSize) return StepResult::OutsideCatalog;
    const auto& entry = decision().catalog[static_cast<std::size_t>(index)];
    if (!entry) return StepResult::OutsideCatalog;
    episode_->answer(catalog_order_json(*entry));
    after_step();
    return StepResult::Accepted;
}

void BridgeSession::after_step() {
    if (!episode_->finished()) return;
    boost::system::error_code ec;
    const json::value results = json::parse(episode_->sim().results_json(), ec);
    const json::value* scores = !ec && results.is_object() ? results.get_object().if_contains("scores") : nullptr;
    for (int s = 0; s < kSeats; ++s)
        if (scores && scores->is_array() && static_cast<std::size_t>(s) < scores->get_array().size())
            scores_[static_cast<std::size_t>(s)] = scores->get_array()[static_cast<std::size_t>(s)].to_number<double>();
    if (on_end_) on_end_(seed_, episode_->replay());
}

std::string BridgeSession::handle_line(std::string_view line) {
    auto request = parse_bridge_request(line);
    if (!request) return error_line(request.error);
    if (request->kind == BridgeRequest::Kind::Reset) return answer_reset(*request);
    if (!episode_) return error_line("no episode yet: send a reset first");
    if (episode_->finished()) return error_line("the episode is over: send a reset");
    switch (request->kind) {
        case BridgeRequest::Kind::Encode: {
            std::string out = "{\"decision_id\":" + std::to_string(episode_->decision()) + ",\"values\":";
            NumericValues values{};
            LegalMask mask{};
            if (!observe(values, mask)) return error_line("the seat's view does not encode");
            append_values_json(values, out);
            out += ",\"actions\":";
            append_catalog_json(decision().catalog, out);
            out.push_back('}');
            return out;
        }
        case BridgeRequest::Kind::Teacher: {
            const OrderCatalog& catalog = decision().catalog;
            const int choice = teacher_index();
            std::string out = "{\"response\":";
            append_nim_json_string(catalog[static_cast<std::size_t>(choice)] ? catalog_order_json(*catalog[static_cast<std::size_t>(choice)]) : "null", out);
            out.push_back('}');
            return out;
        }
        case BridgeRequest::Kind::Step: return answer_step(*request);
        case BridgeRequest::Kind::Reset: break;
    }
    return error_line("unreachable");
}

std::string BridgeSession::answer_reset(const BridgeRequest& request) {
    if (auto error = reset(request.seed)) return error_line(*error);
    if (!has_decision()) return terminal_json();
    return decision_json();
}

std::string BridgeSession::answer_step(const BridgeRequest& request) {
    if (request.decision != episode_->decision()) return rejected_line(kStale);
    boost::system::error_code ec;
    const json::value action = json::parse(request.response, ec);
    if (ec) return error_line("the step's response is not JSON: " + ec.message());
    const auto index = catalog_index_of(decision().catalog, action);
    if (!index) return rejected_line(kOutsideCatalog);
    std::string out = "{\"kind\":\"accepted\",\"action\":";
    append_nim_json(action, out);
    // The seat's order as the reference hands it on: the client's JSON, compact.
    episode_->answer(nim_json_text(action));
    after_step();
    out += ",\"observation\":";
    out += has_decision() ? decision_json() : terminal_json();
    out.push_back('}');
    return out;
}

std::string BridgeSession::decision_json() {
    const Decision& d = decision();
    const std::string view = nim_json_text(d.view);
    const std::string seat = std::to_string(episode_->seat());
    std::string out;
    out.reserve(2 * view.size() + kDecisionSchemaBytes);  // the view twice (once escaped) and the schema
    out += "{\"kind\":\"decision\",\"game\":\"hide-and-seek\",\"decision_id\":" + std::to_string(d.id) +
                      ",\"seat\":" + seat + ",\"engine_seat\":" + seat + ",\"turn\":" + std::to_string(episode_->turn()) +
                      ",\"semantic_view\":" + view + ",\"inbox\":[],\"messages\":[{\"role\":\"user\",\"content\":";
    append_nim_json_string(view, out);
    out += "}],\"speech_messages\":[],\"action_schema\":{\"type\":\"object\",\"enum\":[";
    bool first = true;
    for (const auto& entry : d.catalog) {
        if (!entry) continue;
        if (!first) out.push_back(',');
        first = false;
        append_catalog_order_json(*entry, out);
    }
    out += "]},\"typed_question\":null}";
    return out;
}

std::string BridgeSession::terminal_json() const {
    std::string scores = "{";
    for (int s = 0; s < kSeats; ++s) {
        if (s > 0) scores.push_back(',');
        scores += "\"" + std::to_string(s) + "\":" + nim_json_text(json::value(scores_[static_cast<std::size_t>(s)]));
    }
    scores.push_back('}');
    return "{\"kind\":\"terminal\",\"scores\":" + scores + ",\"utilities\":" + scores + "}";
}

}  // namespace hschool::sim::hns
