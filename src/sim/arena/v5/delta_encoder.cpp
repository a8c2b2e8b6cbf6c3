#include "sim/arena/v5/delta_encoder.hpp"

namespace hschool::sim::arena::v5 {
namespace {

namespace p5 = protocol::v5;

bool fits_i8(int v) { return v >= -128 && v <= 127; }

p5::Enter enter_of(const Visible& v) { return {v.slot, v.id, v.qx, v.qy, v.colour}; }

}  // namespace

bool make_update(const Visible& from, const Visible& to, p5::Update& out) {
    const int dx = int{to.qx} - int{from.qx};
    const int dy = int{to.qy} - int{from.qy};
    const bool recolour = to.colour != from.colour;
    if (dx == 0 && dy == 0 && !recolour) return false;
    out = p5::Update{to.slot, p5::form::kDxDy, 0, 0, 0, 0, 0, 0};
    if (!recolour && fits_i8(dx) && fits_i8(dy)) {
        out.form = dy == 0 ? p5::form::kDx : dx == 0 ? p5::form::kDy : p5::form::kDxDy;
        out.dx = static_cast<std::int8_t>(dx);
        out.dy = static_cast<std::int8_t>(dy);
        return true;
    }
    out.form = p5::form::kFields;
    if (dx != 0) out.fields |= p5::fields::kQx, out.qx = to.qx;
    if (dy != 0) out.fields |= p5::fields::kQy, out.qy = to.qy;
    if (recolour) out.fields |= p5::fields::kColour, out.colour = to.colour;
    return true;
}

const p5::Frame& DeltaEncoder::next(const std::shared_ptr<const TickArtifacts>& now_artifacts, std::uint16_t self_slot) {
    thread_local std::vector<Visible> replica, now;  // the client's replica (the base window) and the window now
    thread_local p5::Frame frame;                   // per thread, so its buffers stay in cache
    const TickArtifacts& t = *now_artifacts;
    const SelfEcho self = self_slot < t.self.size() ? t.self[self_slot] : SelfEcho{};
    const bool keyframe = !base_ || t.tick - base_->tick > kKeyframeAfterTicks;
    if (keyframe) {
        replica.clear();
    } else {
        base_->visible_in(window_, replica);
    }
    window_ = window_around(self.present ? self.cell : 0, t.grid);
    t.visible_in(window_, now);

    frame.tick = t.tick;
    frame.base_tick = base_ ? base_->tick : 0;
    frame.flags = keyframe ? p5::frame_flags::kKeyframe : 0;
    frame.ack_seq = self.ack_seq;
    frame.input_queue = self.input_queue;
    frame.mask = self.mask;
    frame.self_x = self.x;
    frame.self_y = self.y;
    frame.leaves.clear();
    frame.enters.clear();
    frame.updates.clear();
    frame.far_cols = frame.far_rows = 0;
    frame.far.clear();

    // Merge-join the replica and the window by slot: leaves, enters, updates in slot order.
    std::size_t a = 0, b = 0;
    while (a < replica.size() || b < now.size()) {
        if (b == now.size() || (a < replica.size() && replica[a].slot < now[b].slot)) {
            frame.leaves.push_back(replica[a++].slot);
        } else if (a == replica.size() || now[b].slot < replica[a].slot) {
            frame.enters.push_back(enter_of(now[b++]));
        } else {
            if (replica[a].id != now[b].id) {  // the slot was reused: a leave, then an enter
                frame.leaves.push_back(replica[a].slot);
                frame.enters.push_back(enter_of(now[b]));
            } else {
                // Written in place: building it on the stack and copying it cost a store-forwarding stall per entry.
                if (!make_update(replica[a], now[b], frame.updates.emplace_back())) frame.updates.pop_back();
            }
            ++a, ++b;
        }
    }

    if (keyframe || t.tick - last_far_tick_ >= kFarEvery) {
        frame.flags |= p5::frame_flags::kFarGrid;
        frame.far_cols = t.grid.cols;
        frame.far_rows = t.grid.rows;
        frame.far = t.far;
        last_far_tick_ = t.tick;
    }
    base_ = now_artifacts;
    return frame;
}

}  // namespace hschool::sim::arena::v5
