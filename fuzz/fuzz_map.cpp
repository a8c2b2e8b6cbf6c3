// Client-supplied school maps, validated against the shipped core and annex packs.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "content/library.hpp"

namespace {
const hschool::content::ResolvedPacks& packs() {
    static const auto library = hschool::content::ContentLibrary::scan(HSCHOOL_MODS_DIR);
    static const std::vector<std::string> extras{"annex"};
    static const auto resolved = library.resolve(extras);
    if (!resolved) __builtin_trap();  // the shipped packs must load
    return *resolved;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto map = packs().validate_map_text(text);
    if (map) {
        // Whatever validates must produce a tree with every node, parents first.
        const auto tree = packs().tree(*map, hschool::content::Lang::English);
        if (tree.size() != map->nodes.size()) __builtin_trap();
    } else if (map.error().code != "invalid-map") {
        __builtin_trap();
    }
    return 0;
}
