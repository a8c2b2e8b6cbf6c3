#include "server/hns/contract/rewards.hpp"

#include "server/hns/contract/text.hpp"

namespace hschool::server::hns {

std::string reward_id(std::string_view identity) {
    std::vector<std::string> words;
    std::string word;
    for (char c : identity) {
        if (is_nim_whitespace(c)) {
            if (!word.empty()) words.push_back(std::move(word));
            word.clear();
        } else {
            word.push_back(c);
        }
    }
    if (!word.empty()) words.push_back(std::move(word));
    if (words.size() >= 2) return words[0] + ":" + words[1];
    return words.empty() ? std::string{} : words[0];
}

std::string reward_text(const std::vector<RewardRow>& rows) {
    std::string out;
    for (const RewardRow& row : rows) {
        const std::string id = reward_id(row.identity);
        const auto line = [&](const char* key, std::int64_t value) {
            out += key;
            out += ' ';
            out += id;
            out += ' ';
            out += std::to_string(value);
            out += '\n';
        };
        line("reward", row.reward);
        line("seen", row.seen);
        line("sealed", row.sealed);
        line("locks", row.locks);
        line("grabs", row.grabs);
        line("vaults", row.vaults);
    }
    return out;
}

}  // namespace hschool::server::hns
