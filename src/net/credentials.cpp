#include "net/credentials.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <array>
#include <cstdlib>

#include "util/text.hpp"

namespace hschool::net {
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

}  // namespace

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
    if (authorization.size() <= kScheme.size() || !util::equal_ignoring_case(authorization.substr(0, kScheme.size()), kScheme)) return {};
    return util::trimmed(authorization.substr(kScheme.size()));
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

}  // namespace hschool::net
