#include "sim/hns/string_seed.hpp"

#include <farmhash.h>

namespace hschool::sim::hns {

std::int64_t nim_string_hash(std::string_view text) {
    return static_cast<std::int64_t>(util::Fingerprint64(text.data(), text.size()));
}

std::int64_t bridge_seed_of(std::string_view text) {
    return nim_string_hash(text) & static_cast<std::int64_t>(kNimHighIntHash);
}

}  // namespace hschool::sim::hns
