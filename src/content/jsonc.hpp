#pragma once
// Reading JSONC (comments, trailing commas) from text or a pack file, with the failing line in the error.
#include <filesystem>
#include <string>
#include <string_view>

#include <boost/json/value.hpp>

#include "content/expected.hpp"

namespace hschool::content {

// On failure the error reads "line N: <what>" so a modder can find it.
Expected<boost::json::value, std::string> parse_jsonc(std::string_view text);

// Reads and parses a file no larger than limits::kMaxPackFileBytes; errors do not name the file.
Expected<boost::json::value, std::string> read_jsonc_file(const std::filesystem::path& path);

}  // namespace hschool::content
