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

namespace {

bool in_window(const Window& w, std::uint16_t cell, const Grid& grid) {
    return cell != kNoCell && w.contains(cell % grid.cols, cell / grid.cols);
}

// Per-thread scratch, so its buffers stay in cache from one connection to the next.
struct Scratch {
    p5::Frame frame;                    // header, leaves and enters; its updates stay empty
    protocol::Bytes records;            // the updates section's records
    std::uint16_t record_count = 0;
    // The merge's marks by slot: kInBase when the base window held it, kMatched once seen now.
    std::vector<std::uint32_t> mark;
    std::vector<const Visible*> in_base;
    std::uint32_t epoch = 0;

    void add_record(const Visible& from, const Visible& to) {
        p5::Update update;
        if (!make_update(from, to, update)) return;
        p5::append_update(update, records);
        ++record_count;
    }
    // A fresh pair of mark values (epoch: in the base; epoch + 1: matched).
    void next_epoch() {
        if (mark.empty()) mark.assign(p5::kSlotLimit, 0), in_base.assign(p5::kSlotLimit, nullptr);
        epoch += 2;
        if (epoch < 2) {  // wrapped: forget every old mark
            std::fill(mark.begin(), mark.end(), 0);
            epoch = 2;
        }
    }
};
thread_local Scratch scratch;

template <class Each>
void each_in(const TickArtifacts& t, const Window& w, Each&& each) {
    for (int row = w.row0; row < w.row1; ++row) {
        const std::size_t first = static_cast<std::size_t>(row) * t.grid.cols;
        const std::uint32_t end = t.cell_start[first + static_cast<std::size_t>(w.col1)];
        for (std::uint32_t i = t.cell_start[first + static_cast<std::size_t>(w.col0)]; i < end; ++i) each(t.by_cell[i]);
    }
}

}  // namespace

// The client holds exactly the base window's players at the base tick: mark them by slot, then
// walk the window now (a marked slot with the same id is an update, anything else an enter) and
// the base again (a slot still marked was not seen: a leave). O(window) from any base.
void DeltaEncoder::merge(const TickArtifacts& t, const Window& now_window, bool keyframe) {
    Scratch& x = scratch;
    p5::Frame& frame = x.frame;
    x.next_epoch();
    const std::uint32_t in_base = x.epoch, matched = x.epoch + 1;
    if (!keyframe) each_in(*base_, window_, [&](const Visible& v) { x.mark[v.slot] = in_base, x.in_base[v.slot] = &v; });
    each_in(t, now_window, [&](const Visible& v) {
        const bool held = x.mark[v.slot] == in_base;
        if (held && x.in_base[v.slot]->id == v.id) {
            x.add_record(*x.in_base[v.slot], v);
        } else {
            if (held) frame.leaves.push_back(v.slot);  // the slot was reused: a leave, then an enter
            frame.enters.push_back(enter_of(v));
        }
        if (held) x.mark[v.slot] = matched;
    });
    if (!keyframe)
        each_in(*base_, window_, [&](const Visible& v) {
            if (x.mark[v.slot] == in_base) frame.leaves.push_back(v.slot);
        });
}

// The base is the previous tick's artefacts, so t's deltas say what changed. A player counts when
// it was in the base window then (W0) or is in the window now (W1): in both is an update, only
// then a leave, only now an enter. Cells in both windows copy their stayers' records whole.
void DeltaEncoder::code_from_deltas(const TickArtifacts& t, const Window& now_window) {
    Scratch& x = scratch;
    const TickDeltas& d = t.deltas;
    const Grid& grid = t.grid;
    const Window& then_window = window_;
    p5::Frame& frame = x.frame;
    for (int row = now_window.row0; row < now_window.row1; ++row) {
        for (int col = now_window.col0; col < now_window.col1; ++col) {
            const std::size_t c = static_cast<std::size_t>(row) * grid.cols + static_cast<std::size_t>(col);
            if (then_window.contains(col, row)) {
                x.records.insert(x.records.end(), d.stay_records.begin() + d.stay_start[c], d.stay_records.begin() + d.stay_start[c + 1]);
                x.record_count = static_cast<std::uint16_t>(x.record_count + d.stay_count[c]);
            } else {
                for (std::uint32_t i = t.cell_start[c]; i < t.cell_start[c + 1]; ++i)
                    if (d.previous_cell[t.by_cell[i].slot] == c) frame.enters.push_back(enter_of(t.by_cell[i]));
            }
            for (std::uint32_t i = d.arrival_start[c]; i < d.arrival_start[c + 1]; ++i) {
                const Arrival& a = d.arrivals[i];
                if (!in_window(then_window, a.from_cell, grid)) {
                    frame.enters.push_back(enter_of(t.visible_of(a.slot)));
                } else if (a.record_bytes != 0) {
                    const auto first = d.arrival_records.begin() + a.record_at;
                    x.records.insert(x.records.end(), first, first + a.record_bytes);
                    ++x.record_count;
                }
            }
        }
    }
    const TickArtifacts& base = *base_;
    for (int row = then_window.row0; row < then_window.row1; ++row) {
        for (int col = then_window.col0; col < then_window.col1; ++col) {
            const std::size_t c = static_cast<std::size_t>(row) * grid.cols + static_cast<std::size_t>(col);
            if (now_window.contains(col, row)) {
                for (std::uint32_t i = d.departure_start[c]; i < d.departure_start[c + 1]; ++i)
                    if (!in_window(now_window, d.departures[i].to_cell, grid)) frame.leaves.push_back(d.departures[i].slot);
            } else {
                // The whole cell left the window: everyone in it then leaves, unless now in the window.
                for (std::uint32_t i = base.cell_start[c]; i < base.cell_start[c + 1]; ++i) {
                    const std::uint16_t slot = base.by_cell[i].slot;
                    const bool same_player = slot < d.previous_cell.size() && d.previous_cell[slot] == c;
                    if (!same_player || !in_window(now_window, t.self[slot].cell, grid)) frame.leaves.push_back(slot);
                }
            }
        }
    }
}

void DeltaEncoder::encode_next(const std::shared_ptr<const TickArtifacts>& now_artifacts, std::uint16_t self_slot,
                               protocol::Bytes& out) {
    const TickArtifacts& t = *now_artifacts;
    const SelfEcho self = self_slot < t.self.size() ? t.self[self_slot] : SelfEcho{};
    const bool keyframe = !started_ || t.tick - base_tick_ > kKeyframeAfterTicks;  // base_ is held whenever this is false
    const bool from_deltas = !keyframe && t.deltas.present && t.deltas.previous_tick == base_tick_;
    const Window now_window = window_around(self.present ? self.cell : 0, t.grid);

    Scratch& x = scratch;
    p5::Frame& frame = x.frame;
    frame.tick = t.tick;
    frame.base_tick = started_ ? base_tick_ : 0;
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
    x.records.clear();
    x.record_count = 0;
    if (keyframe || t.tick - last_far_tick_ >= kFarEvery) {
        frame.flags |= p5::frame_flags::kFarGrid;
        frame.far_cols = t.grid.cols;
        frame.far_rows = t.grid.rows;
        frame.far = t.far;
        last_far_tick_ = t.tick;
    }

    if (from_deltas) {
        code_from_deltas(t, now_window);
        ++frames_from_deltas_;
    } else {
        merge(t, now_window, keyframe);
    }
    p5::encode_into(frame, p5::EncodedUpdates{x.record_count, x.records}, out);
    window_ = now_window;
    base_ = now_artifacts;
    base_tick_ = t.tick;
    started_ = true;
}

void DeltaEncoder::skip(std::uint32_t tick) {
    if (started_ && tick - base_tick_ > kKeyframeAfterTicks) base_.reset();  // the next Frame is a keyframe anyway
}

p5::Frame DeltaEncoder::next(const std::shared_ptr<const TickArtifacts>& t, std::uint16_t self_slot) {
    protocol::Bytes bytes;
    encode_next(t, self_slot, bytes);
    auto decoded = p5::decode_server(bytes);
    return std::get<p5::Frame>(*decoded);  // our own encoder's bytes: a failure here is a bug the tests see
}

}  // namespace hschool::sim::arena::v5
