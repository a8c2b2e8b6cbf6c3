// The league seat's conversation (tools/hns/seat_session): what it sends on connect and after
// each message, as the reference's seat program does.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "protocol/sprite_v1.hpp"
#include "seat_session.hpp"

namespace hschool::tools::hns {
namespace {

namespace sv = protocol::sprite_v1;

std::string chat_text(const protocol::Bytes& message) {
    auto decoded = sv::decode_client(message);
    if (!decoded || decoded->size() != 1) return "";
    const auto* text = std::get_if<sv::InputText>(&decoded->front());
    return text ? text->text : "";
}

bool is_ready(const protocol::Bytes& message) { return message.size() == 1 && message[0] == sv::id::kPlayerReady; }

TEST(HnsSeatSession, RegistersOnConnectAndAgainAfterFrames1And25TenTimes) {
    SeatSession session(SeatPolicy{"scatter", false, ""}, nullptr);
    const auto open = session.on_open();
    ASSERT_EQ(open.size(), 1U);
    const auto registration = boost::json::parse(chat_text(open[0])).as_object();
    EXPECT_EQ(registration.at("type"), "register");
    EXPECT_EQ(registration.at("scripted"), "scatter");
    EXPECT_EQ(registration.at("policy"), "scatter");
    EXPECT_EQ(registration.at("prompt"), "");
    EXPECT_FALSE(registration.contains("mode"));
    std::vector<int> resent_at;
    for (int frame = 1; frame <= 400; ++frame) {
        const auto out = session.on_message(false, "");
        ASSERT_FALSE(out.empty());
        EXPECT_TRUE(is_ready(out.back())) << "0x85 after every message, last";
        if (out.size() == 2) {
            EXPECT_EQ(chat_text(out[0]), chat_text(open[0]));
            resent_at.push_back(frame);
        }
    }
    const std::vector<int> expected{1, 25, 49, 73, 97, 121, 145, 169, 193, 217};
    EXPECT_EQ(resent_at, expected);
    // A new socket starts the schedule again.
    session.on_open();
    EXPECT_EQ(session.on_message(false, "").size(), 2U);
}

TEST(HnsSeatSession, AnExternalSeatAnswersDecisionsWithOrders) {
    std::vector<std::string> asked;
    SeatSession session(SeatPolicy{"burrow", true, "mine"}, [&](const std::string& decision) -> std::optional<std::string> {
        asked.push_back(decision);
        return std::string(R"({"intent":"hide"})");
    });
    const auto registration = boost::json::parse(chat_text(session.on_open()[0])).as_object();
    EXPECT_EQ(registration.at("mode"), "external");
    EXPECT_TRUE(registration.at("scripted").is_null());
    EXPECT_EQ(registration.at("policy"), "mine");
    session.on_message(false, "");  // frame 1 (with the re-send)
    const auto out = session.on_message(true, R"({"type":"decision","seat":2,"turn":3,"observation":{"game":2}})");
    ASSERT_EQ(out.size(), 2U);
    EXPECT_EQ(chat_text(out[0]), R"(orders:2:3:{"intent":"hide"})");
    EXPECT_TRUE(is_ready(out[1]));
    EXPECT_EQ(asked.size(), 1U);
    EXPECT_EQ(session.orders_sent(), 1);
}

TEST(HnsSeatSession, TextThatIsNotADecisionGetsOnlyTheReady) {
    int asked = 0;
    SeatSession session(SeatPolicy{"burrow", true, ""}, [&](const std::string&) -> std::optional<std::string> {
        ++asked;
        return std::string("{}");
    });
    session.on_open();
    session.on_message(false, "");
    for (const std::string& text : std::vector<std::string>{"", "not json", "[]", R"({"type":"decision"})", R"({"type":"decision","turn":"x","observation":{"game":1}})",
                                   R"({"type":"other","turn":1,"observation":{"game":1}})", std::string(70000, '{')}) {
        const auto out = session.on_message(true, text);
        ASSERT_EQ(out.size(), 1U) << text.substr(0, 40);
        EXPECT_TRUE(is_ready(out[0]));
    }
    EXPECT_EQ(asked, 0);
    // A source with no order for this turn sends none: the server falls back.
    SeatSession silent(SeatPolicy{"burrow", true, ""}, [](const std::string&) { return std::optional<std::string>(); });
    silent.on_open();
    silent.on_message(false, "");
    EXPECT_EQ(silent.on_message(true, R"({"type":"decision","turn":0,"observation":{"game":1}})").size(), 1U);
    // A scripted seat never answers decisions, even when one comes.
    SeatSession scripted(SeatPolicy{"burrow", false, ""}, nullptr);
    scripted.on_open();
    scripted.on_message(false, "");
    EXPECT_EQ(scripted.on_message(true, R"({"type":"decision","turn":0,"observation":{"game":1}})").size(), 1U);
}

TEST(HnsSeatSession, TheLabelIsCutTo64Characters) {
    const auto text = registration_text(SeatPolicy{"burrow", false, std::string(100, 'x')});
    EXPECT_EQ(boost::json::parse(text).as_object().at("policy").as_string().size(), kMaxPolicyLabelChars);
}

}  // namespace
}  // namespace hschool::tools::hns
