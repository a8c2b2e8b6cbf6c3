// COWLDHNS v1 (§5.2): the reference's two replays verify exactly as they are; our writer's bytes
// re-parse; compressed files are detected; truncated and garbage input give errors, never a
// crash; one flipped mask byte makes verify name that tick.
#include <gtest/gtest.h>

#include <zlib.h>

#include "hns_test_support.hpp"
#include "sim/hns/constants.hpp"
#include "sim/hns/replay.hpp"
#include "sim/hns/verify.hpp"

using namespace hns_test;

namespace {

std::string reference(const char* name) { return read_file(vector_dir() + "/" + name); }

// Offsets of every input record in a raw (uncompressed) replay.
std::vector<std::size_t> input_record_offsets(const std::string& bytes) {
    auto d = hns::parse_replay(bytes);
    std::vector<std::size_t> out;
    std::size_t off = 8 + 2;
    auto str = [&]() { off += 2 + (static_cast<unsigned char>(bytes[off]) | (static_cast<unsigned char>(bytes[off + 1]) << 8)); };
    str();
    str();
    off += 8;
    str();
    while (off < bytes.size()) {
        const auto type = static_cast<unsigned char>(bytes[off++]);
        if (type == 1) off += 12;
        else if (type == 2) out.push_back(off - 1), off += 6;
        else if (type == 3) { off += 5; str(); off += 2; str(); }
        else if (type == 5) { off += 5; str(); }
        else break;
    }
    return out;
}

std::string deflate_all(const std::string& in, bool gzip) {
    z_stream zs{};
    deflateInit2(&zs, Z_BEST_SPEED, Z_DEFLATED, gzip ? 15 + 16 : 15, 8, Z_DEFAULT_STRATEGY);
    std::string out(compressBound(static_cast<uLong>(in.size())) + 64, '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    zs.avail_in = static_cast<uInt>(in.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    deflate(&zs, Z_FINISH);
    out.resize(zs.total_out);
    deflateEnd(&zs);
    return out;
}

}  // namespace

TEST(HnsReplay, ReferenceCertZeroVerifies) {
    auto d = hns::parse_replay(reference("cert_zero.cowldhns"));
    ASSERT_TRUE(d) << d.error;
    EXPECT_EQ(d->hashes.size(), 949u);
    EXPECT_EQ(d->joins.size(), 6u);
    const auto r = hns::verify_replay(*d);
    EXPECT_TRUE(r.ok) << r.message();
    EXPECT_EQ(r.checked, 949);
    // The re-derived results equal the replay's own result record.
    const auto& last = d->chats.back().message;
    EXPECT_EQ(boost::json::parse(last).at("results"), boost::json::parse(r.results));
}

TEST(HnsReplay, ReferenceCertFormulaVerifies) {
    auto d = hns::parse_replay(reference("cert_formula.cowldhns"));
    ASSERT_TRUE(d) << d.error;
    EXPECT_GT(d->inputs.size(), 100u);
    const auto r = hns::verify_replay(*d);
    EXPECT_TRUE(r.ok) << r.message();
    EXPECT_EQ(r.checked, 949);
    EXPECT_EQ(boost::json::parse(d->chats.back().message).at("results"), boost::json::parse(r.results));
}

TEST(HnsReplay, CompressedCopiesVerifyToo) {
    const std::string raw = reference("cert_zero.cowldhns");
    for (bool gzip : {true, false}) {
        auto d = hns::parse_replay(deflate_all(raw, gzip));
        ASSERT_TRUE(d) << d.error;
        EXPECT_TRUE(d->compressed);
        EXPECT_TRUE(hns::verify_replay(*d).ok);
    }
}

TEST(HnsReplay, FlippingOneMaskByteNamesThatTick) {
    std::string bytes = reference("cert_formula.cowldhns");
    auto d = hns::parse_replay(bytes);
    ASSERT_TRUE(d);
    // A hider's input in game 1's prep: B makes its aim turn on the very tick it is applied.
    for (std::size_t off : input_record_offsets(bytes)) {
        const std::uint32_t ms = static_cast<unsigned char>(bytes[off + 1]) | (static_cast<unsigned char>(bytes[off + 2]) << 8) |
                                 (static_cast<unsigned char>(bytes[off + 3]) << 16);
        const int player = static_cast<unsigned char>(bytes[off + 5]);
        if (player % 2 != 0 || ms < 2000 || ms > 6000) continue;
        bytes[off + 6] = static_cast<char>(static_cast<unsigned char>(bytes[off + 6]) ^ hns::kBtnB);
        int applyTick = 0;
        while (hns::replay_tick_time(applyTick) < ms) ++applyTick;
        auto flipped = hns::parse_replay(bytes);
        ASSERT_TRUE(flipped);
        const auto r = hns::verify_replay(*flipped);
        EXPECT_FALSE(r.ok);
        EXPECT_EQ(r.mismatchTick, applyTick + 1) << r.message();
        return;
    }
    FAIL() << "no hider input record in the window";
}

TEST(HnsReplay, WriterBytesParseBack) {
    hns::ReplayWriter w("{\"seed\":1}", 1234, hns::kCurrentGameVersion);
    w.join(0, 0, "Cog1", 0, "tok");
    w.input_if_changed(41, 0, 0x81);
    w.input_if_changed(83, 0, 0x81);  // unchanged: not written
    w.chat(83, 0, "{\"k\":\"stop\",\"tick\":2,\"endRule\":\"wall_clock\"}");
    w.hash(1, 0xdeadbeefULL);
    w.hash(2, 0xfeedULL);
    auto d = hns::parse_replay(w.bytes());
    ASSERT_TRUE(d) << d.error;
    EXPECT_EQ(d->startMs, 1234u);
    EXPECT_EQ(d->configJson, "{\"seed\":1}");
    ASSERT_EQ(d->joins.size(), 1u);
    EXPECT_EQ(d->joins[0].token, "tok");
    EXPECT_EQ(d->joins[0].slot, 0);
    ASSERT_EQ(d->inputs.size(), 1u);
    EXPECT_EQ(d->inputs[0].mask, 0x81);
    EXPECT_EQ(d->chats.size(), 1u);
    EXPECT_EQ(d->hashes.size(), 2u);
    EXPECT_EQ(d->hashes[1].hash, 0xfeedULL);
}

TEST(HnsReplay, HeaderBytesAreTheSpecs) {
    hns::ReplayWriter w("{}", 0, hns::GameVersion::V1);
    const std::string& b = w.bytes();
    const std::string head = std::string("COWLDHNS\x01\x00\x0d\x00hide-and-seek\x01\x00" "1", 28);
    EXPECT_EQ(b.substr(0, 28), head);
    // GameVersion 2 differs in the version string's one byte, nothing else.
    hns::ReplayWriter w2("{}", 0, hns::GameVersion::V2);
    EXPECT_EQ(w2.bytes().substr(0, 28), std::string("COWLDHNS\x01\x00\x0d\x00hide-and-seek\x01\x00" "2", 28));
    EXPECT_EQ(w2.bytes().substr(28), b.substr(28));
}

TEST(HnsReplay, NonIncreasingHashTickEndsParsing) {
    hns::ReplayWriter w("{}", 0, hns::kCurrentGameVersion);
    w.hash(1, 1);
    w.hash(2, 2);
    w.hash(2, 3);
    w.hash(3, 4);
    auto d = hns::parse_replay(w.bytes());
    ASSERT_TRUE(d);
    EXPECT_EQ(d->hashes.size(), 2u);
}

TEST(HnsReplay, TimeGoingBackwardIsAnError) {
    hns::ReplayWriter w("{}", 0, hns::kCurrentGameVersion);
    w.chat(100, 0, "a");
    w.chat(50, 0, "b");
    EXPECT_FALSE(hns::parse_replay(w.bytes()));
}

TEST(HnsReplay, HostileInputGivesErrorsNotCrashes) {
    const std::string raw = reference("cert_formula.cowldhns");
    // Every prefix: an error or a clean shorter replay, never a crash.
    int errors = 0;
    for (std::size_t n = 0; n < raw.size(); n += (n < 4400 ? 1 : 7)) {
        auto d = hns::parse_replay(std::string_view(raw).substr(0, n));
        errors += d ? 0 : 1;
    }
    EXPECT_GT(errors, 100);
    EXPECT_FALSE(hns::parse_replay("COWLDHNS"));
    EXPECT_FALSE(hns::parse_replay("BITWORLD\x03\x00"));
    EXPECT_FALSE(hns::parse_replay(std::string(raw).replace(8, 1, "\x02")));
    std::string unknown = raw.substr(0, 4246);
    unknown.push_back('\x09');
    EXPECT_NE(hns::parse_replay(unknown).error.find("unknown record type"), std::string::npos);
    // A corrupt compressed stream.
    std::string z = deflate_all(raw, false);
    z.resize(z.size() / 2);
    EXPECT_FALSE(hns::parse_replay(z));
    // A zlib bomb cannot inflate past the cap.
    const std::string bomb = deflate_all(std::string(4u << 20, '\0'), false);
    auto b = hns::parse_replay(bomb, 1u << 20);
    ASSERT_FALSE(b);
    EXPECT_NE(b.error.find("inflates past"), std::string::npos) << b.error;
    // Random garbage with a valid header.
    std::string g = raw.substr(0, 4246);
    std::uint32_t x = 12345;
    for (int i = 0; i < 20000; ++i) {
        x = x * 1103515245u + 12345u;
        g.push_back(static_cast<char>(x >> 24));
    }
    (void)hns::parse_replay(g);
}

TEST(HnsReplay, VerifyRejectsABadConfigEcho) {
    hns::ReplayWriter w("{\"crates\": 99}", 0, hns::kCurrentGameVersion);
    w.hash(1, 1);
    auto d = hns::parse_replay(w.bytes());
    ASSERT_TRUE(d);
    const auto r = hns::verify_replay(*d);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("crates"), std::string::npos);
}
