// Sprite v1 golden vectors (tests/vectors/sprite_v1.json): every valid WebSocket message decodes to
// its fields and encodes back to its bytes; every malformed one gives its error.
#include <gtest/gtest.h>

#include "protocol/sprite_pixels.hpp"
#include "protocol/sprite_v1.hpp"
#include "sprite_vector_fields.hpp"
#include "vectors.hpp"

namespace hschool {
namespace {

using boost::json::object;
namespace sv = protocol::sprite_v1;
using protocol::Bytes;
using test::num;
using test::server_message;
using test::str;

sv::ClientMessage client_message(const std::string& type, const object& f) {
    if (type == "InputText") return sv::InputText{str(f, "text")};
    if (type == "MousePosition") {
        sv::MousePosition m{num<std::int16_t>(f, "x"), num<std::int16_t>(f, "y"), std::nullopt};
        if (!f.at("layer").is_null()) m.layer = num<std::uint8_t>(f, "layer");
        return m;
    }
    if (type == "MouseButton") return sv::MouseButton{num<std::uint8_t>(f, "code"), f.at("down").as_bool()};
    if (type == "PlayerInput") return sv::PlayerInput{num<std::uint8_t>(f, "mask")};
    if (type == "PlayerReady") return sv::PlayerReady{};
    if (type == "DebugSprites") return sv::DebugSprites{test::from_hex(str(f, "payload"))};
    if (type == "SpritesOff") return sv::SpritesOff{};
    throw std::runtime_error("unknown Sprite v1 client type " + type);
}

// A vector is one message, or a Frame of several: either way, the list it describes.
template <class Message, class Build>
std::vector<Message> messages_of(const object& v, Build build) {
    const auto type = str(v, "type");
    const auto& fields = v.at("fields").as_object();
    if (type != "Frame") return {build(type, fields)};
    std::vector<Message> out;
    for (const auto& m : fields.at("messages").as_array())
        out.push_back(build(str(m.as_object(), "type"), m.as_object().at("fields").as_object()));
    return out;
}

template <class Message>
Bytes encode_all(const std::vector<Message>& messages) {
    Bytes out;
    for (const auto& m : messages) EXPECT_FALSE(sv::append(out, m).has_value());
    return out;
}

const boost::json::array& section(const char* name) {
    static const auto doc = test::load_vectors("sprite_v1.json");
    return doc.at(name).as_array();
}

TEST(SpriteV1Vectors, ValidMessagesDecodeToTheirFieldsAndEncodeToTheirBytes) {
    int checked = 0;
    for (const auto& entry : section("valid")) {
        const auto& v = entry.as_object();
        SCOPED_TRACE(str(v, "name"));
        const Bytes bytes = test::from_hex(str(v, "hex"));
        if (str(v, "direction") == "server") {
            const auto expected = messages_of<sv::ServerMessage>(v, server_message);
            const auto decoded = sv::decode_server_checked(bytes);
            ASSERT_TRUE(decoded.ok()) << sv::describe(decoded.error());
            EXPECT_EQ(*decoded, expected);
            EXPECT_EQ(encode_all(expected), bytes);
        } else {
            const auto expected = messages_of<sv::ClientMessage>(v, client_message);
            const auto decoded = sv::decode_client(bytes);
            ASSERT_TRUE(decoded.ok()) << sv::describe(decoded.error());
            EXPECT_EQ(*decoded, expected);
            EXPECT_EQ(encode_all(expected), bytes);
        }
        ++checked;
    }
    EXPECT_GE(checked, 30);
}

TEST(SpriteV1Vectors, SpritePixelsDecompressToTheirRgba) {
    int checked = 0;
    for (const auto& entry : section("valid")) {
        const auto& v = entry.as_object();
        if (str(v, "type") != "DefineSprite") continue;
        SCOPED_TRACE(str(v, "name"));
        const auto& f = v.at("fields").as_object();
        if (f.at("rgba").is_null()) {
            EXPECT_TRUE(str(f, "compressed").empty());
            continue;
        }
        const Bytes rgba = test::from_hex(str(f, "rgba"));
        const auto out = sv::decompress_rgba(test::from_hex(str(f, "compressed")), num<std::uint16_t>(f, "width"),
                                             num<std::uint16_t>(f, "height"));
        ASSERT_TRUE(out.ok()) << sv::describe(out.error());
        EXPECT_EQ(*out, rgba);
        // Our encoder wrote the vector's bytes, so re-compressing gives them back.
        EXPECT_EQ(sv::compress_rgba(rgba), test::from_hex(str(f, "compressed")));
        ++checked;
    }
    EXPECT_GE(checked, 3);
}

TEST(SpriteV1Vectors, MalformedMessagesGiveTheirError) {
    std::set<std::string> errors_seen;
    for (const auto& entry : section("malformed")) {
        const auto& v = entry.as_object();
        SCOPED_TRACE(str(v, "name"));
        const Bytes bytes = test::from_hex(str(v, "hex"));
        const bool server = str(v, "direction") == "server";
        const auto error = server ? sv::decode_server_checked(bytes) ? "ok" : sv::error_name(sv::decode_server_checked(bytes).error())
                                  : sv::decode_client(bytes) ? "ok" : sv::error_name(sv::decode_client(bytes).error());
        EXPECT_EQ(std::string(error), str(v, "error"));
        errors_seen.insert(str(v, "error"));
    }
    // Every error rule of §1 has at least one vector.
    for (const char* rule : {"UnknownType", "Truncated", "TooLarge", "BadSnappy", "SizeMismatch", "ZeroDimension",
                             "BadBoolean", "BadLayerType"})
        EXPECT_TRUE(errors_seen.count(rule)) << rule;
}

TEST(SpriteV1Vectors, TheSpecExampleBytesAreTheFirstVectors) {
    const auto& first = section("valid").at(0).as_object();
    EXPECT_EQ(str(first, "hex"),
              "01 07 00 02 00 02 00 12 00 00 00 10 3c ff 00 00 ff 00 ff 00 ff 00 00 ff ff 00 00 00 00 04 00 74 65 73 74");
    const auto& object = section("valid").at(4).as_object();
    EXPECT_EQ(str(object, "hex"), "02 03 00 0a 00 14 00 00 00 00 07 00");
}

}  // namespace
}  // namespace hschool
