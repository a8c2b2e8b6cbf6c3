// libFuzzer: the room document parser and validator.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sim/hns/room.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    (void)hschool::sim::hns::parse_room(std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
