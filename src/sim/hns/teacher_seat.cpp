#include "sim/hns/teacher_seat.hpp"

#include "sim/hns/order_catalog.hpp"
#include "sim/hns/seat_view.hpp"

namespace hschool::sim::hns {
namespace {

class TeacherSeat final : public SeatPolicy {
public:
    std::string_view name() const override { return "teacher"; }
    Order order(const Sim& sim, const Driver& driver, int slot, int turn, const BaselineParams& params) const override {
        const Order burrow = baseline_order(Baseline::Burrow, sim, driver, slot, turn, params);
        // The catalog reads the room, the objects and the seat's role: no memory is needed for it.
        auto catalog = order_catalog(seat_view_object(SeatViewInput{sim, driver, slot, turn, false, {}}));
        if (!catalog) return burrow;
        const auto& entry = (*catalog)[static_cast<std::size_t>(teacher_index(*catalog, burrow))];
        return entry ? order_from_catalog(*entry, order_context(sim)) : burrow;
    }
};

}  // namespace

std::shared_ptr<const SeatPolicy> teacher_seat() {
    static const auto seat = std::make_shared<const TeacherSeat>();
    return seat;
}

}  // namespace hschool::sim::hns
