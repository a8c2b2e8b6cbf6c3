#include "server/hns/contract/query.hpp"

#include "server/hns/contract/limits.hpp"

namespace hschool::server::hns {
namespace {

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

Expected<std::string> decode(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '+') {
            out.push_back(' ');
        } else if (c == '%') {
            if (i + 2 >= text.size()) return Expected<std::string>::fail("truncated percent escape");
            const int hi = hex_value(text[i + 1]);
            const int lo = hex_value(text[i + 2]);
            if (hi < 0 || lo < 0) return Expected<std::string>::fail("bad percent escape");
            const char decoded = static_cast<char>(hi * 16 + lo);
            if (decoded == '\0') return Expected<std::string>::fail("NUL in query");
            out.push_back(decoded);
            i += 2;
        } else {
            out.push_back(c);
        }
    }
    if (out.size() > kMaxQueryValueBytes) return Expected<std::string>::fail("query value too long");
    return Expected<std::string>::ok(std::move(out));
}

}  // namespace

bool QueryParams::has(std::string_view key) const {
    for (const auto& [k, v] : items)
        if (k == key) return true;
    return false;
}

std::string QueryParams::get(std::string_view key) const {
    for (const auto& [k, v] : items)
        if (k == key) return v;
    return {};
}

std::string match_of(const QueryParams& query, const std::string& default_id) {
    return query.has("match") ? query.get("match") : default_id;
}

Expected<QueryParams> parse_query(std::string_view query) {
    if (query.size() > kMaxQueryBytes) return Expected<QueryParams>::fail("query too long");
    QueryParams params;
    std::size_t start = 0;
    while (start <= query.size()) {
        std::size_t end = query.find('&', start);
        if (end == std::string_view::npos) end = query.size();
        const std::string_view part = query.substr(start, end - start);
        if (!part.empty()) {
            const std::size_t eq = part.find('=');
            auto key = decode(part.substr(0, eq));
            if (!key) return Expected<QueryParams>::fail(key.error);
            auto value = decode(eq == std::string_view::npos ? std::string_view{} : part.substr(eq + 1));
            if (!value) return Expected<QueryParams>::fail(value.error);
            params.items.emplace_back(std::move(*key), std::move(*value));
        }
        start = end + 1;
    }
    return Expected<QueryParams>::ok(std::move(params));
}

}  // namespace hschool::server::hns
