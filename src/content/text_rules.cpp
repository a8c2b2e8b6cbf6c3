#include "content/text_rules.hpp"

#include <utf8.h>

namespace hschool::content {

namespace {

constexpr char32_t kLastC0Control = 0x1F;
constexpr char32_t kDelete = 0x7F;
constexpr char32_t kFirstC1Control = 0x80;
constexpr char32_t kLastC1Control = 0x9F;  // includes U+0085 NEL, a line break to some renderers
// Embeddings, overrides and isolates reorder what follows them: a name could disguise itself or its neighbours.
constexpr char32_t kFirstBidiEmbedding = 0x202A;
constexpr char32_t kLastBidiEmbedding = 0x202E;
constexpr char32_t kFirstBidiIsolate = 0x2066;
constexpr char32_t kLastBidiIsolate = 0x2069;

bool is_control(char32_t code_point) {
    return code_point <= kLastC0Control || code_point == kDelete ||
           (code_point >= kFirstC1Control && code_point <= kLastC1Control);
}

bool is_bidi_control(char32_t code_point) {
    return (code_point >= kFirstBidiEmbedding && code_point <= kLastBidiEmbedding) ||
           (code_point >= kFirstBidiIsolate && code_point <= kLastBidiIsolate);
}

bool is_id_start(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool is_id_char(char c) { return is_id_start(c) || c == '.' || c == '_' || c == '-'; }

}  // namespace

bool is_clean_text(std::string_view text) {
    if (!utf8::is_valid(text.begin(), text.end())) return false;
    for (auto it = text.begin(); it != text.end();) {
        const char32_t code_point = utf8::unchecked::next(it);
        if (is_control(code_point) || is_bidi_control(code_point)) return false;
    }
    return true;
}

std::size_t char_count(std::string_view clean_text) {
    return static_cast<std::size_t>(utf8::unchecked::distance(clean_text.begin(), clean_text.end()));
}

bool is_content_id(std::string_view id, std::size_t max_bytes) {
    if (id.empty() || id.size() > max_bytes || !is_id_start(id.front())) return false;
    for (char c : id) {
        if (!is_id_char(c)) return false;
    }
    return true;
}

}  // namespace hschool::content
