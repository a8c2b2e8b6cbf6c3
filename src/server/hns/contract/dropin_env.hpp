#pragma once
// The drop-in environment (spec §2.9): when COGAME_CONFIG_URI is set, the server runs exactly one
// match with that config, writes its artifacts to the COGAME_*_URI files, keeps answering HTTP for
// `linger` and exits. Only the parsing lives here: pure, no Boost, getenv passed in.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

#include "server/hns/contract/expected.hpp"

namespace hschool::server::hns {

// Bitworld runtime.nim: RuntimeDefaultHost and RuntimeDefaultPort.
inline constexpr const char* kDropInDefaultHost = "0.0.0.0";
inline constexpr std::uint16_t kDropInDefaultPort = 8080;
// Spec §2.9 quit sequence: "keeps answering HTTP for 20 s".
inline constexpr std::chrono::milliseconds kDropInLinger{20000};
// A URI longer than PATH_MAX cannot name a file we could open anyway.
inline constexpr std::size_t kMaxDropInUriBytes = 4096;
// Host names are at most 253 characters (RFC 1035); an address literal is shorter.
inline constexpr std::size_t kMaxDropInHostBytes = 253;

// Ours, not the reference's: shortens the linger (0..kDropInLinger ms) so tests need not wait 20 s.
inline constexpr const char* kDropInLingerEnv = "HSCHOOL_DROPIN_LINGER_MS";

struct DropInEnv {
    bool active = false;                    // COGAME_CONFIG_URI is set and non-empty (and no replay to load)
    bool replay = false;                    // COGAME_LOAD_REPLAY_URI is set: replay-server mode, no match
    std::string load_replay_uri;            // that URI as given: /replay?uri= must name exactly it
    std::string host = kDropInDefaultHost;  // COGAME_HOST (empty = default)
    std::uint16_t port = kDropInDefaultPort;  // COGAME_PORT, 1..65535 (empty = default)
    // Local paths of the file:// URIs; an empty path means the variable was not set (or was empty).
    std::filesystem::path config;          // COGAME_CONFIG_URI: the match config to read
    std::filesystem::path results;         // COGAME_RESULTS_URI: results JSON to write
    std::filesystem::path save_replay;     // COGAME_SAVE_REPLAY_URI: COWLDHNS replay to write
    std::filesystem::path load_replay;     // COGAME_LOAD_REPLAY_URI: replay to play back instead
    std::filesystem::path events;          // COGAME_EVENTS_URI: events to write
    std::filesystem::path metrics;         // COGAME_METRICS_URI: metrics to write
    std::filesystem::path player_failure;  // COGAME_PLAYER_FAILURE_URI: lobby-timeout failure report
    std::chrono::milliseconds linger{kDropInLinger};  // HTTP stays up this long after the artifacts
};

// Reads every variable through `getenv` (nullptr or "" = unset). Without COGAME_CONFIG_URI and
// COGAME_LOAD_REPLAY_URI the result is inactive and the other COGAME_* variables are not read; with
// a replay to load, replay mode wins over a config (as the reference's replayServerMode does). Errors name the variable,
// e.g. "COGAME_RESULTS_URI: only file:// URIs are supported"; they never echo a URI's value.
Expected<DropInEnv> read_dropin_env(const std::function<const char*(const char*)>& getenv);

// file:///abs/path (or file://localhost/abs/path; scheme case-insensitive) → /abs/path, with
// percent escapes decoded. Refused: other schemes, a host, a relative or directory path ("/" at the
// end), '?' or '#', a bad escape, a decoded NUL, more than kMaxDropInUriBytes.
Expected<std::filesystem::path> file_uri_path(std::string_view uri);

}  // namespace hschool::server::hns
