#pragma once
// Suggested school names for the create dialog, never one that already exists.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "content/lang.hpp"

namespace hschool::content {

// The same bound as POST /api/schools puts on a name (400 invalid-name above it).
inline constexpr std::size_t kMaxSchoolNameChars = 40;
// Draws tried before falling back to numbering, so a nearly full `taken` set still ends quickly.
inline constexpr std::size_t kMaxNameDraws = 256;

// A name of at most kMaxSchoolNameChars characters that is not in `taken` (exact match).
// The same seed and taken set give the same name.
std::string random_school_name(Lang lang, const std::set<std::string>& taken, std::uint64_t seed);

// Every name the patterns can produce within the length bound, for tests and the docs.
std::vector<std::string> all_school_names(Lang lang);

}  // namespace hschool::content
