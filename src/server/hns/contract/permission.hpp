#pragma once
// What a presented credential may do to a match with an owner: the transport's credential
// vocabulary (net/credentials.hpp) under the names the hub uses; the server's access policy answers.
#include <string>
#include <string_view>

#include "net/credentials.hpp"
#include "server/hns/contract/match_request.hpp"

namespace hschool::server::hns {

using net::AccessCheck;
using net::kOwnerTokenParam;
using net::Permission;

// What `credential` may do to a thing whose owner hash is `owner_hash` (empty: the operator's):
// the access check's answer in owners mode; everything in open mode (no check).
inline Permission permission_of(const AccessCheck& access, std::string_view credential, std::string_view owner_hash) {
    return access ? access(credential, owner_hash) : Permission::Granted;
}

// The REST's 401/403 for changing `what` ("match m3", "league l2"), worded as net::permission_problem.
inline HubError permission_error(Permission permission, std::string_view what) {
    if (permission == Permission::Missing)
        return HubError{401, "unauthorized", "changing " + std::string(what) + " needs its owner's token or the operator's, as Authorization: Bearer <token>"};
    return HubError{403, "forbidden", "the token given is neither the owner's of " + std::string(what) + " nor the operator's"};
}

}  // namespace hschool::server::hns
