#pragma once
// Records a scripted arena session the way the server does: apply commands, step, record.
#include <vector>

#include "sim/arena/arena_world.hpp"
#include "sim/arena/prng.hpp"
#include "sim/replay/replay_reader.hpp"
#include "sim/replay/replay_writer.hpp"

namespace hschool::sim::replay::testing {

struct Recording {
    protocol::Bytes bytes;
    std::vector<std::vector<arena::ArenaCommand>> commands_per_tick;
    std::vector<std::uint64_t> hashes;
};

// Joins, leaves and inputs chosen by a seeded script; chunks are taken every few ticks and
// concatenated, as the server's writer thread would append them to a file.
inline Recording record_session(std::uint32_t ticks, std::uint64_t script_seed = 5,
                                arena::ArenaSettings settings = {}) {
    arena::ArenaWorld world(settings);
    ReplayWriter writer(settings);
    arena::SplitMix64 script(script_seed);
    Recording out;
    std::vector<std::uint32_t> players;
    std::uint32_t sequence = 0;
    for (std::uint32_t tick = 0; tick < ticks; ++tick) {
        std::vector<arena::ArenaCommand> commands;
        const auto roll = script.next() % 8;
        if (roll == 0 || players.empty()) commands.push_back(arena::JoinCommand{roll == 0 ? "Аня" : ""});
        if (roll == 1 && players.size() > 1) {
            commands.push_back(arena::LeaveCommand{players.front()});
            players.erase(players.begin());
        }
        for (auto id : players)
            if (script.next() % 3 == 0)
                commands.push_back(arena::InputCommand{id, ++sequence, static_cast<std::uint8_t>(script.next())});
        for (const auto& command : commands)
            if (const auto id = world.apply(command)) players.push_back(id);
        world.step();
        writer.record(world.tick(), commands, world.state_hash());
        out.commands_per_tick.push_back(commands);
        out.hashes.push_back(world.state_hash());
        if (tick % 7 == 0) {
            const auto chunk = writer.take_chunk();
            out.bytes.insert(out.bytes.end(), chunk.begin(), chunk.end());
        }
    }
    const auto chunk = writer.take_chunk();
    out.bytes.insert(out.bytes.end(), chunk.begin(), chunk.end());
    return out;
}

// Byte offset just past each complete record, index 0 being the end of the header.
inline std::vector<std::size_t> record_ends(const protocol::Bytes& bytes) {
    ReplayReader reader(bytes);
    std::vector<std::size_t> ends{reader.offset()};
    ReplayTick tick;
    while (reader.next(tick)) ends.push_back(reader.offset());
    return ends;
}

}  // namespace hschool::sim::replay::testing
