#pragma once
// What a presented credential may do to a match with an owner: the transport's credential
// vocabulary (net/credentials.hpp) under the names the hub uses; the server's access policy answers.
#include "net/credentials.hpp"

namespace hschool::server::hns {

using net::AccessCheck;
using net::kOwnerTokenParam;
using net::Permission;

}  // namespace hschool::server::hns
