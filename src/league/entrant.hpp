#pragma once
// A league's entrants (issue 33): `NAME=KIND` with a kind of `builtin:burrow|scatter|idle|random|teacher`,
// `prompt:FILE`, `cmd:COMMAND` or `numeric:URL` (issue 41: a policy service a numeric player asks). Parsing and the roster's checks only; who plays the seats is
// seat_source.hpp's job.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "util/expected.hpp"

namespace hschool::league {

template <class T>
using Result = hschool::Expected<T, std::string>;

inline constexpr std::size_t kMinEntrants = 2;
// 16 entrants are 120 pairings: past that a league is a tournament of its own.
inline constexpr std::size_t kMaxEntrants = 16;
inline constexpr std::size_t kMaxNameBytes = 32;
// A prompt file's path or a command line.
inline constexpr std::size_t kMaxKindArgBytes = 4096;

enum class KindFamily { Builtin, Prompt, Command, Numeric };

struct EntrantKind {
    KindFamily family = KindFamily::Builtin;
    std::string arg;  // burrow/scatter/idle/random/teacher, the prompt file, the command line or the policy URL
    std::string text() const;  // as written: "builtin:burrow", "prompt:FILE", "cmd:COMMAND", "numeric:URL"
    // The published baselines, against which value over replacement is measured.
    bool is_baseline() const { return family == KindFamily::Builtin && (arg == "burrow" || arg == "scatter"); }
};

struct Entrant {
    std::string name;
    EntrantKind kind;
};

Result<EntrantKind> parse_kind(std::string_view text);
// NAME=KIND; a name is 1..32 of [A-Za-z0-9._-].
Result<Entrant> parse_entrant(std::string_view spec);
// 2..16 entrants, names unique.
Result<void> check_roster(const std::vector<Entrant>& entrants);

}  // namespace hschool::league
