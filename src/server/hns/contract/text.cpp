#include "server/hns/contract/text.hpp"

namespace hschool::server::hns {

bool is_nim_whitespace(char c) {
    return c == ' ' || c == '\t' || c == '\v' || c == '\r' || c == '\n' || c == '\f';
}

std::string strip(std::string_view text) {
    std::size_t begin = 0, end = text.size();
    while (begin < end && is_nim_whitespace(text[begin])) ++begin;
    while (end > begin && is_nim_whitespace(text[end - 1])) --end;
    return std::string(text.substr(begin, end - begin));
}

std::string clean_player_name(std::string_view text) {
    std::string out = strip(text);
    for (char& c : out)
        if (is_nim_whitespace(c)) c = '_';
    return out;
}

}  // namespace hschool::server::hns
