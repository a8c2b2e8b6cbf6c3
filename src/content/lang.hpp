#pragma once
// The two label languages: the same choice as `?lang=` over HTTP and the Hello locale byte.
#include <string_view>

namespace hschool::content {

enum class Lang { Russian, English };

// "en" is English; anything else, including nothing, is Russian.
Lang lang_from_query(std::string_view query_value);
// The Hello locale byte: 1 is English, anything else Russian.
Lang lang_from_locale_byte(unsigned locale);
// "ru" or "en": the lang file name stem and the catalog's "lang" field.
std::string_view lang_code(Lang lang);

}  // namespace hschool::content
