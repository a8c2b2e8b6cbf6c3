#include "sim/hns/float_text.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace hschool::sim::hns {
namespace {

constexpr int kShortDigits = 16;  // Nim tries %.16g first
constexpr int kRoundTripDigits = 17;

}  // namespace

std::string nim_float_text(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", kShortDigits, value);
    if (std::strtod(buf, nullptr) != value) std::snprintf(buf, sizeof buf, "%.*g", kRoundTripDigits, value);
    std::string text(buf);
    if (text.find_first_of(".e") == std::string::npos) text += ".0";
    return text;
}

}  // namespace hschool::sim::hns
