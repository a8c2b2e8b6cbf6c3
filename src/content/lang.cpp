#include "content/lang.hpp"

namespace hschool::content {

Lang lang_from_query(std::string_view query_value) {
    return query_value == "en" ? Lang::English : Lang::Russian;
}

Lang lang_from_locale_byte(unsigned locale) { return locale == 1 ? Lang::English : Lang::Russian; }

std::string_view lang_code(Lang lang) { return lang == Lang::English ? "en" : "ru"; }

}  // namespace hschool::content
