// libFuzzer target: protocol::v5::decode_server on arbitrary bytes must never crash, and what it
// accepts must re-encode to the same bytes.
#include "protocol/v5.hpp"
#include "round_trip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace p = hschool::protocol::v5;
    expect_round_trip<p::Unknown>(p::decode_server(hschool::protocol::ByteView(data, size)), data, size,
                                  [](const auto& message) { return p::encode(message); });
    return 0;
}
