#pragma once
// A seed string as the reference's training bridge turns it into the sim's seed: Nim 2.x's
// hash(string) — FarmHash's Fingerprint64 ("na" variant) as a signed 64-bit integer — masked by
// hash(high(int)), so "0" → -9078814839853187016 and "42" → 576622416214721800.
#include <cstdint>
#include <string_view>

namespace hschool::sim::hns {

// Nim 2.x's hash(high(int)): the mask its bridge applies.
inline constexpr std::uint64_t kNimHighIntHash = 0x8e039b09793985b8ULL;

// Nim 2.x's hash(string).
std::int64_t nim_string_hash(std::string_view text);
std::int64_t bridge_seed_of(std::string_view text);

}  // namespace hschool::sim::hns
