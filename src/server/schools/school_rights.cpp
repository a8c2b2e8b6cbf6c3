#include "server/schools/school_rights.hpp"

namespace hschool::server {

bool SchoolRights::allows(std::string_view owner_hash) const {
    if (every_school) return true;
    for (const auto& hash : owner_hashes)
        if (!owner_hash.empty() && net::constant_time_equal(hash, owner_hash)) return true;
    return false;
}

std::optional<SchoolRights> school_rights(const net::Ownership& ownership, std::string_view token_list) {
    SchoolRights rights;
    rights.every_school = !ownership.owners;
    std::size_t count = 0;
    while (!token_list.empty()) {
        const auto comma = token_list.find(',');
        const std::string_view token = token_list.substr(0, comma);
        token_list = comma == std::string_view::npos ? std::string_view() : token_list.substr(comma + 1);
        if (token.empty()) continue;
        if (++count > kMaxUpgradeTokens || token.size() > kMaxUpgradeTokenChars) return std::nullopt;
        if (!ownership.owners) continue;
        if (ownership.is_operator(token)) rights.every_school = true;
        else rights.owner_hashes.push_back(net::token_hash(token));
    }
    return rights;
}

}  // namespace hschool::server
