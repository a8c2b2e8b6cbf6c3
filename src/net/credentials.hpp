#pragma once
// Bearer credentials as HTTP carries them, and who may change what, asked without knowing how
// tokens are kept: tokens (random, hashed with SHA-256, compared in constant time), the
// Authorization header, and the 401/403 answers. The server's access policy decides; a game asks
// through an AccessCheck.
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "net/http_types.hpp"

namespace hschool::net {

enum class Permission { Granted, Missing, Refused };

// credential: a token as presented (may be empty); owner_hash: the thing's SHA-256 owner hash,
// empty when only the operator may change it.
using AccessCheck = std::function<Permission(std::string_view credential, std::string_view owner_hash)>;

// Owners mode (writes need the owner's token or the operator's) or open mode (everyone may), and
// the check that answers.
struct Ownership {
    bool owners = false;
    AccessCheck check;  // set in owners mode
    Permission permission(std::string_view credential, std::string_view owner_hash) const {
        return owners && check ? check(credential, owner_hash) : Permission::Granted;
    }
    // The operator's token (owners mode): it may change anything.
    bool is_operator(std::string_view credential) const {
        return owners && check && !credential.empty() && check(credential, {}) == Permission::Granted;
    }
};

inline constexpr std::size_t kTokenBytes = 32;  // 256 random bits per token
inline constexpr std::size_t kTokenHexChars = kTokenBytes * 2;

// The WebSocket credential (browsers cannot set headers on an upgrade): /global?ownerToken= for the
// speed keys, /ws/game?ownerToken=t1,t2 for the schools a v4 session may pause.
inline constexpr const char* kOwnerTokenParam = "ownerToken";

// 32 bytes from the system's CSPRNG as 64 lower-case hex characters.
std::string new_token();
// SHA-256 of the text, lower-case hex: what the server keeps of an owner token.
std::string token_hash(std::string_view token);
// Equal lengths and bytes, in time that depends only on the length.
bool constant_time_equal(std::string_view a, std::string_view b);
// The token of an `Authorization: Bearer <token>` header; empty for any other header.
std::string bearer_token(std::string_view authorization);

// The answer to a refused write: 401 problem "unauthorized" when no credential came, 403 problem
// "forbidden" when a wrong one did (WWW-Authenticate: Bearer on both). `what`: "this school".
HttpResponse permission_problem(Permission permission, std::string_view what);

}  // namespace hschool::net
