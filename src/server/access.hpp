#pragma once
// Who may change or end what (DESIGN §4c). `open` trusts everyone who can reach the server, as the
// seeds and the reference do; `owners` lets a write through only with the owner's token (handed out
// once at creation, kept as a SHA-256 hash) or the operator's (a file in the data folder).
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/hns/permission.hpp"
#include "net/http_types.hpp"
#include "server/net_names.hpp"

namespace hschool::server {

enum class AccessMode { Open, Owners };

inline constexpr std::size_t kTokenBytes = 32;               // 256 random bits per token
inline constexpr std::size_t kTokenHexChars = kTokenBytes * 2;
inline constexpr std::size_t kMinAdminTokenChars = 32;        // a hand-written operator token is at least this long
inline constexpr std::uintmax_t kMaxAdminTokenFileBytes = 4096;
inline constexpr const char* kAdminTokenFileName = "admin.token";
inline constexpr const char* kAdminTokenFileEnv = "HSCHOOL_ADMIN_TOKEN_FILE";

const char* access_mode_text(AccessMode mode);
std::optional<AccessMode> parse_access_mode(std::string_view text);
// An address the outside world cannot reach: 127.0.0.0/8, ::1, localhost.
bool is_loopback_address(std::string_view address);
// The mode when --access is not given: open on loopback and in drop-in mode (a league pod is
// reached only by its runner), owners anywhere else — as Redis's protected mode keys off the bind.
AccessMode default_access_mode(std::string_view listen_address, bool dropin);

// 32 bytes from the system's CSPRNG as 64 lower-case hex characters.
std::string new_token();
// SHA-256 of the text, lower-case hex: what the server keeps of an owner token.
std::string token_hash(std::string_view token);
// Equal lengths and bytes, in time that depends only on the length.
bool constant_time_equal(std::string_view a, std::string_view b);
// The token of an `Authorization: Bearer <token>` header; empty for any other header.
std::string bearer_token(std::string_view authorization);

// The operator's token: read from `path`, or created there (mode 0600) with a fresh token when the
// file does not exist. The error names the file and the reason.
struct AdminToken {
    std::string token;
    bool created = false;
};
std::optional<AdminToken> load_or_create_admin_token(const std::filesystem::path& path, std::string& error);

using hns::Permission;

// Which schools a v4 connection may pause or speed up: all (open mode, or the operator's token at
// the upgrade), or those whose owner hash matches a token it showed (owners mode).
struct SchoolRights {
    bool every_school = true;
    std::vector<std::string> owner_hashes;
    bool allows(std::string_view owner_hash) const;
};

inline constexpr std::size_t kMaxUpgradeTokens = 16;        // a browser holds a few schools' tokens
inline constexpr std::size_t kMaxUpgradeTokenChars = 128;

class AccessPolicy {
public:
    AccessPolicy() = default;  // open
    AccessPolicy(AccessMode mode, std::string admin_token);

    AccessMode mode() const { return mode_; }
    bool owners() const { return mode_ == AccessMode::Owners; }
    // Open: always granted. Owners: the operator's token, or the owner's, or nothing.
    Permission check(std::string_view credential, std::string_view owner_hash) const;
    bool is_operator(std::string_view credential) const;

private:
    AccessMode mode_ = AccessMode::Open;
    std::string admin_hash_;
};

// What a v4 upgrade's `?ownerToken=t1,t2,…` gives (every school in open mode, or with the operator's
// token); nullopt when the list is over kMaxUpgradeTokens or a token over kMaxUpgradeTokenChars.
std::optional<SchoolRights> school_rights(const AccessPolicy& access, std::string_view token_list);

// The answer to a refused write: 401 problem "unauthorized" when no credential came, 403 problem
// "forbidden" when a wrong one did (WWW-Authenticate: Bearer on both). `what`: "this school".
HttpResponse permission_problem(Permission permission, std::string_view what);

}  // namespace hschool::server
