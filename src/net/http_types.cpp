#include "net/http_types.hpp"

#include <boost/json.hpp>
#include <utf8cpp/utf8.h>

namespace hschool::net {

namespace {

// Decodes %XX escapes; a '+' is a space only in form-encoded queries, never in a path.
bool decode(std::string_view in, std::string& out, bool plus_is_space) {
    out.clear();
    for (std::size_t i = 0; i < in.size(); ++i) {
        const char c = in[i];
        if (c == '+' && plus_is_space) {
            out += ' ';
        } else if (c == '%') {
            if (i + 2 >= in.size()) return false;  // a '%' needs two hex digits after it
            auto hex = [](char h) -> int {
                if (h >= '0' && h <= '9') return h - '0';
                if (h >= 'a' && h <= 'f') return h - 'a' + 10;
                if (h >= 'A' && h <= 'F') return h - 'A' + 10;
                return -1;
            };
            const int hi = hex(in[i + 1]);
            const int lo = hex(in[i + 2]);
            if (hi < 0 || lo < 0) return false;
            out += static_cast<char>(hi * 16 + lo);
            i += 2;
        } else {
            out += c;
        }
    }
    return true;
}

// The query string is application/x-www-form-urlencoded, where '+' stands for a space.
bool form_decode(std::string_view in, std::string& out) { return decode(in, out, true); }

}  // namespace

std::string escape_invalid_utf8(std::string_view text) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(text.size());
    auto it = text.begin();
    while (it != text.end()) {
        const auto bad = utf8::find_invalid(it, text.end());
        out.append(it, bad);
        if (bad == text.end()) break;
        const auto byte = static_cast<unsigned char>(*bad);
        out += "\\x";
        out += kHex[byte >> 4];
        out += kHex[byte & 0xF];
        it = bad + 1;  // resynchronise on the next byte
    }
    return out;
}

HttpResponse problem(unsigned status, std::string_view code, std::string_view title, std::string_view detail) {
    // A detail often quotes the request (a path, a name): its bytes must not make the JSON invalid UTF-8.
    boost::json::object body{{"type", "https://hschool.dev/problems/" + std::string(code)},
                             {"title", title},
                             {"status", status},
                             {"detail", escape_invalid_utf8(detail)},
                             {"code", code}};
    return HttpResponse{status, "application/problem+json", boost::json::serialize(body), {}};
}

bool percent_decode(std::string_view in, std::string& out) { return decode(in, out, false); }

std::string query_param(std::string_view query, std::string_view name) {
    while (!query.empty()) {
        const auto amp = query.find('&');
        const std::string_view pair = query.substr(0, amp);
        const auto eq = pair.find('=');
        std::string key;
        if (form_decode(pair.substr(0, eq), key) && key == name) {
            std::string value;
            if (eq != std::string_view::npos && form_decode(pair.substr(eq + 1), value)) return value;
            return {};
        }
        if (amp == std::string_view::npos) break;
        query.remove_prefix(amp + 1);
    }
    return {};
}

}  // namespace hschool::net
