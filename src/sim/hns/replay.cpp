#include "sim/hns/replay.hpp"

#include <zlib.h>

#include "sim/hns/constants.hpp"

namespace hschool::sim::hns {
namespace {

constexpr std::size_t kInflateChunk = 1 << 16;

bool looks_compressed(std::string_view b) {
    const auto u = [&](std::size_t i) { return static_cast<unsigned char>(b[i]); };
    if (b.size() > 18 && u(0) == 0x1f && u(1) == 0x8b && u(2) == 8 && (u(3) & 0xE0) == 0) return true;
    if (b.size() > 6 && (u(0) & 0x0F) == 8 && (u(0) >> 4) <= 7 && ((u(0) * 256 + u(1)) % 31) == 0) return true;
    return false;
}

// gzip or zlib, auto-detected; capped so a hostile file cannot inflate without bound.
Expected<std::string> inflate_all(std::string_view in, std::size_t cap) {
    z_stream zs{};
    if (inflateInit2(&zs, 15 + 32) != Z_OK) return Expected<std::string>::fail("zlib: cannot initialise");
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    zs.avail_in = static_cast<uInt>(in.size());
    std::string out;
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
        if (out.size() >= cap) {
            inflateEnd(&zs);
            return Expected<std::string>::fail("replay: inflates past " + std::to_string(cap) + " bytes");
        }
        const std::size_t had = out.size();
        out.resize(had + kInflateChunk);
        zs.next_out = reinterpret_cast<Bytef*>(out.data() + had);
        zs.avail_out = static_cast<uInt>(kInflateChunk);
        rc = inflate(&zs, Z_NO_FLUSH);
        out.resize(had + kInflateChunk - zs.avail_out);
        if (rc != Z_OK && rc != Z_STREAM_END) {
            inflateEnd(&zs);
            return Expected<std::string>::fail("replay: compressed stream is corrupt or truncated");
        }
        if (rc == Z_OK && zs.avail_in == 0 && zs.avail_out != 0) {
            inflateEnd(&zs);
            return Expected<std::string>::fail("replay: compressed stream is truncated");
        }
    }
    inflateEnd(&zs);
    return Expected<std::string>::ok(std::move(out));
}

struct Cursor {
    std::string_view b;
    std::size_t off = 0;
    std::string error;

    bool need(std::size_t n) {
        if (b.size() - off < n) {
            if (error.empty()) error = "replay: truncated at byte " + std::to_string(off);
            return false;
        }
        return true;
    }
    std::uint64_t le(std::size_t n) {
        if (!need(n)) return 0;
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < n; ++i) v |= static_cast<std::uint64_t>(static_cast<unsigned char>(b[off + i])) << (8 * i);
        off += n;
        return v;
    }
    std::uint8_t u8() { return static_cast<std::uint8_t>(le(1)); }
    std::uint16_t u16() { return static_cast<std::uint16_t>(le(2)); }
    std::uint32_t u32() { return static_cast<std::uint32_t>(le(4)); }
    std::uint64_t u64() { return le(8); }
    std::string bytes(std::size_t n) {
        if (!need(n)) return {};
        std::string s(b.substr(off, n));
        off += n;
        return s;
    }
    std::string str() {
        const std::size_t n = u16();
        return error.empty() ? bytes(n) : std::string();
    }
};

}  // namespace

std::uint32_t replay_tick_time(int tick) {
    return static_cast<std::uint32_t>(static_cast<std::int64_t>(tick) * 1000 / kTargetFps);
}

Expected<ReplayData> parse_replay(std::string_view raw, std::size_t maxInflated) {
    using R = Expected<ReplayData>;
    ReplayData d;
    std::string inflated;
    std::string_view bytes = raw;
    if (raw.substr(0, kReplayMagicLen) != std::string_view(kReplayMagic, kReplayMagicLen) && looks_compressed(raw)) {
        auto in = inflate_all(raw, maxInflated);
        if (!in) return R::fail(in.error);
        inflated = std::move(*in);
        bytes = inflated;
        d.compressed = true;
    }
    Cursor c;
    c.b = bytes;
    if (bytes.size() < kReplayMagicLen) return R::fail("replay: truncated before the magic");
    if (bytes.substr(0, kReplayMagicLen) != std::string_view(kReplayMagic, kReplayMagicLen))
        return R::fail("replay: magic is not COWLDHNS");
    c.off = kReplayMagicLen;
    const std::uint16_t version = c.u16();
    if (c.error.empty() && version != kReplayFormatVersion) return R::fail("replay: unsupported format version " + std::to_string(version));
    d.gameName = c.str();
    d.gameVersion = c.str();
    d.startMs = c.u64();
    d.configJson = c.str();
    if (!c.error.empty()) return R::fail(c.error);
    if (d.gameName != kGameName) return R::fail("replay: game name is not hide-and-seek");
    const auto rules = parse_game_version(d.gameVersion);
    if (!rules) return R::fail("replay: unknown game version (this build plays 1 and 2)");
    d.version = *rules;
    std::int64_t lastTick = -1;
    std::uint32_t lastTime[7] = {};
    auto ordered = [&](std::uint8_t type, std::uint32_t ms) {
        if (ms < lastTime[type]) {
            c.error = "replay: record " + std::to_string(type) + " time moves backward at byte " + std::to_string(c.off);
            return false;
        }
        lastTime[type] = ms;
        return true;
    };
    while (c.off < bytes.size() && c.error.empty()) {
        const std::uint8_t type = c.u8();
        switch (type) {
            case kRecHash: {
                ReplayHash h;
                h.tick = c.u32();
                h.hash = c.u64();
                if (!c.error.empty()) break;
                // A tick that does not increase ends parsing (the reference's rhoStop).
                if (static_cast<std::int64_t>(h.tick) <= lastTick) return R::ok(std::move(d));
                lastTick = h.tick;
                d.hashes.push_back(h);
                break;
            }
            case kRecInput: {
                ReplayInput in;
                in.ms = c.u32();
                in.player = c.u8();
                in.mask = c.u8();
                if (c.error.empty() && ordered(type, in.ms)) d.inputs.push_back(in);
                break;
            }
            case kRecJoin: {
                ReplayJoin j;
                j.ms = c.u32();
                j.player = c.u8();
                j.name = c.str();
                j.slot = static_cast<std::int16_t>(c.u16());
                j.token = c.str();
                if (c.error.empty() && ordered(type, j.ms)) d.joins.push_back(std::move(j));
                break;
            }
            case kRecLeave: {
                ReplayLeave l;
                l.ms = c.u32();
                l.player = c.u8();
                if (c.error.empty() && ordered(type, l.ms)) d.leaves.push_back(l);
                break;
            }
            case kRecChat: {
                ReplayChat ch;
                ch.ms = c.u32();
                ch.player = c.u8();
                ch.message = c.str();
                if (c.error.empty() && ordered(type, ch.ms)) d.chats.push_back(std::move(ch));
                break;
            }
            case kRecDebug: {
                ReplayDebug dbg;
                dbg.ms = c.u32();
                dbg.player = c.u8();
                const std::uint32_t n = c.u32();
                if (c.error.empty()) dbg.packet = c.bytes(n);
                if (c.error.empty() && ordered(type, dbg.ms)) d.debugs.push_back(std::move(dbg));
                break;
            }
            default:
                return R::fail("replay: unknown record type " + std::to_string(type) + " at byte " +
                               std::to_string(c.off - 1));
        }
    }
    if (!c.error.empty()) return R::fail(c.error);
    return R::ok(std::move(d));
}

ReplayWriter::ReplayWriter(std::string_view configJson, std::uint64_t startMs, GameVersion version) {
    bytes_.append(kReplayMagic, kReplayMagicLen);
    u16(kReplayFormatVersion);
    str(kGameName);
    str(game_version_text(version));
    u64(startMs);
    str(configJson);
}

void ReplayWriter::u16(std::uint16_t v) {
    u8(static_cast<std::uint8_t>(v));
    u8(static_cast<std::uint8_t>(v >> 8));
}
void ReplayWriter::u32(std::uint32_t v) {
    for (int s = 0; s < 32; s += 8) u8(static_cast<std::uint8_t>(v >> s));
}
void ReplayWriter::u64(std::uint64_t v) {
    for (int s = 0; s < 64; s += 8) u8(static_cast<std::uint8_t>(v >> s));
}
void ReplayWriter::str(std::string_view s) {
    if (s.size() > kMaxReplayString) {
        ok_ = false;
        s = s.substr(0, kMaxReplayString);
    }
    u16(static_cast<std::uint16_t>(s.size()));
    bytes_.append(s);
}

void ReplayWriter::join(std::uint32_t ms, int player, std::string_view name, int slot, std::string_view token) {
    u8(kRecJoin);
    u32(ms);
    u8(static_cast<std::uint8_t>(player));
    str(name);
    u16(static_cast<std::uint16_t>(static_cast<std::int16_t>(slot)));
    str(token);
    if (player >= static_cast<int>(lastMasks_.size())) lastMasks_.resize(static_cast<std::size_t>(player) + 1, 0);
}

void ReplayWriter::input_if_changed(std::uint32_t ms, int player, std::uint8_t mask) {
    if (player < 0 || player >= static_cast<int>(lastMasks_.size()) || lastMasks_[player] == mask) return;
    u8(kRecInput);
    u32(ms);
    u8(static_cast<std::uint8_t>(player));
    u8(mask);
    lastMasks_[player] = mask;
}

void ReplayWriter::chat(std::uint32_t ms, int player, std::string_view message) {
    u8(kRecChat);
    u32(ms);
    u8(static_cast<std::uint8_t>(player));
    str(message);
}

void ReplayWriter::hash(std::uint32_t tick, std::uint64_t value) {
    u8(kRecHash);
    u32(tick);
    u64(value);
}

}  // namespace hschool::sim::hns
