#include "sim/replay/replay_verify.hpp"

#include "sim/arena/arena_world.hpp"
#include "sim/replay/replay_reader.hpp"

namespace hschool::sim::replay {

ReplayVerdict verify_replay(protocol::ByteView bytes) {
    ReplayVerdict verdict;
    ReplayReader reader(bytes);
    if (!reader.header_ok()) {
        verdict.error = reader.error();
        return verdict;
    }
    arena::ArenaWorld world(reader.settings());
    ReplayTick record;
    while (reader.next(record)) {
        for (const auto& command : record.commands) world.apply(command);
        world.step();
        ++verdict.ticks_checked;
        if (world.state_hash() != record.hash) {
            verdict.first_mismatch_tick = record.tick;
            return verdict;
        }
    }
    verdict.error = reader.error();
    return verdict;
}

std::string describe(const ReplayVerdict& verdict) {
    const std::string ticks = std::to_string(verdict.ticks_checked);
    if (verdict.first_mismatch_tick) return "hash mismatch at tick " + std::to_string(*verdict.first_mismatch_tick);
    if (verdict.error == ReplayError::None) return "all " + ticks + " ticks matched";
    if (verdict.truncated())
        return "all " + ticks + " ticks matched; the replay is truncated after tick " + ticks +
               " (the last record was cut off)";
    if (is_header_error(verdict.error))
        return std::string("not a readable replay: ") + describe(verdict.error);
    return "malformed replay after tick " + ticks + ": " + describe(verdict.error);
}

}  // namespace hschool::sim::replay
