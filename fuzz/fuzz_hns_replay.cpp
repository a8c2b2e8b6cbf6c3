// libFuzzer: the COWLDHNS reader, and the verifier on whatever it accepts.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sim/hns/replay.hpp"
#include "sim/hns/verify.hpp"

namespace {
constexpr std::size_t kFuzzInflateCap = 8u << 20;  // keep a fuzz run's memory small
constexpr std::size_t kMaxVerifiedHashes = 4096;    // bound the time one input may take
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    auto replay = hschool::sim::hns::parse_replay(bytes, kFuzzInflateCap);
    if (replay && replay->hashes.size() <= kMaxVerifiedHashes && !replay->hashes.empty() &&
        replay->hashes.back().tick <= kMaxVerifiedHashes)
        (void)hschool::sim::hns::verify_replay(*replay);
    return 0;
}
