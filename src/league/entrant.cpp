#include "league/entrant.hpp"

#include <algorithm>

namespace hschool::league {
namespace {

constexpr std::string_view kBuiltins[] = {"burrow", "scatter", "idle", "random", "teacher"};
constexpr std::string_view kBuiltinPrefix = "builtin:";
constexpr std::string_view kPromptPrefix = "prompt:";
constexpr std::string_view kCommandPrefix = "cmd:";
constexpr std::string_view kNumericPrefix = "numeric:";
constexpr std::size_t kMaxEchoBytes = 64;
constexpr const char* kKindHelp =
    "builtin:burrow, builtin:scatter, builtin:idle, builtin:random, builtin:teacher, prompt:FILE, cmd:COMMAND or numeric:URL";

bool name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
}

// Printable text and tabs only: the argument lands in league.json and on a command line.
bool printable(std::string_view s) {
    return std::all_of(s.begin(), s.end(), [](char c) { return c == '\t' || static_cast<unsigned char>(c) >= 0x20; }) &&
           s.find('\x7f') == std::string_view::npos;
}

// Echoes of user text in errors stay short.
std::string clip(std::string_view s) { return std::string(s.substr(0, kMaxEchoBytes)); }

}  // namespace

std::string EntrantKind::text() const {
    switch (family) {
        case KindFamily::Builtin: return std::string(kBuiltinPrefix) + arg;
        case KindFamily::Prompt: return std::string(kPromptPrefix) + arg;
        case KindFamily::Command: return std::string(kCommandPrefix) + arg;
        case KindFamily::Numeric: return std::string(kNumericPrefix) + arg;
    }
    return arg;
}

Result<EntrantKind> parse_kind(std::string_view text) {
    const auto fail = [](std::string m) { return Result<EntrantKind>(hschool::unexpected(std::move(m))); };
    EntrantKind kind;
    std::string_view arg;
    if (text.starts_with(kBuiltinPrefix)) {
        arg = text.substr(kBuiltinPrefix.size());
        if (std::find(std::begin(kBuiltins), std::end(kBuiltins), arg) == std::end(kBuiltins))
            return fail("unknown kind '" + clip(text) + "' (" + kKindHelp + ")");
    } else if (text.starts_with(kPromptPrefix)) {
        kind.family = KindFamily::Prompt;
        arg = text.substr(kPromptPrefix.size());
    } else if (text.starts_with(kCommandPrefix)) {
        kind.family = KindFamily::Command;
        arg = text.substr(kCommandPrefix.size());
    } else if (text.starts_with(kNumericPrefix)) {
        kind.family = KindFamily::Numeric;
        arg = text.substr(kNumericPrefix.size());
        if (!arg.empty() && !arg.starts_with("http://") && !arg.starts_with("https://"))
            return fail("kind '" + clip(text) + "': the policy's URL must start with http:// or https://");
    } else {
        return fail("unknown kind '" + clip(text) + "' (" + kKindHelp + ")");
    }
    if (arg.empty())
        return fail("kind '" + clip(text) + "' needs a " +
                    (kind.family == KindFamily::Prompt ? "file" : kind.family == KindFamily::Numeric ? "URL" : "command"));
    if (arg.size() > kMaxKindArgBytes) return fail("kind: longer than " + std::to_string(kMaxKindArgBytes) + " bytes");
    if (!printable(arg)) return fail("kind: control characters are not allowed");
    kind.arg = std::string(arg);
    return kind;
}

Result<Entrant> parse_entrant(std::string_view spec) {
    const auto fail = [](std::string m) { return Result<Entrant>(hschool::unexpected(std::move(m))); };
    const auto eq = spec.find('=');
    if (eq == std::string_view::npos) return fail("entrant '" + clip(spec) + "': expected NAME=KIND");
    const std::string_view name = spec.substr(0, eq);
    if (name.empty() || name.size() > kMaxNameBytes || !std::all_of(name.begin(), name.end(), name_char))
        return fail("entrant name '" + clip(name) + "': 1 to " + std::to_string(kMaxNameBytes) +
                    " of A-Z a-z 0-9 . _ -");
    auto kind = parse_kind(spec.substr(eq + 1));
    if (!kind) return fail("entrant " + std::string(name) + ": " + kind.error());
    return Entrant{std::string(name), std::move(*kind)};
}

Result<void> check_roster(const std::vector<Entrant>& entrants) {
    const auto fail = [](std::string m) { return Result<void>(hschool::unexpected(std::move(m))); };
    if (entrants.size() < kMinEntrants)
        return fail("a league needs at least " + std::to_string(kMinEntrants) + " entrants (--entrant NAME=KIND, given " +
                    std::to_string(entrants.size()) + ")");
    if (entrants.size() > kMaxEntrants) return fail("at most " + std::to_string(kMaxEntrants) + " entrants");
    for (std::size_t i = 0; i < entrants.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (entrants[i].name == entrants[j].name) return fail("entrant name '" + entrants[i].name + "' given twice");
    return {};
}

}  // namespace hschool::league
