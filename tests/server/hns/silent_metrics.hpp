#pragma once
// HnsMetrics that record nothing: a test derives from it and counts only what it checks.
#include <cstddef>

#include "server/hns/contract/hns_metrics.hpp"

namespace hschool::server::hns {

class SilentHnsMetrics : public HnsMetrics {
public:
    void match_phase(const char*, const char*) override {}
    void seat_kind(const char*, const char*) override {}
    void ticks(std::size_t) override {}
    void frame_bytes(const char*, std::size_t) override {}
    void spectator_encodes(std::size_t, std::size_t) override {}
    void viewer_resyncs(const char*, std::size_t) override {}
    void replay_seek(std::size_t) override {}
    void decision_latency(double) override {}
    void fallback(const char*) override {}
    void refused(const char*) override {}
};

}  // namespace hschool::server::hns
