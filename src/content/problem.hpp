#pragma once
// Why content could not be resolved or a map was refused; `code` is what the HTTP layer sends.
#include <string>

namespace hschool::content {

namespace problem_code {
inline constexpr const char* kUnknownMod = "unknown-mod";
inline constexpr const char* kInvalidCatalog = "invalid-catalog";
inline constexpr const char* kInvalidMap = "invalid-map";
}  // namespace problem_code

struct Problem {
    std::string code;    // one of problem_code
    std::string detail;  // names the file, def or node and what is wrong with it
    bool operator==(const Problem&) const = default;
};

inline Problem unknown_mod(std::string detail) { return {problem_code::kUnknownMod, std::move(detail)}; }
inline Problem invalid_catalog(std::string detail) { return {problem_code::kInvalidCatalog, std::move(detail)}; }
inline Problem invalid_map(std::string detail) { return {problem_code::kInvalidMap, std::move(detail)}; }

}  // namespace hschool::content
