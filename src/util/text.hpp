#pragma once
// Small ASCII text helpers that HTTP headers, query values and token files all need.
#include <cctype>
#include <string>
#include <string_view>

namespace hschool::util {

// Equal ignoring ASCII case ("Bearer" and "bearer", "LOCALHOST" and "localhost").
inline bool equal_ignoring_case(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
    return true;
}

// Without leading and trailing whitespace.
inline std::string trimmed(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
    return std::string(text);
}

}  // namespace hschool::util
