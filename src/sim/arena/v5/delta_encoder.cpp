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

const p5::Frame& DeltaEncoder::next(const TickArtifacts& t, std::uint16_t self_slot) {
    const SelfEcho self = self_slot < t.self.size() ? t.self[self_slot] : SelfEcho{};
    window_ = window_around(self.present ? self.cell : 0, t.grid);
    t.visible_in(window_, now_);

    const bool keyframe = !started_ || t.tick - base_tick_ > kKeyframeAfterTicks;
    frame_.tick = t.tick;
    frame_.base_tick = started_ ? base_tick_ : 0;
    frame_.flags = keyframe ? p5::frame_flags::kKeyframe : 0;
    frame_.ack_seq = self.ack_seq;
    frame_.input_queue = self.input_queue;
    frame_.mask = self.mask;
    frame_.self_x = self.x;
    frame_.self_y = self.y;
    frame_.leaves.clear();
    frame_.enters.clear();
    frame_.updates.clear();
    frame_.far_cols = frame_.far_rows = 0;
    frame_.far.clear();
    if (keyframe) replica_.clear();

    // Merge-join the replica and the window by slot: leaves, enters, updates in slot order.
    std::size_t a = 0, b = 0;
    p5::Update update;
    while (a < replica_.size() || b < now_.size()) {
        if (b == now_.size() || (a < replica_.size() && replica_[a].slot < now_[b].slot)) {
            frame_.leaves.push_back(replica_[a++].slot);
        } else if (a == replica_.size() || now_[b].slot < replica_[a].slot) {
            frame_.enters.push_back(enter_of(now_[b++]));
        } else {
            if (replica_[a].id != now_[b].id) {  // the slot was reused: a leave, then an enter
                frame_.leaves.push_back(replica_[a].slot);
                frame_.enters.push_back(enter_of(now_[b]));
            } else if (make_update(replica_[a], now_[b], update)) {
                frame_.updates.push_back(update);
            }
            ++a, ++b;
        }
    }

    if (keyframe || !started_ || t.tick - last_far_tick_ >= kFarEvery) {
        frame_.flags |= p5::frame_flags::kFarGrid;
        frame_.far_cols = t.grid.cols;
        frame_.far_rows = t.grid.rows;
        frame_.far = t.far;
        last_far_tick_ = t.tick;
    }
    replica_.swap(now_);
    base_tick_ = t.tick;
    started_ = true;
    return frame_;
}

}  // namespace hschool::sim::arena::v5
