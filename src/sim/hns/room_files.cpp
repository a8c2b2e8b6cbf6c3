#include "sim/hns/room_files.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace hschool::sim::hns {

std::string rooms_dir() {
    if (const char* env = std::getenv("HSCHOOL_HNS_ROOMS"); env != nullptr && *env != '\0') return env;
    return HSCHOOL_HNS_ROOMS_DIR;
}

Expected<std::string> read_room_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Expected<std::string>::fail(path + ": cannot open");
    std::string text;
    char buf[4096];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        text.append(buf, static_cast<std::size_t>(in.gcount()));
        if (text.size() > kMaxRoomFileBytes) return Expected<std::string>::fail(path + ": larger than 1 MiB");
    }
    return Expected<std::string>::ok(std::move(text));
}

Expected<Room> load_room_file(const std::string& path) {
    auto text = read_room_text(path);
    if (!text) return Expected<Room>::fail(text.error);
    auto room = parse_room(*text);
    if (!room) return Expected<Room>::fail(path + ": " + room.error);
    return room;
}

Expected<GameConfig> resolve_room_spec(GameConfig config, const std::string& dir) {
    if (!config.mapSpec.empty()) return Expected<GameConfig>::ok(std::move(config));
    const std::string name = room_for_seed(config.roomPool, config.seed);
    auto room = load_room_file(dir + "/room_" + name + ".json");
    if (!room) return Expected<GameConfig>::fail(room.error);
    config.mapSpec = room_to_json(*room);
    return Expected<GameConfig>::ok(std::move(config));
}

}  // namespace hschool::sim::hns
