// The Boost-free session dispatch: Hello picks the protocol, later messages become commands,
// replies or close codes — checked without a socket.
#include <gtest/gtest.h>

#include "protocol/v1.hpp"
#include "protocol/v4.hpp"
#include "server/game_socket.hpp"

namespace hschool::server {
namespace {

namespace v1 = protocol::v1;
namespace v4 = protocol::v4;
using protocol::CloseCode;

dispatch::Context context(WireVersion version, std::uint32_t tick = 0) {
    return {version, {42, nullptr, 1}, tick};
}

template <class T>
const T& as(const dispatch::Action& action) {
    EXPECT_TRUE(std::holds_alternative<T>(action)) << "action index " << action.index();
    return std::get<T>(action);
}

TEST(SessionDispatch, ArenaHelloPromotesAndJoinsWithTheName) {
    const auto action = dispatch::on_message(context(WireVersion::None), v1::encode(v1::Hello{v1::kVersion, "Ann"}), false);
    const auto& promote = as<dispatch::Promote>(action);
    EXPECT_EQ(promote.version, WireVersion::Arena);
    EXPECT_EQ(promote.max_inbound_bytes, v1::kMaxInboundFrameBytes);
    const auto& join = std::get<cmd::ArenaJoin>(promote.join);
    EXPECT_EQ(join.connection.id, 42U);
    EXPECT_EQ(join.connection.shard, 1U);
    EXPECT_EQ(join.name, "Ann");
}

TEST(SessionDispatch, SchoolsHelloPromotesWithTheLocale) {
    const auto action = dispatch::on_message(context(WireVersion::None), v4::encode(v4::Hello{v4::kVersion, 1}), false);
    const auto& promote = as<dispatch::Promote>(action);
    EXPECT_EQ(promote.version, WireVersion::Schools);
    EXPECT_EQ(promote.max_inbound_bytes, v4::kMaxInboundFrameBytes);
    EXPECT_EQ(std::get<cmd::SchoolsJoin>(promote.join).locale, v4::Locale::English);
}

TEST(SessionDispatch, UnknownVersionIsAProtocolErrorNotAMalformedFrame) {
    const auto action = dispatch::on_message(context(WireVersion::None), protocol::Bytes{0x01, 0x07}, false);
    const auto& reject = as<dispatch::Reject>(action);
    EXPECT_EQ(reject.code, CloseCode::ProtocolError);
    EXPECT_FALSE(reject.malformed);
}

TEST(SessionDispatch, FirstFrameThatIsNotHelloIsInvalidPayload) {
    const auto action = dispatch::on_message(context(WireVersion::None), v1::encode(v1::Ping{5}), false);
    const auto& reject = as<dispatch::Reject>(action);
    EXPECT_EQ(reject.code, CloseCode::InvalidPayload);
    EXPECT_TRUE(reject.malformed);
}

TEST(SessionDispatch, EmptyTruncatedAndGarbageHelloAreInvalidPayload) {
    for (const protocol::Bytes& bad : {protocol::Bytes{}, protocol::Bytes{0x01}, protocol::Bytes{0xFF, 0xFF, 0xFF},
                                       protocol::Bytes{0x01, 0x01, 0xFF}}) {
        EXPECT_EQ(as<dispatch::Reject>(dispatch::on_message(context(WireVersion::None), bad, false)).code, CloseCode::InvalidPayload);
    }
}

TEST(SessionDispatch, TextFramesAreRejectedInEveryState) {
    for (WireVersion v : {WireVersion::None, WireVersion::Arena, WireVersion::Schools}) {
        EXPECT_EQ(as<dispatch::Reject>(dispatch::on_message(context(v), v1::encode(v1::Ping{1}), true)).code, CloseCode::InvalidPayload);
    }
}

TEST(SessionDispatch, SecondHelloIsRejected) {
    EXPECT_EQ(as<dispatch::Reject>(dispatch::on_message(context(WireVersion::Arena), v1::encode(v1::Hello{v1::kVersion, "x"}), false)).code,
              CloseCode::InvalidPayload);
    EXPECT_EQ(as<dispatch::Reject>(dispatch::on_message(context(WireVersion::Schools), v4::encode(v4::Hello{v4::kVersion, 0}), false)).code,
              CloseCode::InvalidPayload);
}

TEST(SessionDispatch, ArenaInputBecomesACommandForThisConnection) {
    const auto action = dispatch::on_message(context(WireVersion::Arena), v1::encode(v1::Input{7, 0x05}), false);
    const auto& post = as<dispatch::Post>(action);
    const auto& input = std::get<cmd::ArenaInput>(post.command);
    EXPECT_EQ(input.connection, 42U);
    EXPECT_EQ(input.sequence, 7U);
    EXPECT_EQ(input.buttons, 0x05);
}

TEST(SessionDispatch, PingIsAnsweredOnTheSpotWithTheLoopTick) {
    const auto action = dispatch::on_message(context(WireVersion::Arena, 99), v1::encode(v1::Ping{1234}), false);
    const auto& reply = as<dispatch::Reply>(action);
    const auto decoded = v1::decode_server(reply.message);
    ASSERT_TRUE(decoded);
    EXPECT_EQ(std::get<v1::Pong>(*decoded), (v1::Pong{1234, 99}));
    const auto action4 = dispatch::on_message(context(WireVersion::Schools, 7), v4::encode(v4::Ping{-5}), false);
    const auto& reply4 = as<dispatch::Reply>(action4);
    const auto decoded4 = v4::decode_server(reply4.message);
    ASSERT_TRUE(decoded4);
    EXPECT_EQ(std::get<v4::Pong>(*decoded4), (v4::Pong{-5, 7}));
}

TEST(SessionDispatch, SchoolControlsBecomeCommands) {
    const auto ctx = context(WireVersion::Schools);
    EXPECT_EQ(std::get<cmd::OpenSchool>(as<dispatch::Post>(dispatch::on_message(ctx, v4::encode(v4::OpenSchool{3}), false)).command).school_id, 3);
    EXPECT_TRUE(std::holds_alternative<cmd::CloseSchool>(as<dispatch::Post>(dispatch::on_message(ctx, v4::encode(v4::CloseSchool{}), false)).command));
    EXPECT_EQ(std::get<cmd::SetRunning>(as<dispatch::Post>(dispatch::on_message(ctx, v4::encode(v4::SetRunning{0}), false)).command).running, 0);
    EXPECT_EQ(std::get<cmd::SetSpeed>(as<dispatch::Post>(dispatch::on_message(ctx, v4::encode(v4::SetSpeed{4}), false)).command).speed_index, 4);
}

TEST(SessionDispatch, UnknownIdsAreIgnoredAndTruncatedKnownOnesRejected) {
    EXPECT_TRUE(std::holds_alternative<dispatch::Ignore>(dispatch::on_message(context(WireVersion::Arena), protocol::Bytes{0x7E, 1, 2}, false)));
    EXPECT_TRUE(std::holds_alternative<dispatch::Ignore>(dispatch::on_message(context(WireVersion::Schools), protocol::Bytes{0x7E}, false)));
    auto input = v1::encode(v1::Input{1, 1});
    input.pop_back();
    EXPECT_EQ(as<dispatch::Reject>(dispatch::on_message(context(WireVersion::Arena), input, false)).code, CloseCode::InvalidPayload);
    auto open = v4::encode(v4::OpenSchool{1});
    open.push_back(0);  // trailing bytes are malformed too
    EXPECT_EQ(as<dispatch::Reject>(dispatch::on_message(context(WireVersion::Schools), open, false)).code, CloseCode::InvalidPayload);
}

}  // namespace
}  // namespace hschool::server
