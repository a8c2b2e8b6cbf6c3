#include "sim/replay/replay_reader.hpp"

#include "protocol/utf8.hpp"
#include "protocol/v1.hpp"
#include "sim/replay/replay_format.hpp"

namespace hschool::sim::replay {
namespace {

// Outcome of reading one piece of a record; Short means the bytes ran out.
enum class Step : std::uint8_t { Ok, Short, Bad };

Step read_command(protocol::ByteReader& in, arena::ArenaCommand& out, ReplayError& bad) {
    std::uint8_t tag = 0;
    if (!in.u8(tag)) return Step::Short;
    switch (tag) {
        case command_tag::kJoin: {
            std::uint8_t length = 0;
            if (!in.u8(length)) return Step::Short;
            if (length > protocol::v1::kMaxNameBytes) return bad = ReplayError::NameTooLong, Step::Bad;
            arena::JoinCommand join;
            if (!in.raw(join.name, length)) return Step::Short;
            if (!protocol::is_valid_utf8(join.name)) return bad = ReplayError::InvalidName, Step::Bad;
            out = std::move(join);
            return Step::Ok;
        }
        case command_tag::kLeave: {
            arena::LeaveCommand leave;
            if (!in.u32(leave.player_id)) return Step::Short;
            out = leave;
            return Step::Ok;
        }
        case command_tag::kInput: {
            arena::InputCommand input;
            if (!in.u32(input.player_id) || !in.u32(input.sequence) || !in.u8(input.buttons)) return Step::Short;
            out = input;
            return Step::Ok;
        }
        default: bad = ReplayError::UnknownCommand; return Step::Bad;
    }
}

}  // namespace

ReplayReader::ReplayReader(protocol::ByteView bytes) : bytes_(bytes) { header_ok_ = read_header(); }

bool ReplayReader::fail(ReplayError error) {
    error_ = error;
    return false;
}

bool ReplayReader::read_header() {
    if (bytes_.empty()) return fail(ReplayError::Empty);
    protocol::ByteReader in(bytes_);
    for (std::uint8_t expected : kMagic) {
        std::uint8_t b = 0;
        if (!in.u8(b)) return fail(ReplayError::HeaderTruncated);
        if (b != expected) return fail(ReplayError::BadMagic);
    }
    std::uint16_t version = 0;
    if (!in.u16(version)) return fail(ReplayError::HeaderTruncated);
    if (version != kFormatVersion) return fail(ReplayError::UnsupportedVersion);
    arena::ArenaSettings s;
    std::uint16_t obstacle_count = 0;
    const bool complete = in.u64(s.seed) && in.f32(s.width) && in.f32(s.height) && in.f32(s.player_speed) &&
                          in.f32(s.player_radius) && in.f32(s.obstacle_min_radius) &&
                          in.f32(s.obstacle_max_radius) && in.u16(obstacle_count) && in.u8(s.tick_rate);
    if (!complete) return fail(ReplayError::HeaderTruncated);
    s.obstacle_count = obstacle_count;
    if (arena::validate(s)) return fail(ReplayError::InvalidSettings);
    settings_ = s;
    offset_ = kHeaderBytes;
    return true;
}

bool ReplayReader::next(ReplayTick& out) {
    if (!header_ok_ || error_ != ReplayError::None) return false;
    if (offset_ == bytes_.size()) return false;  // a clean end between records
    protocol::ByteReader in(bytes_.subspan(offset_));

    std::uint8_t marker = 0;
    if (!in.u8(marker)) return fail(ReplayError::RecordTruncated);
    if (marker != kTickMarker) return fail(ReplayError::BadRecordMarker);
    std::uint32_t tick = 0;
    if (!in.u32(tick)) return fail(ReplayError::RecordTruncated);
    if (tick != last_tick_ + 1) return fail(ReplayError::TickOutOfOrder);
    std::uint32_t count = 0;
    if (!in.u32(count)) return fail(ReplayError::RecordTruncated);
    if (count > kMaxCommandsPerTick) return fail(ReplayError::TooManyCommands);
    // Checked before anything is allocated: every command takes at least kMinCommandBytes.
    if (static_cast<std::size_t>(count) * kMinCommandBytes > in.remaining()) return fail(ReplayError::RecordTruncated);

    out.tick = tick;
    out.commands.clear();
    out.commands.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        arena::ArenaCommand command;
        ReplayError bad = ReplayError::None;
        const Step step = read_command(in, command, bad);
        if (step == Step::Short) return fail(ReplayError::RecordTruncated);
        if (step == Step::Bad) return fail(bad);
        out.commands.push_back(std::move(command));
    }
    if (!in.u64(out.hash)) return fail(ReplayError::RecordTruncated);

    offset_ = bytes_.size() - in.remaining();
    last_tick_ = tick;
    return true;
}

}  // namespace hschool::sim::replay
