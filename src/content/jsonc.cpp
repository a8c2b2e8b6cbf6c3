#include "content/jsonc.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <system_error>

#include <boost/json/parse_options.hpp>
#include <boost/json/stream_parser.hpp>

#include "content/limits.hpp"

namespace hschool::content {

namespace {

boost::json::parse_options jsonc_options() {
    boost::json::parse_options options;
    options.allow_comments = true;
    options.allow_trailing_commas = true;
    options.max_depth = limits::kMaxJsonDepth;
    return options;
}

std::size_t line_at(std::string_view text, std::size_t offset) {
    offset = std::min(offset, text.size());
    return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

}  // namespace

Expected<boost::json::value, std::string> parse_jsonc(std::string_view text) {
    boost::json::stream_parser parser({}, jsonc_options());
    boost::system::error_code ec;
    std::size_t consumed = parser.write_some(text.data(), text.size(), ec);
    if (!ec && consumed < text.size()) ec = boost::json::error::extra_data;
    if (!ec) parser.finish(ec);
    if (ec) return unexpected("line " + std::to_string(line_at(text, consumed)) + ": " + ec.message());
    return parser.release();
}

Expected<boost::json::value, std::string> read_jsonc_file(const std::filesystem::path& path) {
    std::error_code fs_error;
    if (!std::filesystem::is_regular_file(path, fs_error)) return unexpected(std::string("file is missing"));
    const auto size = std::filesystem::file_size(path, fs_error);
    if (fs_error) return unexpected("cannot read: " + fs_error.message());
    if (size > limits::kMaxPackFileBytes) {
        return unexpected("file is larger than " + std::to_string(limits::kMaxPackFileBytes) + " bytes");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) return unexpected(std::string("cannot open"));
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return parse_jsonc(text);
}

}  // namespace hschool::content
