#include "server/hns/llm/llm_client.hpp"

#include <algorithm>
#include <thread>

#include "server/hns/contract/decisions.hpp"
#include "server/hns/llm/http_batch.hpp"
#include "server/hns/llm/llm_prompt.hpp"

namespace hschool::server::hns {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

milliseconds since(Clock::time_point start) { return std::chrono::duration_cast<milliseconds>(Clock::now() - start); }

}  // namespace

LlmClient::LlmClient(LlmSettings settings, const sim::hns::GameConfig& config)
    : settings_(std::move(settings)),
      system_(llm_system_text(config)),
      config_model_(config.model),
      max_tokens_(std::max(1, config.maxOutputTokens)),
      attempt1_(std::max(1, config.attempt1Ms)),
      retry_(std::max(0, config.retryMs)),
      budget_(std::max(1, config.turnBudgetMs)),
      spacing_(std::max(0, config.turnSpacingMs)),
      wall_budget_s_(config.wallClockBudgetSeconds) {}

const char* LlmClient::unavailable_cause() const { return budget_off_ ? kCauseBudgetGuard : kCauseNoCredentials; }

std::optional<int> LlmClient::guard_budget(std::chrono::seconds elapsed) {
    if (budget_off_) return std::nullopt;
    const auto turn_s = (budget_.count() + 999) / 1000;
    if (elapsed.count() + 2 * turn_s <= wall_budget_s_) return std::nullopt;
    budget_off_ = true;
    return std::max<int>(0, wall_budget_s_ - static_cast<int>(elapsed.count()));
}

HttpCall LlmClient::request_for(const LlmSeatAsk& ask, bool retry) const {
    const std::string user = llm_user_message(ask.prompt, ask.view, retry);
    return llm_request(settings_, LlmAsk{system_, user, ask.slot, config_model_, max_tokens_, bedrock_model_});
}

bool LlmClient::rotate_bedrock_model() {
    if (settings_.transport != LlmTransport::Bedrock || bedrock_model_ + 1 >= settings_.bedrock_models.size()) return false;
    ++bedrock_model_;
    return true;
}

std::string LlmClient::redacted(std::string detail) const {
    if (settings_.secret.size() < 4) return detail;
    for (std::size_t at; (at = detail.find(settings_.secret)) != std::string::npos;) detail.replace(at, settings_.secret.size(), "***");
    return detail;
}

LlmTurnResult LlmClient::run_turn(const std::vector<LlmSeatAsk>& asks, const sim::hns::OrderContext& ctx,
                                  const std::function<bool()>& stop) {
    LlmTurnResult result;
    result.answers.resize(asks.size());
    std::vector<std::size_t> open;
    for (std::size_t i = 0; i < asks.size(); ++i) {
        result.answers[i].slot = asks[i].slot;
        open.push_back(i);
    }
    // The rate floor: this batch starts turnSpacingMs after the last one (a stop ends the wait).
    if (last_batch_ && spacing_.count() > 0) {
        const auto not_before = *last_batch_ + spacing_;
        while (Clock::now() < not_before && !(stop && stop()))
            std::this_thread::sleep_for(std::min<Clock::duration>(not_before - Clock::now(), kHttpBatchStopPoll));
    }
    last_batch_ = Clock::now();
    const auto start = Clock::now();
    bool throttled = false;  // per turn: a 429 now says nothing about the next turn
    const auto note = [&](std::size_t i, int attempt, const char* cause, std::string detail) {
        result.notes.push_back(LlmFallbackNote{asks[i].slot, attempt, cause, safe_detail(redacted(std::move(detail)))});
    };
    for (int attempt = 0; attempt < 2 && !open.empty() && live(); ++attempt) {
        if (attempt > 0 && retry_.count() == 0) break;  // retryMs 0: no retry
        const milliseconds left = budget_ - since(start);
        const milliseconds wait = std::min(attempt == 0 ? attempt1_ : retry_, left);
        if (wait.count() <= 0) {
            for (std::size_t i : open)
                note(i, attempt + 1, kCauseTimeout, "the turn's budget was spent before attempt " + std::to_string(attempt + 1));
            break;
        }
        std::vector<HttpCall> calls;
        for (std::size_t i : open) calls.push_back(request_for(asks[i], attempt > 0));
        const auto sent = Clock::now();
        const std::vector<HttpAnswer> answers = run_http_batch(calls, wait, stop);
        const long long latency = since(sent).count();
        bool rotated = false;  // at most one rotation per batch, whatever its seats were told
        std::vector<std::size_t> still;
        for (std::size_t k = 0; k < open.size(); ++k) {
            const std::size_t i = open[k];
            LlmText text = read_llm_answer(k < answers.size() ? answers[k] : HttpAnswer{0, {}, true, {}});
            if (text.auth_failed) {
                if (text.model_denied && (rotated || rotate_bedrock_model())) rotated = true;
                else disabled_ = true;
            } else if (text.throttled) {
                if (rotated || rotate_bedrock_model()) rotated = true;
                else throttled = true;
            }
            if (text.ok) {
                auto order = read_llm_order(text.text, ctx);
                if (order) {
                    result.answers[i].ok = true;
                    result.answers[i].order = std::move(*order);
                    result.answers[i].latency_ms = latency;
                    continue;
                }
                text.cause = kCauseParseError;
                text.detail = order.error;
            }
            note(i, attempt + 1, text.cause.c_str(), std::move(text.detail));
            still.push_back(i);
        }
        open = std::move(still);
        if (throttled) break;  // the retry would be refused the same way
    }
    for (std::size_t i : open) {
        const char* cause = !live() ? unavailable_cause() : throttled ? kCauseThrottled : kCauseParseError;
        note(i, 2, cause, "the seat played the burrow order");
    }
    return result;
}

}  // namespace hschool::server::hns
