#pragma once
// The reference's string cleaning for query values: Nim's strip and cleanPlayerName.
#include <string>
#include <string_view>

namespace hschool::server::hns {

// Nim's Whitespace set: space, \t, \v, \r, \n, \f.
bool is_nim_whitespace(char c);
std::string strip(std::string_view text);
// Stripped, then every whitespace character becomes '_'.
std::string clean_player_name(std::string_view text);

}  // namespace hschool::server::hns
