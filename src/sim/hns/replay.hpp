#pragma once
// The COWLDHNS v1 replay file (spec §5.2): header, six record types, control records as chat,
// gzip/zlib detection on read. Reading returns an error and never throws; every length is
// checked against the bytes left. Writing builds bytes in memory (the caller owns the file).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/hns/expected.hpp"
#include "sim/hns/game_version.hpp"

namespace hschool::sim::hns {

inline constexpr char kReplayMagic[] = "COWLDHNS";
inline constexpr std::size_t kReplayMagicLen = 8;
inline constexpr std::uint16_t kReplayFormatVersion = 1;
inline constexpr std::size_t kMaxReplayBytes = 256u << 20;  // inflated size cap
inline constexpr std::size_t kMaxReplayString = 0xFFFF;

enum : std::uint8_t {
    kRecHash = 0x01, kRecInput = 0x02, kRecJoin = 0x03, kRecLeave = 0x04, kRecChat = 0x05, kRecDebug = 0x06
};

struct ReplayHash { std::uint32_t tick = 0; std::uint64_t hash = 0; };
struct ReplayInput { std::uint32_t ms = 0; std::uint8_t player = 0; std::uint8_t mask = 0; };
struct ReplayJoin { std::uint32_t ms = 0; std::uint8_t player = 0; std::string name; int slot = -1; std::string token; };
struct ReplayLeave { std::uint32_t ms = 0; std::uint8_t player = 0; };
struct ReplayChat { std::uint32_t ms = 0; std::uint8_t player = 0; std::string message; };
struct ReplayDebug { std::uint32_t ms = 0; std::uint8_t player = 0; std::string packet; };

struct ReplayData {
    std::string gameName, gameVersion, configJson;
    GameVersion version = kCurrentGameVersion;  // gameVersion parsed: the rules that re-step it
    std::uint64_t startMs = 0;
    std::vector<ReplayHash> hashes;
    std::vector<ReplayInput> inputs;
    std::vector<ReplayJoin> joins;
    std::vector<ReplayLeave> leaves;
    std::vector<ReplayChat> chats;
    std::vector<ReplayDebug> debugs;
    bool compressed = false;
};

// ms = tick * 1000 / 24, from the tick count before the step.
std::uint32_t replay_tick_time(int tick);

// maxInflated caps what a compressed file may inflate to.
Expected<ReplayData> parse_replay(std::string_view bytes, std::size_t maxInflated = kMaxReplayBytes);

// Writes records in the order the server does; inputs only when a cog's mask changed.
class ReplayWriter {
public:
    // The header names `version`: the rules the match is played by and will be re-stepped by.
    ReplayWriter(std::string_view configJson, std::uint64_t startMs, GameVersion version);
    void join(std::uint32_t ms, int player, std::string_view name, int slot, std::string_view token);
    void input_if_changed(std::uint32_t ms, int player, std::uint8_t mask);
    void chat(std::uint32_t ms, int player, std::string_view message);
    void hash(std::uint32_t tick, std::uint64_t value);
    const std::string& bytes() const { return bytes_; }
    // False when a string was longer than a u16 length allows (it was cut to fit).
    bool ok() const { return ok_; }

private:
    void u8(std::uint8_t v) { bytes_.push_back(static_cast<char>(v)); }
    void u16(std::uint16_t v);
    void u32(std::uint32_t v);
    void u64(std::uint64_t v);
    void str(std::string_view s);
    std::string bytes_;
    std::vector<int> lastMasks_;
    bool ok_ = true;
};

}  // namespace hschool::sim::hns
