// The web client's files: only regular, visible files under the canonical root, and nothing at all
// without a usable root.
#include "net/static_files.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <vector>

namespace hschool::net {
namespace {

class StaticFiles : public ::testing::Test {
protected:
    void SetUp() override {
        base_ = std::filesystem::temp_directory_path() / ("hschool-static-" + std::to_string(std::random_device{}()));
        std::filesystem::create_directories(base_ / "web" / "assets");
        std::filesystem::create_directories(base_ / "web" / ".git");
        std::ofstream(base_ / "web" / "index.html") << "<title>HSchool</title>";
        std::ofstream(base_ / "web" / "assets" / "a+b.js") << "plus";
        std::ofstream(base_ / "web" / ".git" / "config") << "[core]";
        std::ofstream(base_ / "secret.txt") << "not for the web";
        std::filesystem::create_symlink(base_ / "secret.txt", base_ / "web" / "link.txt");
    }
    void TearDown() override { std::filesystem::remove_all(base_); }

    HttpResponse get(const std::string& path) const {
        const auto root = resolve_web_root(base_ / "web");
        EXPECT_TRUE(std::holds_alternative<std::filesystem::path>(root));
        HttpResponse out;
        static_files(std::get<std::filesystem::path>(root))(HttpRequest{"GET", path, "", "", "", "", "", "", ""}, {},
                                                            [&](HttpResponse r) { out = std::move(r); });
        return out;
    }

    std::filesystem::path base_;
};

TEST_F(StaticFiles, ServesFilesUnderTheRoot) {
    EXPECT_EQ(get("/").status, 200U);
    EXPECT_EQ(get("/index.html").body, "<title>HSchool</title>");
    EXPECT_EQ(get("/assets/a+b.js").body, "plus");  // '+' is part of the name
}

TEST_F(StaticFiles, RefusesEverythingThatCouldNameAFileElsewhere) {
    for (const std::string& path : std::vector<std::string>{"//etc/passwd", "///etc/passwd", "/../secret.txt", "/assets/../../secret.txt",
                                   "/..\\secret.txt", "/assets\\..\\..\\secret.txt", std::string("/index.html\0.txt", 16),
                                   std::string("/\0", 2), "/.git/config", "/assets/./../index.html", "/link.txt"}) {
        const auto response = get(path);
        EXPECT_EQ(response.status, 404U) << path;
        EXPECT_EQ(response.body.find("not for the web"), std::string::npos) << path;
        EXPECT_EQ(response.body.find("root:"), std::string::npos) << path;
    }
}

TEST_F(StaticFiles, WithoutARootEveryPathIsNotFound) {
    HttpResponse out;
    for (const char* path : {"/", "/index.html", "//etc/passwd"}) {
        static_files(std::nullopt)(HttpRequest{"GET", path, "", "", "", "", "", "", ""}, {}, [&](HttpResponse r) { out = std::move(r); });
        EXPECT_EQ(out.status, 404U) << path;
    }
}

TEST_F(StaticFiles, AnUnusableRootSaysWhy) {
    const auto why = [](const std::filesystem::path& root) {
        const auto resolved = resolve_web_root(root);
        return std::holds_alternative<std::string>(resolved) ? std::get<std::string>(resolved) : std::string("usable");
    };
    EXPECT_EQ(why(""), "the path is empty");
    EXPECT_EQ(why(base_ / "missing"), "it does not exist");
    EXPECT_EQ(why(base_ / "secret.txt"), "it is not a directory");
    EXPECT_EQ(why(base_ / "web"), "usable");
    const auto resolved = resolve_web_root(base_ / "web" / ".." / "web");
    ASSERT_TRUE(std::holds_alternative<std::filesystem::path>(resolved));
    EXPECT_EQ(std::get<std::filesystem::path>(resolved), std::filesystem::canonical(base_ / "web"));
}

}  // namespace
}  // namespace hschool::net
