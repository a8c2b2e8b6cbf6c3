#include "sim/hns/reference_seats.hpp"

#include "sim/hns/constants.hpp"
#include "sim/hns/rng.hpp"

namespace hschool::sim::hns {
namespace {

// Distinct odd multipliers keep (game, slot, turn, draw) from colliding in the mixed state.
constexpr std::uint64_t kGameMix = 0xD6E8FEB86659FD93ULL;
constexpr std::uint64_t kSlotMix = 0xA0761D6478BD642FULL;
constexpr std::uint64_t kTurnMix = 0xE7037ED1A0B428DBULL;
constexpr std::uint64_t kDrawMix = 0x8EBC6AF09C88C6E3ULL;
enum Choice : int { kMoveTo, kHide, kWatch, kPush, kLock, kChase, kChoices };

class BaselineSeat final : public SeatPolicy {
public:
    explicit BaselineSeat(Baseline b) : baseline_(b) {}
    std::string_view name() const override { return baseline_ == Baseline::Scatter ? "scatter" : "burrow"; }
    Order order(const Sim& sim, const Driver& driver, int slot, int turn, const BaselineParams& params) const override {
        return baseline_order(baseline_, sim, driver, slot, turn, params);
    }

private:
    Baseline baseline_;
};

class IdleSeat final : public SeatPolicy {
public:
    std::string_view name() const override { return "idle"; }
    Order order(const Sim&, const Driver&, int, int, const BaselineParams&) const override { return Order{}; }
    std::uint8_t mask(const Sim&, Driver&, const Order&, int) const override { return 0; }
};

class RandomSeat final : public SeatPolicy {
public:
    std::string_view name() const override { return "random"; }
    Order order(const Sim& sim, const Driver&, int slot, int turn, const BaselineParams&) const override {
        int draw = 0;
        auto pick = [&](int n) {
            return static_cast<int>(random_seat_draw(sim.config().seed, sim.game_index(), slot, turn, draw++) %
                                    static_cast<std::uint64_t>(n));
        };
        Order o;
        o.fromReply = true;
        o.hasTo = true;
        o.toX = pick(kMapWidth);
        o.toY = pick(kMapHeight);
        const int choice = pick(kChoices);
        std::vector<int> touchable;
        for (int i = 0; i < static_cast<int>(sim.objects().size()); ++i)
            if (sim.may_touch(slot, i)) touchable.push_back(i);
        std::vector<const Anchor*> pockets;
        for (const auto& a : sim.room().anchors)
            if (a.kind == AnchorKind::Pocket) pockets.push_back(&a);
        if (choice == kHide && !pockets.empty()) {
            const Anchor& a = *pockets[static_cast<std::size_t>(pick(static_cast<int>(pockets.size())))];
            o.intent = Intent::Hide;
            o.at = a.id;
            o.toX = a.x;
            o.toY = a.y;
        } else if (choice == kWatch) {
            o.intent = Intent::Watch;
            o.hasFace = true;
            o.faceX = o.toX;
            o.faceY = o.toY;
        } else if ((choice == kPush || choice == kLock) && !touchable.empty()) {
            o.intent = choice == kPush ? Intent::Push : Intent::Lock;
            o.obj = sim.objects()[static_cast<std::size_t>(touchable[static_cast<std::size_t>(pick(static_cast<int>(touchable.size())))])].id;
        } else if (choice == kChase) {
            o.intent = Intent::Chase;
        } else {
            o.intent = Intent::MoveTo;
        }
        return o;
    }
};

}  // namespace

std::uint64_t random_seat_draw(std::int64_t seed, int game, int slot, int turn, int draw) {
    std::uint64_t state = static_cast<std::uint64_t>(seed) ^ (static_cast<std::uint64_t>(game) + 1) * kGameMix ^
                          (static_cast<std::uint64_t>(slot) + 1) * kSlotMix ^
                          (static_cast<std::uint64_t>(turn) + 1) * kTurnMix ^
                          (static_cast<std::uint64_t>(draw) + 1) * kDrawMix;
    splitmix64(state);
    return splitmix64(state);
}

std::shared_ptr<const SeatPolicy> baseline_seat(Baseline baseline) {
    static const auto burrow = std::make_shared<const BaselineSeat>(Baseline::Burrow);
    static const auto scatter = std::make_shared<const BaselineSeat>(Baseline::Scatter);
    return baseline == Baseline::Scatter ? scatter : burrow;
}

std::shared_ptr<const SeatPolicy> idle_seat() {
    static const auto seat = std::make_shared<const IdleSeat>();
    return seat;
}

std::shared_ptr<const SeatPolicy> random_seat() {
    static const auto seat = std::make_shared<const RandomSeat>();
    return seat;
}

}  // namespace hschool::sim::hns
