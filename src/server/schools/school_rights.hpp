#pragma once
// Which schools a v4 connection may pause or speed up: all (open mode, or the operator's token at
// the upgrade), or those whose owner hash matches a token it showed (owners mode).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "net/credentials.hpp"

namespace hschool::server {

inline constexpr std::size_t kMaxUpgradeTokens = 16;        // a browser holds a few schools' tokens
inline constexpr std::size_t kMaxUpgradeTokenChars = 128;

struct SchoolRights {
    bool every_school = true;
    std::vector<std::string> owner_hashes;
    bool allows(std::string_view owner_hash) const;
};

// What a v4 upgrade's `?ownerToken=t1,t2,…` gives (every school in open mode, or with the operator's
// token); nullopt when the list is over kMaxUpgradeTokens or a token over kMaxUpgradeTokenChars.
std::optional<SchoolRights> school_rights(const net::Ownership& ownership, std::string_view token_list);

}  // namespace hschool::server
