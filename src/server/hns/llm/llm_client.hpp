#pragma once
// One match's model client (issue 21; the reference's decide.nim turn and llm.nim): at a decision
// turn every live prompt seat's request goes out as one parallel batch; failures get one retry
// batch; all within attempt1Ms, retryMs and turnBudgetMs. 401/403 turns the client off for the
// rest of the match, 429 skips this turn's retry, Bedrock rotates its model on either. The result
// is the orders and the fallback notes; the caller records them. Runs on the match's thread.
// Batch starts are held turnSpacingMs apart (the sidecar's rate cap), before the turn's clock.
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "server/hns/llm/llm_reply.hpp"
#include "server/hns/llm/llm_settings.hpp"
#include "sim/hns/config.hpp"
#include "sim/hns/orders.hpp"

namespace hschool::server::hns {

// One prompt seat's question this turn.
struct LlmSeatAsk {
    int slot = 0;
    std::string prompt;  // the operator's guidance (never recorded)
    std::string view;    // the seat's observation JSON, with your_notes
};

// A fallback record to write: attempt 1 or 2, the reference's cause, a bounded detail.
struct LlmFallbackNote {
    int slot = 0;
    int attempt = 1;
    std::string cause;
    std::string detail;
};

struct LlmSeatAnswer {
    int slot = 0;
    bool ok = false;  // false: the seat plays burrow this turn
    sim::hns::ParsedOrder order;
    long long latency_ms = 0;  // the batch that answered it
};

struct LlmTurnResult {
    std::vector<LlmSeatAnswer> answers;  // one per ask, in the asks' order
    std::vector<LlmFallbackNote> notes;  // in the order they happened
};

class LlmClient {
public:
    LlmClient(LlmSettings settings, const sim::hns::GameConfig& config);

    // A transport is configured, no 401/403 turned it off and the budget guard has not fired.
    bool live() const { return settings_.transport != LlmTransport::None && !disabled_ && !budget_off_; }
    // Why a seat cannot ask this turn: budget_guard once the guard fired, else no_credentials.
    const char* unavailable_cause() const;

    // The reference's budget guard, before every turn of any match: when `elapsed` plus two turn
    // budgets would pass wallClockBudgetSeconds, the model is off for the rest of the match. The
    // seconds left when it fires (write the budget_guard record, once), else nothing.
    std::optional<int> guard_budget(std::chrono::seconds elapsed);
    LlmTransport transport() const { return settings_.transport; }

    // The turn's batch (and retry). `stop()` true ends the waits early (the match is stopping).
    LlmTurnResult run_turn(const std::vector<LlmSeatAsk>& asks, const sim::hns::OrderContext& ctx,
                           const std::function<bool()>& stop);

private:
    HttpCall request_for(const LlmSeatAsk& ask, bool retry) const;
    bool rotate_bedrock_model();
    std::string redacted(std::string detail) const;  // a credential echoed by a provider never reaches a record

    LlmSettings settings_;
    std::string system_;
    std::string config_model_;
    int max_tokens_ = 700;
    std::chrono::milliseconds attempt1_, retry_, budget_;
    std::chrono::milliseconds spacing_;
    int wall_budget_s_ = 660;
    std::size_t bedrock_model_ = 0;
    bool disabled_ = false;
    bool budget_off_ = false;
    std::optional<std::chrono::steady_clock::time_point> last_batch_;  // for turnSpacingMs
};

}  // namespace hschool::server::hns
