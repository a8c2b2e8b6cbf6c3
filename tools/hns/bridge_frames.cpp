#include "bridge_frames.hpp"

#include <bit>
#include <cstring>

#include "sim/hns/bridge_session.hpp"

namespace hschool::tools::hns {
namespace {

// Little-endian reads that report running out of bytes instead of reading past them.
class Reader {
public:
    explicit Reader(std::string_view bytes) : bytes_(bytes) {}
    bool u8(std::uint8_t& out) {
        if (left() < 1) return false;
        out = static_cast<std::uint8_t>(bytes_[at_++]);
        return true;
    }
    bool u16(std::uint16_t& out) {
        if (left() < 2) return false;
        out = static_cast<std::uint16_t>(byte(0) | byte(1) << 8);
        at_ += 2;
        return true;
    }
    bool u32(std::uint32_t& out) {
        if (left() < 4) return false;
        out = static_cast<std::uint32_t>(byte(0)) | static_cast<std::uint32_t>(byte(1)) << 8 |
              static_cast<std::uint32_t>(byte(2)) << 16 | static_cast<std::uint32_t>(byte(3)) << 24;
        at_ += 4;
        return true;
    }
    bool bytes(std::size_t n, std::string& out) {
        if (left() < n) return false;
        out.assign(bytes_.substr(at_, n));
        at_ += n;
        return true;
    }
    bool raw(void* out, std::size_t n) {
        if (left() < n) return false;
        std::memcpy(out, bytes_.data() + at_, n);
        at_ += n;
        return true;
    }
    std::size_t left() const { return bytes_.size() - at_; }

private:
    unsigned byte(std::size_t i) const { return static_cast<unsigned char>(bytes_[at_ + i]); }
    std::string_view bytes_;
    std::size_t at_ = 0;
};

void put_u8(std::string& out, std::uint8_t v) { out.push_back(static_cast<char>(v)); }
void put_u16(std::string& out, std::uint16_t v) {
    out.push_back(static_cast<char>(v & 0xFF));
    out.push_back(static_cast<char>(v >> 8));
}
void put_u32(std::string& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
// Floats go out as their IEEE-754 bits, little-endian (this machine's order, checked at compile time).
static_assert(std::endian::native == std::endian::little, "the binary framing is written for little-endian hosts");
void put_floats(std::string& out, const float* values, std::size_t n) {
    out.append(reinterpret_cast<const char*>(values), n * sizeof(float));
}

sh::Expected<FrameRequest> fail(std::string message) { return sh::Expected<FrameRequest>::fail(std::move(message)); }

std::string with_length(std::string payload) {
    std::string out;
    put_u32(out, static_cast<std::uint32_t>(payload.size()));
    return out + payload;
}

}  // namespace

sh::Expected<FrameRequest> parse_frame_request(std::string_view payload, int envs) {
    Reader r(payload);
    std::uint8_t op = 0;
    std::uint16_t count = 0;
    if (!r.u8(op) || !r.u16(count)) return fail("the request is shorter than its header");
    if (op < static_cast<std::uint8_t>(FrameOp::Reset) || op > static_cast<std::uint8_t>(FrameOp::Observe))
        return fail("unknown operation " + std::to_string(op));
    if (count != envs) return fail("the request names " + std::to_string(count) + " environments; this bridge has " + std::to_string(envs));
    FrameRequest out;
    out.op = static_cast<FrameOp>(op);
    out.envs = envs;
    if (out.op == FrameOp::Reset) {
        for (int e = 0; e < envs; ++e) {
            std::uint16_t length = 0;
            if (!r.u16(length)) return fail("the reset ends before environment " + std::to_string(e));
            if (length == kLeaveEnvSeed) {
                out.seeds.emplace_back(std::nullopt);
                continue;
            }
            if (length > sh::kMaxBridgeSeedBytes) return fail("environment " + std::to_string(e) + "'s seed is over " + std::to_string(sh::kMaxBridgeSeedBytes) + " bytes");
            std::string seed;
            if (!r.bytes(length, seed)) return fail("environment " + std::to_string(e) + "'s seed is cut short");
            out.seeds.emplace_back(std::move(seed));
        }
    } else if (out.op == FrameOp::Step) {
        for (int e = 0; e < envs; ++e) {
            std::uint16_t action = 0;
            if (!r.u16(action)) return fail("the step ends before environment " + std::to_string(e));
            out.actions.push_back(static_cast<std::int16_t>(action));
        }
    }
    if (r.left() != 0) return fail("the request has " + std::to_string(r.left()) + " bytes past its end");
    return sh::Expected<FrameRequest>::ok(std::move(out));
}

std::string frame_request_payload(const FrameRequest& request) {
    std::string out;
    put_u8(out, static_cast<std::uint8_t>(request.op));
    put_u16(out, static_cast<std::uint16_t>(request.envs));
    for (const auto& seed : request.seeds) {
        if (!seed) {
            put_u16(out, kLeaveEnvSeed);
            continue;
        }
        put_u16(out, static_cast<std::uint16_t>(seed->size()));
        out += *seed;
    }
    for (const auto action : request.actions) put_u16(out, static_cast<std::uint16_t>(action));
    return out;
}

std::string ok_frame(const std::vector<EnvRecord>& records) {
    std::string payload;
    payload.reserve(4 + records.size() * kEnvRecordBytes);
    put_u8(payload, kFrameOk);
    put_u8(payload, 0);  // keeps the records 4-byte aligned
    put_u16(payload, static_cast<std::uint16_t>(records.size()));
    for (const EnvRecord& r : records) {
        put_u8(payload, static_cast<std::uint8_t>(r.state));
        put_u8(payload, r.seat);
        put_u16(payload, static_cast<std::uint16_t>(r.teacher));
        put_u32(payload, r.decision);
        put_u32(payload, r.episode);
        put_floats(payload, r.scores.data(), r.scores.size());
        put_floats(payload, r.values.data(), r.values.size());
        payload.append(reinterpret_cast<const char*>(r.mask.data()), r.mask.size());
        put_u8(payload, 0);
    }
    return with_length(std::move(payload));
}

std::string error_frame(std::string_view message) {
    std::string payload;
    put_u8(payload, kFrameError);
    payload += message;
    return with_length(std::move(payload));
}

sh::Expected<std::vector<EnvRecord>> parse_answer_payload(std::string_view payload) {
    using R = sh::Expected<std::vector<EnvRecord>>;
    Reader r(payload);
    std::uint8_t status = 0, pad = 0;
    if (!r.u8(status)) return R::fail("an empty answer");
    if (status == kFrameError) return R::fail(std::string(payload.substr(1)));
    std::uint16_t count = 0;
    if (status != kFrameOk || !r.u8(pad) || !r.u16(count)) return R::fail("not an answer");
    if (r.left() != static_cast<std::size_t>(count) * kEnvRecordBytes) return R::fail("the records do not fill the answer");
    std::vector<EnvRecord> out(count);
    for (EnvRecord& e : out) {
        std::uint8_t state = 0;
        std::uint16_t teacher = 0;
        r.u8(state);
        r.u8(e.seat);
        r.u16(teacher);
        r.u32(e.decision);
        r.u32(e.episode);
        r.raw(e.scores.data(), sizeof(float) * e.scores.size());
        r.raw(e.values.data(), sizeof(float) * e.values.size());
        r.raw(e.mask.data(), e.mask.size());
        r.u8(pad);
        if (state > static_cast<std::uint8_t>(EnvState::Failed)) return R::fail("an unknown state");
        e.state = static_cast<EnvState>(state);
        e.teacher = static_cast<std::int16_t>(teacher);
    }
    return R::ok(std::move(out));
}

}  // namespace hschool::tools::hns
