#include "sim/arena/v5/tick_artifacts.hpp"

#include <algorithm>

#include "protocol/v5.hpp"
#include "sim/arena/v5/delta_encoder.hpp"

namespace hschool::sim::arena::v5 {
namespace {

// Appends the record taking `from` to `to`, if anything changed; returns its size.
std::uint16_t append_record(const Visible& from, const Visible& to, protocol::Bytes& out) {
    protocol::v5::Update update;
    if (!make_update(from, to, update)) return 0;
    const std::size_t before = out.size();
    protocol::v5::append_update(update, out);
    return static_cast<std::uint16_t>(out.size() - before);
}

// What changed from `previous` to `t`, cell by cell: O(N + cells).
TickDeltas deltas_between(const TickArtifacts& previous, const TickArtifacts& t) {
    TickDeltas d;
    const std::size_t cells = t.grid.cells();
    if (previous.grid.cols != t.grid.cols || previous.grid.rows != t.grid.rows || previous.quantum_exp != t.quantum_exp)
        return d;
    d.present = true;
    d.previous_tick = previous.tick;
    d.previous_cell.assign(t.self.size(), kNoCell);
    d.stay_start.assign(cells + 1, 0);
    d.stay_count.assign(cells, 0);
    d.arrival_start.assign(cells + 1, 0);
    d.departure_start.assign(cells + 1, 0);
    for (std::size_t c = 0; c < cells; ++c) {
        for (std::uint32_t i = t.cell_start[c]; i < t.cell_start[c + 1]; ++i) {
            const Visible& now = t.by_cell[i];
            const bool was_there = now.slot < previous.self.size() && previous.self[now.slot].present &&
                                   previous.visible_of(now.slot).id == now.id;
            if (!was_there) {
                d.arrivals.push_back({now.slot, kNoCell, 0, 0});
                continue;
            }
            const std::uint16_t from = previous.self[now.slot].cell;
            const Visible& then = previous.visible_of(now.slot);
            d.previous_cell[now.slot] = from;
            if (from == c) {
                if (append_record(then, now, d.stay_records) != 0) ++d.stay_count[c];
            } else {
                const auto at = static_cast<std::uint32_t>(d.arrival_records.size());
                d.arrivals.push_back({now.slot, from, at, append_record(then, now, d.arrival_records)});
            }
        }
        d.stay_start[c + 1] = static_cast<std::uint32_t>(d.stay_records.size());
        d.arrival_start[c + 1] = static_cast<std::uint32_t>(d.arrivals.size());
    }
    for (std::size_t c = 0; c < cells && c < previous.grid.cells(); ++c) {
        for (std::uint32_t i = previous.cell_start[c]; i < previous.cell_start[c + 1]; ++i) {
            const std::uint16_t slot = previous.by_cell[i].slot;
            const bool same_player = slot < d.previous_cell.size() && d.previous_cell[slot] == c;
            if (!same_player) {
                d.departures.push_back({slot, kNoCell});
            } else if (t.self[slot].cell != c) {
                d.departures.push_back({slot, t.self[slot].cell});
            }
        }
        d.departure_start[c + 1] = static_cast<std::uint32_t>(d.departures.size());
    }
    return d;
}

}  // namespace

TickArtifacts build_artifacts(std::uint32_t tick, const ArenaSettings& settings, const std::vector<PlayerInput>& players,
                              const TickArtifacts* previous) {
    TickArtifacts t;
    t.tick = tick;
    t.grid = grid_for(settings);
    t.quantum_exp = quantum_exp_for(settings);
    const std::size_t cells = t.grid.cells();
    std::vector<std::uint16_t> cell_of_player(players.size());
    std::uint16_t slots = 0;
    t.cell_start.assign(cells + 1, 0);
    for (std::size_t i = 0; i < players.size(); ++i) {
        cell_of_player[i] = cell_of(players[i].x, players[i].y, t.grid);
        ++t.cell_start[cell_of_player[i] + 1];
        slots = std::max<std::uint16_t>(slots, static_cast<std::uint16_t>(players[i].slot + 1));
    }
    t.far.resize(cells);
    for (std::size_t c = 0; c < cells; ++c) {
        t.far[c] = static_cast<std::uint8_t>(std::min<std::uint32_t>(t.cell_start[c + 1], 255));
        t.cell_start[c + 1] += t.cell_start[c];
    }
    // Counting sort in slot order: walk the players by slot, so each cell's run comes out sorted.
    std::vector<std::uint32_t> by_slot(slots, UINT32_MAX);
    for (std::size_t i = 0; i < players.size(); ++i) by_slot[players[i].slot] = static_cast<std::uint32_t>(i);
    t.by_cell.resize(players.size());
    t.self.resize(slots);
    t.at_of_slot.assign(slots, 0);
    std::vector<std::uint32_t> next(t.cell_start.begin(), t.cell_start.end() - 1);
    for (std::uint32_t index : by_slot) {
        if (index == UINT32_MAX) continue;
        const PlayerInput& p = players[index];
        const std::uint16_t cell = cell_of_player[index];
        t.at_of_slot[p.slot] = next[cell];
        t.by_cell[next[cell]++] = {p.slot, p.id, quantise(p.x, t.quantum_exp), quantise(p.y, t.quantum_exp), p.colour};
        t.self[p.slot] = {true, p.ack_seq, p.input_queue, p.mask, p.x, p.y, cell};
    }
    if (previous) t.deltas = deltas_between(*previous, t);
    return t;
}

void TickArtifacts::visible_in(const Window& window, std::vector<Visible>& out) const {
    out.clear();
    for (int row = window.row0; row < window.row1; ++row) {
        const std::size_t first = static_cast<std::size_t>(row) * grid.cols;
        const auto begin = by_cell.begin() + cell_start[first + static_cast<std::size_t>(window.col0)];
        const auto end = by_cell.begin() + cell_start[first + static_cast<std::size_t>(window.col1)];
        out.insert(out.end(), begin, end);
    }
    std::sort(out.begin(), out.end(), [](const Visible& a, const Visible& b) { return a.slot < b.slot; });
}

}  // namespace hschool::sim::arena::v5
