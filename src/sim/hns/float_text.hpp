#pragma once
// A float as the reference's Nim prints it in JSON ($ on a JsonNode): the shortest of 16 or 17
// significant digits that reads back to the same double, with ".0" on a whole number — so
// 934 / 1000.0 prints 0.9340000000000001, not 0.934. Results scores and the seat view's margin
// use it, so our documents match the reference's byte for byte.
#include <string>

namespace hschool::sim::hns {

std::string nim_float_text(double value);

}  // namespace hschool::sim::hns
