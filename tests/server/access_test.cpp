// The access policy's pieces: modes and their defaults, tokens, hashes, bearer headers, the
// operator's token file, and who may change a thing in each mode.
#include "server/access.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <set>

#include "net/http_router.hpp"
#include "net/origin_policy.hpp"

namespace hschool::server {
namespace {

// The credentials' pieces the policy builds on (net/credentials.hpp).
using net::bearer_token;
using net::constant_time_equal;
using net::kTokenHexChars;
using net::new_token;
using net::token_hash;

class TempFolder {
public:
    TempFolder() {
        char pattern[] = "/tmp/hschool-access-XXXXXX";
        path_ = mkdtemp(pattern);
    }
    ~TempFolder() { std::filesystem::remove_all(path_); }
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

TEST(AccessMode, DefaultsToOpenOnLoopbackAndInDropInModeOnly) {
    for (const char* loopback : {"127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "::ffff:127.0.0.1"})
        EXPECT_EQ(default_access_mode(loopback, false), AccessMode::Open) << loopback;
    for (const char* exposed : {"0.0.0.0", "::", "192.0.2.7", "10.0.0.1", "2001:db8::1", "128.0.0.1", "example.org", ""})
        EXPECT_EQ(default_access_mode(exposed, false), AccessMode::Owners) << exposed;
    // A league pod listens on 0.0.0.0 and is reached only by its runner, as the reference's is.
    EXPECT_EQ(default_access_mode("0.0.0.0", true), AccessMode::Open);
}

TEST(AccessMode, ParsesOnlyItsTwoNames) {
    EXPECT_EQ(parse_access_mode("open"), AccessMode::Open);
    EXPECT_EQ(parse_access_mode("owners"), AccessMode::Owners);
    EXPECT_FALSE(parse_access_mode("Owners"));
    EXPECT_FALSE(parse_access_mode(""));
    EXPECT_STREQ(access_mode_text(AccessMode::Owners), "owners");
    EXPECT_STREQ(access_mode_text(AccessMode::Open), "open");
}

TEST(Tokens, AreFreshLowerCaseHexOf256Bits) {
    std::set<std::string> seen;
    for (int i = 0; i < 64; ++i) {
        const std::string token = new_token();
        ASSERT_EQ(token.size(), kTokenHexChars);
        EXPECT_EQ(token.find_first_not_of("0123456789abcdef"), std::string::npos) << token;
        seen.insert(token);
    }
    EXPECT_EQ(seen.size(), 64U);
}

TEST(Tokens, HashIsSha256Hex) {
    // FIPS 180-2 test vector.
    EXPECT_EQ(token_hash("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(token_hash(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Tokens, ConstantTimeEqualComparesWholeStrings) {
    EXPECT_TRUE(constant_time_equal("abc", "abc"));
    EXPECT_FALSE(constant_time_equal("abc", "abd"));
    EXPECT_FALSE(constant_time_equal("abc", "abcd"));
    EXPECT_TRUE(constant_time_equal("", ""));
}

TEST(Tokens, BearerHeaderGivesItsToken) {
    EXPECT_EQ(bearer_token("Bearer abc123"), "abc123");
    EXPECT_EQ(bearer_token("bearer   abc123  "), "abc123");
    EXPECT_EQ(bearer_token("Basic dXNlcjpwYXNz"), "");
    EXPECT_EQ(bearer_token("Bearer"), "");
    EXPECT_EQ(bearer_token("Bearer "), "");
    EXPECT_EQ(bearer_token(""), "");
    EXPECT_EQ(bearer_token("Bearerabc"), "");
}

TEST(AdminTokenFile, IsCreatedPrivateOnFirstStartAndReusedAfter) {
    TempFolder dir;
    const auto path = dir.path() / "sub" / "admin.token";
    std::string error;
    auto first = load_or_create_admin_token(path, error);
    ASSERT_TRUE(first) << error;
    EXPECT_TRUE(first->created);
    EXPECT_EQ(first->token.size(), kTokenHexChars);
    struct stat info {};
    ASSERT_EQ(::stat(path.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0600U);
    auto second = load_or_create_admin_token(path, error);
    ASSERT_TRUE(second) << error;
    EXPECT_FALSE(second->created);
    EXPECT_EQ(second->token, first->token);
}

TEST(AdminTokenFile, RefusesATokenTooShortOrWithSpacesInside) {
    TempFolder dir;
    const auto path = dir.path() / "admin.token";
    for (const char* bad : {"short", "", "has a space inside but is long enough to pass the length"}) {
        std::ofstream(path, std::ios::trunc) << bad;
        std::string error;
        EXPECT_FALSE(load_or_create_admin_token(path, error)) << bad;
        EXPECT_NE(error.find(path.string()), std::string::npos) << error;
    }
    std::ofstream(path, std::ios::trunc) << "  0123456789abcdef0123456789abcdef-operator\n";
    std::string error;
    auto good = load_or_create_admin_token(path, error);
    ASSERT_TRUE(good) << error;
    EXPECT_EQ(good->token, "0123456789abcdef0123456789abcdef-operator");
}

TEST(AdminTokenFile, NamesTheFileWhenItCannotBeCreated) {
    std::string error;
    EXPECT_FALSE(load_or_create_admin_token("/proc/hschool-no/admin.token", error));
    EXPECT_NE(error.find("/proc/hschool-no/admin.token"), std::string::npos) << error;
}

TEST(AccessPolicy, OpenGrantsEveryone) {
    const AccessPolicy open;
    EXPECT_FALSE(open.owners());
    EXPECT_EQ(open.check("", ""), Permission::Granted);
    EXPECT_EQ(open.check("anything", token_hash("other")), Permission::Granted);
}

TEST(AccessPolicy, OwnersGrantsTheOwnerAndTheOperatorOnly) {
    const std::string admin = new_token();
    const std::string owner = new_token();
    const AccessPolicy policy(AccessMode::Owners, admin);
    const std::string owned = token_hash(owner);
    EXPECT_EQ(policy.check("", owned), Permission::Missing);
    EXPECT_EQ(policy.check(owner, owned), Permission::Granted);
    EXPECT_EQ(policy.check(admin, owned), Permission::Granted);
    EXPECT_EQ(policy.check(new_token(), owned), Permission::Refused);
    // The hash itself is not a credential.
    EXPECT_EQ(policy.check(owned, owned), Permission::Refused);
    // Things without an owner (the default match, rows from before owners) are the operator's.
    EXPECT_EQ(policy.check(admin, ""), Permission::Granted);
    EXPECT_EQ(policy.check(owner, ""), Permission::Refused);
    EXPECT_TRUE(policy.is_operator(admin));
    EXPECT_FALSE(policy.is_operator(owner));
    EXPECT_FALSE(policy.is_operator(""));
}

TEST(SchoolRights, AnUpgradesTokenListGivesTheSchoolsItMayControl) {
    const std::string admin = new_token(), owner = new_token();
    const AccessPolicy owners(AccessMode::Owners, admin);
    auto rights = school_rights(owners, "");
    ASSERT_TRUE(rights);
    EXPECT_FALSE(rights->every_school);
    EXPECT_FALSE(rights->allows(token_hash(owner)));
    EXPECT_FALSE(rights->allows(""));
    rights = school_rights(owners, "nonsense," + owner + ",,");
    ASSERT_TRUE(rights);
    EXPECT_TRUE(rights->allows(token_hash(owner)));
    EXPECT_FALSE(rights->allows(token_hash("nonsense-other")));
    EXPECT_FALSE(rights->allows("")) << "a school without an owner is the operator's";
    rights = school_rights(owners, owner + "," + admin);
    ASSERT_TRUE(rights);
    EXPECT_TRUE(rights->every_school);
    EXPECT_TRUE(rights->allows(""));
    // Open mode: everything, whatever is sent.
    rights = school_rights(AccessPolicy{}, "x");
    ASSERT_TRUE(rights);
    EXPECT_TRUE(rights->allows(""));
}

TEST(SchoolRights, ListsOverTheirLimitsAreRefused) {
    const AccessPolicy owners(AccessMode::Owners, new_token());
    std::string sixteen, seventeen;
    for (int i = 0; i < 16; ++i) sixteen += (i ? "," : "") + new_token();
    seventeen = sixteen + "," + new_token();
    EXPECT_TRUE(school_rights(owners, sixteen));
    EXPECT_FALSE(school_rights(owners, seventeen));
    EXPECT_FALSE(school_rights(owners, std::string(kMaxUpgradeTokenChars + 1, 'a')));
    EXPECT_FALSE(school_rights(AccessPolicy{}, seventeen)) << "the limit holds in open mode too";
}

TEST(AccessPolicy, RefusalsAreProblemsThatSayWhichCredentialIsWanted) {
    const auto missing = permission_problem(Permission::Missing, "this school");
    EXPECT_EQ(missing.status, 401U);
    EXPECT_NE(missing.body.find("\"code\":\"unauthorized\""), std::string::npos);
    EXPECT_NE(missing.body.find("this school"), std::string::npos);
    const auto refused = permission_problem(Permission::Refused, "this school");
    EXPECT_EQ(refused.status, 403U);
    EXPECT_NE(refused.body.find("\"code\":\"forbidden\""), std::string::npos);
}

// The router's write guard: every method but GET, HEAD and OPTIONS passes it before its handler.
TEST(WriteGuard, RefusesForeignOriginsOnWritesOnly) {
    net::HttpRouter router;
    int handled = 0;
    for (const char* method : {"GET", "POST", "DELETE", "OPTIONS"})
        router.add(method, "/thing", [&handled](const net::HttpRequest&, const net::PathParams&, net::Respond respond) {
            ++handled;
            respond({200, "text/plain", "ok", {}});
        });
    router.set_write_guard([](const net::HttpRequest& request) -> std::optional<net::HttpResponse> {
        if (net::origin_allowed(request.origin, request.host, {})) return std::nullopt;
        return net::problem(403, "forbidden-origin", "Forbidden origin", "no");
    });
    const auto send = [&router](const char* method, const char* origin) {
        net::HttpRequest request;
        request.method = method;
        request.path = "/thing";
        request.origin = origin;
        request.host = "game.example:8080";
        unsigned status = 0;
        router.handle(request, [&status](net::HttpResponse response) { status = response.status; });
        return status;
    };
    EXPECT_EQ(send("POST", "https://evil.example"), 403U);
    EXPECT_EQ(send("DELETE", "null"), 403U);
    EXPECT_EQ(handled, 0);
    EXPECT_EQ(send("POST", ""), 200U);  // curl, league runners: no Origin
    EXPECT_EQ(send("POST", "http://game.example:8080"), 200U);
    EXPECT_EQ(send("GET", "https://evil.example"), 200U);
    EXPECT_EQ(send("OPTIONS", "https://evil.example"), 200U);
    EXPECT_EQ(handled, 4);
}

}  // namespace
}  // namespace hschool::server
