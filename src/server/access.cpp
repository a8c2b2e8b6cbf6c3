#include "server/access.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace hschool::server {
namespace {

std::string hex(const unsigned char* bytes, std::size_t n) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    out.reserve(n * 2);
    for (std::size_t i = 0; i < n; ++i) {
        out.push_back(kDigits[bytes[i] >> 4]);
        out.push_back(kDigits[bytes[i] & 0x0F]);
    }
    return out;
}

bool equal_ignoring_case(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
    return true;
}

std::string trimmed(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
    return std::string(text);
}

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
    if (equal_ignoring_case(address, "localhost")) return true;
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

std::string new_token() {
    std::array<unsigned char, kTokenBytes> bytes{};
    // Without randomness there is no safe token: failing loudly beats a guessable one.
    if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) std::abort();
    return hex(bytes.data(), bytes.size());
}

std::string token_hash(std::string_view token) {
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int length = 0;
    if (EVP_Digest(token.data(), token.size(), digest.data(), &length, EVP_sha256(), nullptr) != 1) std::abort();
    return hex(digest.data(), length);
}

bool constant_time_equal(std::string_view a, std::string_view b) {
    return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string bearer_token(std::string_view authorization) {
    constexpr std::string_view kScheme = "bearer ";
    if (authorization.size() <= kScheme.size() || !equal_ignoring_case(authorization.substr(0, kScheme.size()), kScheme)) return {};
    return trimmed(authorization.substr(kScheme.size()));
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
        AdminToken admin{trimmed(text.str()), false};
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

bool SchoolRights::allows(std::string_view owner_hash) const {
    if (every_school) return true;
    for (const auto& hash : owner_hashes)
        if (!owner_hash.empty() && constant_time_equal(hash, owner_hash)) return true;
    return false;
}

std::optional<SchoolRights> school_rights(const AccessPolicy& access, std::string_view token_list) {
    SchoolRights rights;
    rights.every_school = !access.owners();
    std::size_t count = 0;
    while (!token_list.empty()) {
        const auto comma = token_list.find(',');
        const std::string_view token = token_list.substr(0, comma);
        token_list = comma == std::string_view::npos ? std::string_view() : token_list.substr(comma + 1);
        if (token.empty()) continue;
        if (++count > kMaxUpgradeTokens || token.size() > kMaxUpgradeTokenChars) return std::nullopt;
        if (!access.owners()) continue;
        if (access.is_operator(token)) rights.every_school = true;
        else rights.owner_hashes.push_back(token_hash(token));
    }
    return rights;
}

HttpResponse permission_problem(Permission permission, std::string_view what) {
    HttpResponse response =
        permission == Permission::Missing
            ? problem(401, "unauthorized", "Unauthorized",
                      "changing " + std::string(what) + " needs its owner's token or the operator's, as Authorization: Bearer <token>")
            : problem(403, "forbidden", "Forbidden",
                      "the token given is neither the owner's of " + std::string(what) + " nor the operator's");
    response.headers.emplace_back("WWW-Authenticate", "Bearer");
    return response;
}

}  // namespace hschool::server
