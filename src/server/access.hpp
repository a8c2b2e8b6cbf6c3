#pragma once
// Who may change or end what (DESIGN §4c). `open` trusts everyone who can reach the server, as the
// seeds and the reference do; `owners` lets a write through only with the owner's token (handed out
// once at creation, kept as a SHA-256 hash) or the operator's (a file in the data folder).
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "net/credentials.hpp"
#include "server/schools/school_rights.hpp"

namespace hschool::server {

enum class AccessMode { Open, Owners };

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

// The operator's token: read from `path`, or created there (mode 0600) with a fresh token when the
// file does not exist. The error names the file and the reason.
struct AdminToken {
    std::string token;
    bool created = false;
};
std::optional<AdminToken> load_or_create_admin_token(const std::filesystem::path& path, std::string& error);

using net::Permission;

class AccessPolicy {
public:
    AccessPolicy() = default;  // open
    AccessPolicy(AccessMode mode, std::string admin_token);

    AccessMode mode() const { return mode_; }
    bool owners() const { return mode_ == AccessMode::Owners; }
    // Open: always granted. Owners: the operator's token, or the owner's, or nothing.
    Permission check(std::string_view credential, std::string_view owner_hash) const;
    bool is_operator(std::string_view credential) const;
    // The games' view of this policy (it must outlive them).
    net::Ownership ownership() const;

private:
    AccessMode mode_ = AccessMode::Open;
    std::string admin_hash_;
};

// What a v4 upgrade's ownerToken list lets its session pause or speed up, under this policy.
inline std::optional<SchoolRights> school_rights(const AccessPolicy& access, std::string_view token_list) {
    return school_rights(access.ownership(), token_list);
}

}  // namespace hschool::server
