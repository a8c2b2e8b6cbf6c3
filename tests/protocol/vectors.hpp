#pragma once
// Loads the golden vectors in tests/vectors/, shared with the TypeScript codec's tests.
#include <boost/json.hpp>
#include <fstream>
#include <sstream>
#include <string>

#include "protocol/bytes.hpp"

namespace hschool::test {

inline boost::json::value load_vectors(const std::string& file) {
    std::ifstream in(std::string(HSCHOOL_SOURCE_DIR) + "/tests/vectors/" + file);
    std::stringstream text;
    text << in.rdbuf();
    return boost::json::parse(text.str());
}

inline protocol::Bytes from_hex(std::string_view hex) {
    protocol::Bytes out;
    std::string digits;
    for (char c : hex)
        if (c != ' ') digits += c;
    for (std::size_t i = 0; i + 1 < digits.size(); i += 2)
        out.push_back(static_cast<std::uint8_t>(std::stoi(digits.substr(i, 2), nullptr, 16)));
    return out;
}

}  // namespace hschool::test
