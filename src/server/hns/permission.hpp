#pragma once
// What a presented credential may do to a thing with an owner: the access policy's answer
// (server/access.hpp), seen by the hub without knowing how tokens are kept.
#include <functional>
#include <string_view>

namespace hschool::server::hns {

enum class Permission { Granted, Missing, Refused };

// credential: a token as presented (may be empty); owner_hash: the thing's SHA-256 owner hash,
// empty when only the operator may change it.
using AccessCheck = std::function<Permission(std::string_view credential, std::string_view owner_hash)>;

// The WebSocket credential (browsers cannot set headers on an upgrade): /global?ownerToken= for the
// speed keys, /ws/game?ownerToken=t1,t2 for the schools a v4 session may pause.
inline constexpr const char* kOwnerTokenParam = "ownerToken";

}  // namespace hschool::server::hns
