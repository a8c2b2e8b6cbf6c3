// libFuzzer: the config parser and its echo (an accepted config must echo and re-parse).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "sim/hns/config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace hns = hschool::sim::hns;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto config = hns::apply_config_json(hns::GameConfig{}, text);
    if (!config) return 0;
    auto again = hns::apply_config_json(hns::GameConfig{}, hns::config_to_json(*config));
    if (!again) std::abort();  // our own echo must always parse back
    return 0;
}
