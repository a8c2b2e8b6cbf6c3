// The two little-endian writers: ByteWriter appends field by field; RoomWriter fills room made
// once, growing when the guess was short and trimming what was not used.
#include <gtest/gtest.h>

#include "protocol/bytes.hpp"

namespace hschool::protocol {
namespace {

template <class Writer>
void write_fields(Writer& w) {
    w.u8(0x01);
    w.u16(0x0302);
    w.u24(0x060504);
    w.u32(0x0A090807);
    w.i8(-1);
    w.f32(1.0f);
    w.raw("hi");
}

Bytes by_byte_writer(Bytes out) {
    ByteWriter w(out);
    write_fields(w);
    return out;
}

Bytes by_room_writer(Bytes out, std::size_t expected) {
    RoomWriter w(out, expected);
    write_fields(w);
    w.finish();
    return out;
}

TEST(RoomWriter, WritesWhatByteWriterWritesWhateverTheGuess) {
    const Bytes prefix{0xEE, 0xEE};  // room after bytes already in the buffer (a WebSocket header's)
    const Bytes expected = by_byte_writer(prefix);
    ASSERT_EQ(expected.size(), 2u + 1 + 2 + 3 + 4 + 1 + 4 + 2);
    for (std::size_t guess : {0u, 1u, 5u, 17u, 18u, 400u}) EXPECT_EQ(by_room_writer(prefix, guess), expected) << guess;
}

TEST(RoomWriter, LittleEndianFieldByField) {
    const Bytes out = by_room_writer({}, 17);
    EXPECT_EQ(Bytes(out.begin(), out.begin() + 10), (Bytes{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
    EXPECT_EQ(out[10], 0xFF);
    EXPECT_EQ(Bytes(out.begin() + 11, out.begin() + 15), (Bytes{0x00, 0x00, 0x80, 0x3F}));
}

}  // namespace
}  // namespace hschool::protocol
