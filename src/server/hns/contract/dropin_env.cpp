#include "server/hns/contract/dropin_env.hpp"

#include <string>
#include <utility>

namespace hschool::server::hns {
namespace {

constexpr std::string_view kFileScheme = "file://";

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}

// nullptr and "" both mean unset, as the reference's getEnv gives "" for a missing variable.
std::string_view read(const std::function<const char*(const char*)>& getenv, const char* name) {
    const char* value = getenv(name);
    return value == nullptr ? std::string_view{} : std::string_view{value};
}

// Digits only (no sign, no spaces), so "8080 " or "+80" is a typo caught rather than guessed.
Expected<std::uint32_t> parse_decimal(std::string_view text, std::uint32_t max) {
    if (text.empty() || text.size() > 10) return Expected<std::uint32_t>::fail("not a decimal integer");
    std::uint64_t value = 0;
    for (const char c : text) {
        if (c < '0' || c > '9') return Expected<std::uint32_t>::fail("not a decimal integer");
        value = value * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (value > max) return Expected<std::uint32_t>::fail("out of range");
    return Expected<std::uint32_t>::ok(static_cast<std::uint32_t>(value));
}

Expected<DropInEnv> fail_for(const char* name, const std::string& message) {
    return Expected<DropInEnv>::fail(std::string(name) + ": " + message);
}

}  // namespace

Expected<std::filesystem::path> file_uri_path(std::string_view uri) {
    using Result = Expected<std::filesystem::path>;
    if (uri.size() > kMaxDropInUriBytes) return Result::fail("URI too long");
    if (uri.size() < kFileScheme.size() || !iequals(uri.substr(0, kFileScheme.size()), kFileScheme))
        return Result::fail("only file:// URIs are supported");
    std::string_view rest = uri.substr(kFileScheme.size());
    const std::size_t slash = rest.find('/');
    const std::string_view authority = rest.substr(0, slash);
    if (!authority.empty() && !iequals(authority, "localhost"))
        return Result::fail("file:// URIs with a host are not supported (use file:///absolute/path)");
    if (slash == std::string_view::npos) return Result::fail("file:// URI names no absolute path");
    const std::string_view encoded = rest.substr(slash);
    if (encoded.find_first_of("?#") != std::string_view::npos)
        return Result::fail("file:// URI must not have a query or fragment");

    std::string path;
    path.reserve(encoded.size());
    for (std::size_t i = 0; i < encoded.size(); ++i) {
        const char c = encoded[i];
        if (c != '%') {
            path.push_back(c);
            continue;
        }
        if (i + 2 >= encoded.size()) return Result::fail("truncated percent escape in file:// URI");
        const int hi = hex_value(encoded[i + 1]);
        const int lo = hex_value(encoded[i + 2]);
        if (hi < 0 || lo < 0) return Result::fail("bad percent escape in file:// URI");
        const char decoded = static_cast<char>(hi * 16 + lo);
        if (decoded == '\0') return Result::fail("NUL in file:// URI");
        path.push_back(decoded);
        i += 2;
    }
    // Every drop-in URI names a file; "file:///" or ".../dir/" cannot be read or written as one.
    if (path.back() == '/') return Result::fail("file:// URI names a directory, not a file");
    return Result::ok(std::filesystem::path(std::move(path)));
}

Expected<DropInEnv> read_dropin_env(const std::function<const char*(const char*)>& getenv) {
    DropInEnv env;
    const bool replay = !read(getenv, "COGAME_LOAD_REPLAY_URI").empty();
    if (read(getenv, "COGAME_CONFIG_URI").empty() && !replay) return Expected<DropInEnv>::ok(std::move(env));
    env.active = !replay;
    env.replay = replay;
    env.load_replay_uri = std::string(read(getenv, "COGAME_LOAD_REPLAY_URI"));

    if (const auto host = read(getenv, "COGAME_HOST"); !host.empty()) {
        if (host.size() > kMaxDropInHostBytes) return fail_for("COGAME_HOST", "host name too long");
        for (const char c : host)
            if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7F)
                return fail_for("COGAME_HOST", "host must not contain spaces or control characters");
        env.host = std::string(host);
    }
    if (const auto port = read(getenv, "COGAME_PORT"); !port.empty()) {
        const auto parsed = parse_decimal(port, 65535);
        if (!parsed || *parsed == 0) return fail_for("COGAME_PORT", "must be an integer between 1 and 65535");
        env.port = static_cast<std::uint16_t>(*parsed);
    }

    const std::pair<const char*, std::filesystem::path DropInEnv::*> uris[] = {
        {"COGAME_CONFIG_URI", &DropInEnv::config},
        {"COGAME_RESULTS_URI", &DropInEnv::results},
        {"COGAME_SAVE_REPLAY_URI", &DropInEnv::save_replay},
        {"COGAME_LOAD_REPLAY_URI", &DropInEnv::load_replay},
        {"COGAME_EVENTS_URI", &DropInEnv::events},
        {"COGAME_METRICS_URI", &DropInEnv::metrics},
        {"COGAME_PLAYER_FAILURE_URI", &DropInEnv::player_failure},
    };
    for (const auto& [name, member] : uris) {
        const auto value = read(getenv, name);
        if (value.empty()) continue;
        auto path = file_uri_path(value);
        if (!path) return fail_for(name, path.error);
        env.*member = std::move(*path);
    }

    if (const auto linger = read(getenv, kDropInLingerEnv); !linger.empty()) {
        const auto parsed = parse_decimal(linger, static_cast<std::uint32_t>(kDropInLinger.count()));
        if (!parsed)
            return fail_for(kDropInLingerEnv,
                            "must be an integer between 0 and " + std::to_string(kDropInLinger.count()));
        env.linger = std::chrono::milliseconds(*parsed);
    }
    return Expected<DropInEnv>::ok(std::move(env));
}

}  // namespace hschool::server::hns
