#pragma once
#include <string_view>

namespace hschool::protocol {

// Strict UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing past U+10FFFF.
bool is_valid_utf8(std::string_view text);

}  // namespace hschool::protocol
