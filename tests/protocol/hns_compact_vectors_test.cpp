// The compact watch stream's golden vectors (tests/vectors/hns_compact.json, shared with the client's
// TypeScript decoder): every valid message decodes to its fields and encodes back to its bytes, every
// block inflates to its pixels, every malformed one gives its error, and a drawing receiver applying
// the receiver sequences stops at their error.
#include <gtest/gtest.h>

#include <set>

#include "../support/sprite_board.hpp"
#include "protocol/block_pixels.hpp"
#include "protocol/hns_compact.hpp"
#include "sprite_vector_fields.hpp"
#include "vectors.hpp"

namespace hschool {
namespace {

namespace hc = protocol::hns_compact;
using boost::json::object;
using protocol::Bytes;
using test::num;
using test::str;

hc::ServerMessage compact_message(const std::string& type, const object& f) {
    if (type == "FrameMark") return hc::FrameMark{num<std::uint32_t>(f, "tick"), num<std::uint8_t>(f, "flags")};
    if (type == "DefineBlock")
        return hc::DefineBlock{num<std::uint16_t>(f, "blockId"), num<std::uint16_t>(f, "width"), num<std::uint16_t>(f, "height"),
                               num<std::uint8_t>(f, "scale"), test::from_hex(str(f, "zlib"))};
    if (type == "UseBlock") return hc::UseBlock{num<std::uint16_t>(f, "spriteId"), num<std::uint16_t>(f, "blockId"), str(f, "label")};
    if (type == "Relabel") return hc::Relabel{num<std::uint16_t>(f, "spriteId"), str(f, "label")};
    if (type == "ForgetBlock") return hc::ForgetBlock{num<std::uint16_t>(f, "blockId")};
    return std::visit([](auto&& m) -> hc::ServerMessage { return m; }, test::server_message(type, f));
}

std::vector<hc::ServerMessage> messages_of(const object& v) {
    const auto type = str(v, "type");
    const auto& fields = v.at("fields").as_object();
    if (type != "Frame") return {compact_message(type, fields)};
    std::vector<hc::ServerMessage> out;
    for (const auto& m : fields.at("messages").as_array())
        out.push_back(compact_message(str(m.as_object(), "type"), m.as_object().at("fields").as_object()));
    return out;
}

const boost::json::array& compact_section(const char* name) {
    static const auto doc = test::load_vectors("hns_compact.json");
    return doc.at(name).as_array();
}

TEST(HnsCompactVectors, ValidMessagesDecodeToTheirFieldsAndEncodeToTheirBytes) {
    int checked = 0;
    for (const auto& entry : compact_section("valid")) {
        const auto& v = entry.as_object();
        SCOPED_TRACE(str(v, "name"));
        const Bytes bytes = test::from_hex(str(v, "hex"));
        const auto expected = messages_of(v);
        const auto decoded = hc::decode_checked(bytes);
        ASSERT_TRUE(decoded.ok()) << protocol::sprite_v1::describe(decoded.error());
        EXPECT_EQ(*decoded, expected);
        Bytes encoded;
        for (const auto& m : expected) EXPECT_FALSE(hc::append(encoded, m).has_value());
        EXPECT_EQ(encoded, bytes);
        ++checked;
    }
    EXPECT_GE(checked, 12);
}

TEST(HnsCompactVectors, BlocksInflateAndWidenToTheirRgba) {
    int checked = 0;
    for (const auto& entry : compact_section("valid")) {
        const auto& v = entry.as_object();
        if (str(v, "type") != "DefineBlock") continue;
        SCOPED_TRACE(str(v, "name"));
        const auto block = std::get<hc::DefineBlock>(compact_message("DefineBlock", v.at("fields").as_object()));
        const auto rgba = hc::unpack_block(block);
        ASSERT_TRUE(rgba.ok()) << protocol::sprite_v1::describe(rgba.error());
        EXPECT_EQ(*rgba, test::from_hex(str(v.at("fields").as_object(), "rgba")));
        // Packing those pixels again finds the same scale and inflates to the same pixels.
        const auto packed = hc::pack_block(*rgba, block.width, block.height);
        EXPECT_EQ(packed.scale, block.scale);
        EXPECT_EQ(*hc::unpack_block({0, block.width, block.height, packed.scale, packed.zlib}), *rgba);
        ++checked;
    }
    EXPECT_GE(checked, 4);
}

TEST(HnsCompactVectors, MalformedMessagesGiveTheirError) {
    std::set<std::string> errors_seen;
    for (const auto& entry : compact_section("malformed")) {
        const auto& v = entry.as_object();
        SCOPED_TRACE(str(v, "name"));
        const auto decoded = hc::decode_checked(test::from_hex(str(v, "hex")));
        EXPECT_EQ(std::string(decoded ? "ok" : protocol::sprite_v1::error_name(decoded.error())), str(v, "error"));
        errors_seen.insert(str(v, "error"));
    }
    for (const char* rule : {"UnknownType", "Truncated", "TooLarge", "ZeroDimension", "BadScale", "BadZlib", "SizeMismatch", "BadFlags"})
        EXPECT_TRUE(errors_seen.count(rule)) << rule;
}

TEST(HnsCompactVectors, AReceiverStopsAtTheFirstStateError) {
    int checked = 0;
    for (const auto& entry : compact_section("receiver")) {
        const auto& v = entry.as_object();
        SCOPED_TRACE(str(v, "name"));
        sprite_board::Board board;
        std::optional<std::string> error;
        for (const auto& hex : v.at("messages").as_array()) {
            error = board.apply_compact(test::from_hex(std::string(hex.as_string())));
            if (error) break;
        }
        if (v.at("error").is_null()) EXPECT_EQ(error, std::nullopt);
        else EXPECT_EQ(error, std::optional<std::string>(str(v, "error")));
        ++checked;
    }
    EXPECT_GE(checked, 8);
}

}  // namespace
}  // namespace hschool
