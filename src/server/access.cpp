#include "server/access.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "util/text.hpp"

namespace hschool::server {

using net::constant_time_equal;
using net::new_token;
using net::token_hash;

namespace {

// Printable ASCII only: the token travels in an HTTP header and a query string.
bool usable_token(std::string_view token) {
    if (token.size() < kMinAdminTokenChars) return false;
    for (unsigned char c : token)
        if (c <= 0x20 || c >= 0x7F) return false;
    return true;
}

}  // namespace

const char* access_mode_text(AccessMode mode) { return mode == AccessMode::Owners ? "owners" : "open"; }

std::optional<AccessMode> parse_access_mode(std::string_view text) {
    if (text == "open") return AccessMode::Open;
    if (text == "owners") return AccessMode::Owners;
    return std::nullopt;
}

bool is_loopback_address(std::string_view address) {
    if (address.size() >= 2 && address.front() == '[' && address.back() == ']') address = address.substr(1, address.size() - 2);
    if (util::equal_ignoring_case(address, "localhost")) return true;
    const std::string text(address);
    in_addr v4{};
    if (inet_pton(AF_INET, text.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
    in6_addr v6{};
    if (inet_pton(AF_INET6, text.c_str(), &v6) == 1) {
        if (IN6_IS_ADDR_LOOPBACK(&v6)) return true;
        // ::ffff:127.x.x.x, an IPv4 loopback seen through an IPv6 socket
        return IN6_IS_ADDR_V4MAPPED(&v6) && v6.s6_addr[12] == 127;
    }
    return false;
}

AccessMode default_access_mode(std::string_view listen_address, bool dropin) {
    if (dropin || is_loopback_address(listen_address)) return AccessMode::Open;
    return AccessMode::Owners;
}

std::optional<AdminToken> load_or_create_admin_token(const std::filesystem::path& path, std::string& error) {
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) {
        const auto size = std::filesystem::file_size(path, ec);
        if (ec || size > kMaxAdminTokenFileBytes) {
            error = "admin token file " + path.string() + (ec ? ": " + ec.message() : " is over 4 KiB");
            return std::nullopt;
        }
        std::ifstream in(path, std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        if (!in) {
            error = "cannot read the admin token file " + path.string();
            return std::nullopt;
        }
        AdminToken admin{util::trimmed(text.str()), false};
        if (!usable_token(admin.token)) {
            error = "admin token file " + path.string() + " must hold one token of at least " +
                    std::to_string(kMinAdminTokenChars) + " printable ASCII characters";
            return std::nullopt;
        }
        return admin;
    }
    if (const auto folder = path.parent_path(); !folder.empty()) std::filesystem::create_directories(folder, ec);
    // O_EXCL: two servers starting at once never overwrite each other's token.
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, S_IRUSR | S_IWUSR);
    if (fd < 0) {
        error = "cannot create the admin token file " + path.string() + ": " + std::strerror(errno);
        return std::nullopt;
    }
    AdminToken admin{new_token(), true};
    const std::string line = admin.token + "\n";
    const bool written = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size()) && ::fsync(fd) == 0;
    ::close(fd);
    if (!written) {
        std::filesystem::remove(path, ec);
        error = "cannot write the admin token file " + path.string();
        return std::nullopt;
    }
    return admin;
}

AccessPolicy::AccessPolicy(AccessMode mode, std::string admin_token)
    : mode_(mode), admin_hash_(admin_token.empty() ? std::string() : token_hash(admin_token)) {}

bool AccessPolicy::is_operator(std::string_view credential) const {
    return !credential.empty() && !admin_hash_.empty() && constant_time_equal(token_hash(credential), admin_hash_);
}

Permission AccessPolicy::check(std::string_view credential, std::string_view owner_hash) const {
    if (mode_ == AccessMode::Open) return Permission::Granted;
    if (credential.empty()) return Permission::Missing;
    const std::string presented = token_hash(credential);
    const bool as_operator = !admin_hash_.empty() && constant_time_equal(presented, admin_hash_);
    const bool as_owner = !owner_hash.empty() && constant_time_equal(presented, owner_hash);
    return as_operator || as_owner ? Permission::Granted : Permission::Refused;
}

net::Ownership AccessPolicy::ownership() const {
    if (!owners()) return {};
    return {true, [this](std::string_view credential, std::string_view owner_hash) { return check(credential, owner_hash); }};
}

}  // namespace hschool::server
