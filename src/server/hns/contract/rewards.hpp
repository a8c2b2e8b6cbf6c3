#pragma once
// The /reward text stream (spec §2.6): one text message per tick, six lines per player.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hschool::server::hns {

struct RewardRow {
    std::string identity;     // the seat's identity (its join name)
    std::int64_t reward = 0;  // the seat's reward, as the caller scores it
    int seen = 0;             // seatSeenTicks
    int sealed = 0;           // sealedTicks
    int locks = 0;
    int grabs = 0;
    int vaults = 0;
};

// The identity as the reward lines name it: a whitespace-separated identity becomes its first two
// words joined as "a:b"; otherwise it is the identity stripped.
std::string reward_id(std::string_view identity);

// "reward <id> <n>\nseen …\nsealed …\nlocks …\ngrabs …\nvaults …\n" for each row, in row order.
std::string reward_text(const std::vector<RewardRow>& rows);

}  // namespace hschool::server::hns
