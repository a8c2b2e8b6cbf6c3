// The shipped rooms: byte-identical to the canonical documents (sha256 pinned by the reference's
// test_hns_room.nim, §3.18), loaded and validated; broken files are errors naming file and field.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "hns_test_support.hpp"
#include "sha256.hpp"

using namespace hns_test;

TEST(HnsRoom, ShippedFilesMatchTheCanonicalSha256) {
    const std::pair<const char*, const char*> pins[] = {
        {"warren", "f323d25fac07ccd599e3167666ee2a1f6eb656917293925385bea9853f39802b"},
        {"atrium", "b37ebaa922da612717bb0f0f58973de5152f778ef6274ce88d25c2b01023848e"},
        {"long_hall", "1df111b14e23f372fd3c8a4949dc8a5f8c405d0d9706e296510b9bee1ebd6027"},
    };
    for (const auto& [name, sha] : pins) {
        const std::string text = read_file(hns::rooms_dir() + "/room_" + name + ".json");
        EXPECT_EQ(sha256_hex(text), sha) << name;
        // The spec pins the first 8 and last 6 hex digits.
        EXPECT_EQ(sha256_hex(text).substr(0, 8), std::string(sha).substr(0, 8));
    }
}

TEST(HnsRoom, Sha256SelfCheck) {
    EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(HnsRoom, ShippedRoomsLoadAndValidate) {
    for (const char* name : hns::kRoomNames) {
        auto room = hns::load_room_file(hns::rooms_dir() + "/room_" + name + ".json");
        ASSERT_TRUE(room) << room.error;
        EXPECT_EQ(room->name, name);
        EXPECT_EQ(room->pads(hns::AnchorTeam::Hiders).size(), 3u);
        EXPECT_EQ(room->pads(hns::AnchorTeam::Seekers).size(), 3u);
    }
    auto warren = hns::load_room_file(hns::rooms_dir() + "/room_warren.json");
    ASSERT_TRUE(warren);
    EXPECT_EQ(warren->spawns.size(), 24u);
    EXPECT_EQ(warren->walls.size(), 12u);
    EXPECT_EQ(warren->pads(hns::AnchorTeam::Seekers)[0].x, 368);
}

TEST(HnsRoom, CompactRoundTripReparsesToTheSameDocument) {
    auto room = hns::load_room_file(hns::rooms_dir() + "/room_atrium.json");
    ASSERT_TRUE(room);
    const std::string compact = hns::room_to_json(*room);
    auto again = hns::parse_room(compact);
    ASSERT_TRUE(again) << again.error;
    EXPECT_EQ(hns::room_to_json(*again), compact);
    EXPECT_EQ(boost::json::parse(compact), boost::json::parse(read_file(hns::rooms_dir() + "/room_atrium.json")));
}

namespace {

std::string broken(const std::string& from, const std::string& to) {
    std::string text = read_file(hns::rooms_dir() + "/room_warren.json");
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return text.replace(at, from.size(), to);
}

}  // namespace

TEST(HnsRoom, BrokenDocumentsNameTheField) {
    EXPECT_NE(hns::parse_room("{").error.find("not JSON"), std::string::npos);
    EXPECT_NE(hns::parse_room("[]").error.find("must be an object"), std::string::npos);
    EXPECT_NE(hns::parse_room(broken("\"w\": 720", "\"w\": \"720\"")).error.find("w: must be an integer"),
              std::string::npos);
    EXPECT_NE(hns::parse_room(broken("\"kind\": \"pad\"", "\"kind\": \"pod\"")).error.find("anchors[0].kind"),
              std::string::npos);
    // A hider pad moved into a wall.
    EXPECT_NE(hns::parse_room(broken("\"at\": [\n        80,\n        80\n      ]", "\"at\": [\n        8,\n        8\n      ]"))
                  .error.find("anchors[0].at"),
              std::string::npos);
    EXPECT_NE(hns::parse_room(broken("\"name\": \"warren\",\n  \"w\"", "\"w\"")).error.find("name: missing"),
              std::string::npos);
}

TEST(HnsRoom, LoaderErrorNamesTheFile) {
    const std::string path = (std::filesystem::temp_directory_path() / "hns_broken_room_test.json").string();
    {
        std::ofstream out(path);
        out << broken("\"axis\": \"v\"", "\"axis\": \"x\"");
    }
    auto room = hns::load_room_file(path);
    std::remove(path.c_str());
    ASSERT_FALSE(room);
    EXPECT_NE(room.error.find(path), std::string::npos) << room.error;
    EXPECT_NE(room.error.find(".axis"), std::string::npos) << room.error;
    auto missing = hns::load_room_file("/nonexistent/room.json");
    EXPECT_NE(missing.error.find("/nonexistent/room.json"), std::string::npos);
}

TEST(HnsRoom, PoolPicksBySeedModThree) {
    EXPECT_EQ(hns::room_for_seed("all", 0), "warren");
    EXPECT_EQ(hns::room_for_seed("all", 1), "atrium");
    EXPECT_EQ(hns::room_for_seed("all", 2), "long_hall");
    EXPECT_EQ(hns::room_for_seed("all", -1), "long_hall");
    EXPECT_EQ(hns::room_for_seed("warren", 2), "warren");
}
