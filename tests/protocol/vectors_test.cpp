// Golden vectors: every frame in tests/vectors/*.json decodes to its fields and encodes back to its bytes.
#include <gtest/gtest.h>

#include "protocol/v1.hpp"
#include "protocol/v4.hpp"
#include "protocol/v5.hpp"
#include "vectors.hpp"

namespace hschool {
namespace {

using boost::json::object;
using boost::json::value;
namespace p1 = protocol::v1;
namespace p4 = protocol::v4;
namespace p5 = protocol::v5;

std::int64_t i(const object& o, const char* key) { return o.at(key).to_number<std::int64_t>(); }
template <class T>
T u(const object& o, const char* key) {
    return static_cast<T>(o.at(key).to_number<std::int64_t>());
}
float f(const object& o, const char* key) { return static_cast<float>(o.at(key).to_number<double>()); }
std::string s(const object& o, const char* key) { return std::string(o.at(key).as_string()); }
std::vector<std::string> strings(const object& o, const char* key) {
    std::vector<std::string> out;
    for (const auto& v : o.at(key).as_array()) out.emplace_back(v.as_string());
    return out;
}

// Builds the message a vector describes, straight from its JSON fields.
p1::ClientMessage v1_client(const std::string& type, const object& o) {
    if (type == "Hello") return p1::Hello{u<std::uint8_t>(o, "version"), s(o, "name")};
    if (type == "Input") return p1::Input{u<std::uint32_t>(o, "sequence"), u<std::uint8_t>(o, "buttons")};
    if (type == "Ping") return p1::Ping{i(o, "clientTimeMs")};
    throw std::runtime_error("unknown v1 client type " + type);
}
p1::ServerMessage v1_server(const std::string& type, const object& o) {
    if (type == "Welcome")
        return p1::Welcome{u<std::uint8_t>(o, "version"), u<std::uint32_t>(o, "playerId"), u<std::uint8_t>(o, "tickRate"),
                           f(o, "worldWidth"), f(o, "worldHeight")};
    if (type == "Snapshot") {
        p1::Snapshot snap{u<std::uint32_t>(o, "tick"), {}};
        for (const auto& e : o.at("entities").as_array()) {
            const auto& eo = e.as_object();
            snap.entities.push_back({u<std::uint32_t>(eo, "id"), u<std::uint8_t>(eo, "kind"), f(eo, "x"), f(eo, "y"),
                                     f(eo, "radius"), u<std::uint32_t>(eo, "colour")});
        }
        return snap;
    }
    if (type == "Pong") return p1::Pong{i(o, "clientTimeMs"), u<std::uint32_t>(o, "serverTick")};
    throw std::runtime_error("unknown v1 server type " + type);
}
p4::ClientMessage v4_client(const std::string& type, const object& o) {
    if (type == "Hello") return p4::Hello{u<std::uint8_t>(o, "version"), u<std::uint8_t>(o, "locale")};
    if (type == "Ping") return p4::Ping{i(o, "clientTimeMs")};
    if (type == "OpenSchool") return p4::OpenSchool{u<std::int32_t>(o, "schoolId")};
    if (type == "CloseSchool") return p4::CloseSchool{};
    if (type == "SetRunning") return p4::SetRunning{u<std::uint8_t>(o, "running")};
    if (type == "SetSpeed") return p4::SetSpeed{u<std::uint8_t>(o, "speedIndex")};
    throw std::runtime_error("unknown v4 client type " + type);
}
p4::ServerMessage v4_server(const std::string& type, const object& o) {
    if (type == "Welcome")
        return p4::Welcome{u<std::uint8_t>(o, "version"), u<std::uint8_t>(o, "tickRate"), u<std::uint8_t>(o, "maxSchools")};
    if (type == "Pong") return p4::Pong{i(o, "clientTimeMs"), u<std::uint32_t>(o, "serverTick")};
    if (type == "Clock")
        return p4::Clock{u<std::int32_t>(o, "schoolId"), i(o, "gameTimeMs"), u<std::uint8_t>(o, "running"),
                         u<std::uint8_t>(o, "speedIndex")};
    if (type == "SchoolGone") return p4::SchoolGone{u<std::int32_t>(o, "schoolId")};
    if (type == "MapSnapshot") {
        p4::MapSnapshot snap{u<std::int32_t>(o, "schoolId"), {}};
        for (const auto& n : o.at("nodes").as_array()) {
            const auto& no = n.as_object();
            snap.nodes.push_back({u<std::uint8_t>(no, "kind"), s(no, "id"), s(no, "parent"), s(no, "name"),
                                  strings(no, "items"), strings(no, "positions")});
        }
        return snap;
    }
    throw std::runtime_error("unknown v4 server type " + type);
}

p5::ClientMessage v5_client(const std::string& type, const object& o) {
    if (type == "Hello") return p5::Hello{u<std::uint8_t>(o, "version"), s(o, "name")};
    if (type == "Input") return p5::Input{u<std::uint32_t>(o, "seq"), u<std::uint8_t>(o, "mask")};
    if (type == "Ping") return p5::Ping{i(o, "clientTimeMs")};
    throw std::runtime_error("unknown v5 client type " + type);
}
p5::Frame v5_frame(const object& o) {
    p5::Frame m{u<std::uint32_t>(o, "tick"), u<std::uint32_t>(o, "baseTick"), u<std::uint8_t>(o, "flags"),
                u<std::uint32_t>(o, "ackSeq"), u<std::uint8_t>(o, "inputQueue"), u<std::uint8_t>(o, "mask"),
                f(o, "selfX"), f(o, "selfY"), {}, {}, {}, u<std::uint8_t>(o, "farCols"), u<std::uint8_t>(o, "farRows"), {}};
    for (const auto& v : o.at("leaves").as_array()) m.leaves.push_back(static_cast<std::uint16_t>(v.to_number<int>()));
    for (const auto& v : o.at("enters").as_array()) {
        const auto& e = v.as_object();
        m.enters.push_back({u<std::uint16_t>(e, "slot"), u<std::uint32_t>(e, "id"), u<std::uint16_t>(e, "qx"),
                            u<std::uint16_t>(e, "qy"), u<std::uint32_t>(e, "colour")});
    }
    for (const auto& v : o.at("updates").as_array()) {
        const auto& e = v.as_object();
        m.updates.push_back({u<std::uint16_t>(e, "slot"), u<std::uint8_t>(e, "form"), u<std::int8_t>(e, "dx"),
                             u<std::int8_t>(e, "dy"), u<std::uint8_t>(e, "fields"), u<std::uint16_t>(e, "qx"),
                             u<std::uint16_t>(e, "qy"), u<std::uint32_t>(e, "colour")});
    }
    for (const auto& v : o.at("far").as_array()) m.far.push_back(static_cast<std::uint8_t>(v.to_number<int>()));
    return m;
}
p5::ServerMessage v5_server(const std::string& type, const object& o) {
    if (type == "Welcome")
        return p5::Welcome{u<std::uint8_t>(o, "version"),  u<std::uint32_t>(o, "playerId"), u<std::uint16_t>(o, "selfSlot"),
                           u<std::uint8_t>(o, "tickRate"), f(o, "width"),                  f(o, "height"),
                           f(o, "playerSpeed"),            f(o, "playerRadius"),           u<std::int8_t>(o, "quantumExp"),
                           u<std::uint16_t>(o, "cellSize"), u<std::uint8_t>(o, "gridCols"), u<std::uint8_t>(o, "gridRows"),
                           u<std::uint8_t>(o, "windowCells"), u<std::uint8_t>(o, "farEvery")};
    if (type == "Pong") return p5::Pong{i(o, "clientTimeMs"), u<std::uint32_t>(o, "serverTick")};
    if (type == "StaticWorld") {
        p5::StaticWorld m{u<std::uint32_t>(o, "firstId"), u<std::uint32_t>(o, "colour"), {}};
        for (const auto& v : o.at("obstacles").as_array())
            m.obstacles.push_back({f(v.as_object(), "x"), f(v.as_object(), "y"), f(v.as_object(), "radius")});
        return m;
    }
    if (type == "Frame") return v5_frame(o);
    throw std::runtime_error("unknown v5 server type " + type);
}

std::string error_name(protocol::DecodeError e) {
    using protocol::DecodeError;
    switch (e) {
        case DecodeError::Empty: return "Empty";
        case DecodeError::Truncated: return "Truncated";
        case DecodeError::TrailingBytes: return "TrailingBytes";
        case DecodeError::LengthTooLarge: return "LengthTooLarge";
        case DecodeError::CountTooLarge: return "CountTooLarge";
        case DecodeError::InvalidUtf8: return "InvalidUtf8";
        case DecodeError::InvalidFieldMask: return "InvalidFieldMask";
    }
    return "?";
}

// Encoding the message a vector describes gives back the vector's bytes.
template <class Unknown, class Variant, class Encode>
void expect_encodes_to(const Variant& message, const protocol::Bytes& bytes, Encode encode) {
    std::visit(
        [&](const auto& m) {
            if constexpr (!std::is_same_v<std::decay_t<decltype(m)>, Unknown>) {
                EXPECT_EQ(encode(m), bytes);
            }
        },
        message);
}

template <class Check>
void for_each_vector(const char* file, const char* section, Check&& check) {
    const auto doc = test::load_vectors(file);
    const auto& list = doc.at(section).as_array();
    ASSERT_FALSE(list.empty()) << file << " has no " << section << " vectors";
    for (const auto& v : list) {
        const auto& o = v.as_object();
        SCOPED_TRACE(std::string(file) + ": " + s(o, "name"));
        check(o, test::from_hex(o.at("hex").as_string()));
    }
}

TEST(GoldenVectors, V1ValidFramesDecodeToTheirFieldsAndEncodeToTheirBytes) {
    for_each_vector("v1.json", "valid", [](const object& o, const protocol::Bytes& bytes) {
        const auto type = s(o, "type");
        const auto& fields = o.at("fields").as_object();
        if (s(o, "direction") == "client") {
            const auto expected = v1_client(type, fields);
            auto decoded = p1::decode_client(bytes);
            ASSERT_TRUE(decoded.ok()) << protocol::describe(decoded.error());
            EXPECT_EQ(*decoded, expected);
            expect_encodes_to<p1::Unknown>(expected, bytes, [](const auto& m) { return p1::encode(m); });
        } else {
            const auto expected = v1_server(type, fields);
            auto decoded = p1::decode_server(bytes);
            ASSERT_TRUE(decoded.ok()) << protocol::describe(decoded.error());
            EXPECT_EQ(*decoded, expected);
            expect_encodes_to<p1::Unknown>(expected, bytes, [](const auto& m) { return p1::encode(m); });
        }
    });
}

TEST(GoldenVectors, V4ValidFramesDecodeToTheirFieldsAndEncodeToTheirBytes) {
    for_each_vector("v4.json", "valid", [](const object& o, const protocol::Bytes& bytes) {
        const auto type = s(o, "type");
        const auto& fields = o.at("fields").as_object();
        if (s(o, "direction") == "client") {
            const auto expected = v4_client(type, fields);
            auto decoded = p4::decode_client(bytes);
            ASSERT_TRUE(decoded.ok()) << protocol::describe(decoded.error());
            EXPECT_EQ(*decoded, expected);
            expect_encodes_to<p4::Unknown>(expected, bytes, [](const auto& m) { return p4::encode(m); });
        } else {
            const auto expected = v4_server(type, fields);
            auto decoded = p4::decode_server(bytes);
            ASSERT_TRUE(decoded.ok()) << protocol::describe(decoded.error());
            EXPECT_EQ(*decoded, expected);
            expect_encodes_to<p4::Unknown>(expected, bytes, [](const auto& m) { return p4::encode(m); });
        }
    });
}

TEST(GoldenVectors, V5ValidFramesDecodeToTheirFieldsAndEncodeToTheirBytes) {
    for_each_vector("v5.json", "valid", [](const object& o, const protocol::Bytes& bytes) {
        const auto type = s(o, "type");
        const auto& fields = o.at("fields").as_object();
        if (s(o, "direction") == "client") {
            const auto expected = v5_client(type, fields);
            auto decoded = p5::decode_client(bytes);
            ASSERT_TRUE(decoded.ok()) << protocol::describe(decoded.error());
            EXPECT_EQ(*decoded, expected);
            expect_encodes_to<p5::Unknown>(expected, bytes, [](const auto& m) { return p5::encode(m); });
        } else {
            const auto expected = v5_server(type, fields);
            auto decoded = p5::decode_server(bytes);
            ASSERT_TRUE(decoded.ok()) << protocol::describe(decoded.error());
            EXPECT_EQ(*decoded, expected);
            expect_encodes_to<p5::Unknown>(expected, bytes, [](const auto& m) { return p5::encode(m); });
            if (const auto* frame = std::get_if<p5::Frame>(&expected)) {
                EXPECT_EQ(p5::frame_bytes(*frame), bytes.size());
            }
        }
    });
}

template <class DecodeClient, class DecodeServer>
void check_malformed(const char* file, DecodeClient decode_client, DecodeServer decode_server) {
    for_each_vector(file, "malformed", [&](const object& o, const protocol::Bytes& bytes) {
        const bool client = s(o, "direction") == "client";
        const auto error = client ? (decode_client(bytes).ok() ? std::string("ok") : error_name(decode_client(bytes).error()))
                                  : (decode_server(bytes).ok() ? std::string("ok") : error_name(decode_server(bytes).error()));
        EXPECT_EQ(error, s(o, "error"));
    });
}

TEST(GoldenVectors, V1MalformedFramesGiveTheirError) { check_malformed("v1.json", p1::decode_client, p1::decode_server); }
TEST(GoldenVectors, V4MalformedFramesGiveTheirError) { check_malformed("v4.json", p4::decode_client, p4::decode_server); }
TEST(GoldenVectors, V5MalformedFramesGiveTheirError) { check_malformed("v5.json", p5::decode_client, p5::decode_server); }

template <class Unknown, class DecodeClient, class DecodeServer>
void check_unknown(const char* file, DecodeClient decode_client, DecodeServer decode_server) {
    for_each_vector(file, "unknown", [&](const object& o, const protocol::Bytes& bytes) {
        const auto id = u<std::uint8_t>(o, "id");
        if (s(o, "direction") == "client") {
            auto decoded = decode_client(bytes);
            ASSERT_TRUE(decoded.ok());
            ASSERT_TRUE(std::holds_alternative<Unknown>(*decoded));
            EXPECT_EQ(std::get<Unknown>(*decoded).id, id);
        } else {
            auto decoded = decode_server(bytes);
            ASSERT_TRUE(decoded.ok());
            ASSERT_TRUE(std::holds_alternative<Unknown>(*decoded));
            EXPECT_EQ(std::get<Unknown>(*decoded).id, id);
        }
    });
}

TEST(GoldenVectors, V1UnknownIdsAreIgnoredNotErrors) { check_unknown<p1::Unknown>("v1.json", p1::decode_client, p1::decode_server); }
TEST(GoldenVectors, V4UnknownIdsAreIgnoredNotErrors) { check_unknown<p4::Unknown>("v4.json", p4::decode_client, p4::decode_server); }
TEST(GoldenVectors, V5UnknownIdsAreIgnoredNotErrors) { check_unknown<p5::Unknown>("v5.json", p5::decode_client, p5::decode_server); }

}  // namespace
}  // namespace hschool
