#pragma once
// How a refused place under a per-address budget is answered before the upgrade: 503 when the cap
// in all is reached, 429 when one address has its share; both counted and with Retry-After.
#include <optional>

#include "net/connection_limiter.hpp"
#include "server/hns/contract/admission.hpp"
#include "server/hns/contract/hns_metrics.hpp"

namespace hschool::server::hns {

struct BudgetAnswers {
    const char* total_reason;    // the metric's label when the cap in all is reached
    const char* total_text;      // the 503's body
    const char* address_reason;  // when one address has its share
    const char* address_text;    // the 429's body
    int retry_after_seconds;
};

inline std::optional<Rejection> refusal_of(net::ConnectionLimiter::Admission admission, const BudgetAnswers& answers,
                                           HnsMetrics& metrics) {
    switch (admission) {
        case net::ConnectionLimiter::Admission::Admitted: return std::nullopt;
        case net::ConnectionLimiter::Admission::TotalCapReached:
            metrics.refused(answers.total_reason);
            return Rejection{503, answers.total_text, answers.retry_after_seconds};
        case net::ConnectionLimiter::Admission::AddressCapReached:
            metrics.refused(answers.address_reason);
            return Rejection{429, answers.address_text, answers.retry_after_seconds};
    }
    return std::nullopt;
}

}  // namespace hschool::server::hns
