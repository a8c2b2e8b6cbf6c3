#pragma once
// What counts as an acceptable id or display text in packs and maps.
#include <cstddef>
#include <string_view>

namespace hschool::content {

// Well-formed UTF-8 with no C0/C1 control characters and no bidi embeddings, overrides or isolates:
// safe to show and to put on the wire. School names, map node names and pack texts all use it.
bool is_clean_text(std::string_view text);
// Characters (code points) in clean text; what length limits on names count.
std::size_t char_count(std::string_view clean_text);
// Pack, def, item and position ids: lower-case ASCII letters, digits, '.', '_' and '-', starting with a letter or digit.
bool is_content_id(std::string_view id, std::size_t max_bytes);

}  // namespace hschool::content
