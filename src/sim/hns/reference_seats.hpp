#pragma once
// Two fixed reference points beside the published baselines, for leagues (issue 33): `idle`
// never moves (every mask 0), and `random` gives a random order each decision turn, drawn from
// the match seed, game, slot and turn alone, so a replay of it re-steps and a rerun repeats it.
// The two baselines come as policies too, playing exactly as MatchOptions::seats plays them.
#include <memory>

#include "sim/hns/seat_policy.hpp"

namespace hschool::sim::hns {

std::shared_ptr<const SeatPolicy> baseline_seat(Baseline baseline);
std::shared_ptr<const SeatPolicy> idle_seat();
std::shared_ptr<const SeatPolicy> random_seat();

// The draw behind random_seat's choices: splitmix64 of (seed, game, slot, turn, draw).
std::uint64_t random_seat_draw(std::int64_t seed, int game, int slot, int turn, int draw);

}  // namespace hschool::sim::hns
