// hschool-replay FILE: verifies an arena replay by re-simulating it.
// Exit codes: 0 all ticks matched (a cut-off last record is reported but still passes),
// 1 hash mismatch, 2 usage error, unreadable file or malformed replay.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>

#include "protocol/bytes.hpp"
#include "sim/replay/replay_verify.hpp"

namespace {

constexpr int kExitMatched = 0;
constexpr int kExitMismatch = 1;
constexpr int kExitError = 2;
// Well above a day of recording at 20 Hz; anything larger is not one of our replays.
constexpr std::streamoff kMaxReplayFileBytes = std::streamoff{4} << 30;

std::optional<hschool::protocol::Bytes> read_file(const char* path) {
    std::ifstream file(path, std::ios::binary | std::ios::ate);
    if (!file) return std::nullopt;
    const std::streamoff size = file.tellg();
    if (size < 0 || size > kMaxReplayFileBytes) return std::nullopt;
    file.seekg(0);
    hschool::protocol::Bytes bytes(static_cast<std::size_t>(size));
    if (!file.read(reinterpret_cast<char*>(bytes.data()), size)) return std::nullopt;
    return bytes;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: hschool-replay FILE\n");
        return kExitError;
    }
    const auto bytes = read_file(argv[1]);
    if (!bytes) {
        std::fprintf(stderr, "hschool-replay: cannot read %s\n", argv[1]);
        return kExitError;
    }
    const auto verdict = hschool::sim::replay::verify_replay(*bytes);
    const std::string line = hschool::sim::replay::describe(verdict);
    if (verdict.first_mismatch_tick) {
        std::printf("%s\n", line.c_str());
        return kExitMismatch;
    }
    if (!verdict.matched()) {
        std::fprintf(stderr, "hschool-replay: %s: %s\n", argv[1], line.c_str());
        return kExitError;
    }
    std::printf("%s\n", line.c_str());
    return kExitMatched;
}
