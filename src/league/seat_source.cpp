#include "league/seat_source.hpp"

#include "sim/hns/reference_seats.hpp"
#include "sim/hns/teacher_seat.hpp"

namespace hschool::league {
namespace {

class BuiltinSource final : public SeatSource {
public:
    explicit BuiltinSource(EntrantKind kind) : kind_(std::move(kind)) {
        if (kind_.arg == "idle") policy_ = sim::hns::idle_seat();
        else if (kind_.arg == "random") policy_ = sim::hns::random_seat();
        else if (kind_.arg == "teacher") policy_ = sim::hns::teacher_seat();
        else policy_ = sim::hns::baseline_seat(sim::hns::parse_baseline(kind_.arg));
    }
    const EntrantKind& kind() const override { return kind_; }
    std::shared_ptr<const sim::hns::SeatPolicy> headless_policy() const override { return policy_; }

private:
    EntrantKind kind_;
    std::shared_ptr<const sim::hns::SeatPolicy> policy_;
};

// prompt:, cmd: and numeric: — seated through a server only.
class ServerOnlySource final : public SeatSource {
public:
    explicit ServerOnlySource(EntrantKind kind) : kind_(std::move(kind)) {}
    const EntrantKind& kind() const override { return kind_; }
    std::shared_ptr<const sim::hns::SeatPolicy> headless_policy() const override { return nullptr; }

private:
    EntrantKind kind_;
};

}  // namespace

std::unique_ptr<SeatSource> make_seat_source(const EntrantKind& kind) {
    if (kind.family == KindFamily::Builtin) return std::make_unique<BuiltinSource>(kind);
    return std::make_unique<ServerOnlySource>(kind);
}

}  // namespace hschool::league
