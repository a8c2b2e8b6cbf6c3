#include "content/school_names.hpp"

#include <numeric>
#include <random>

#include "content/name_patterns.hpp"
#include "content/text_rules.hpp"

namespace hschool::content {

namespace {

bool fits(const std::string& name) { return char_count(name) <= kMaxSchoolNameChars; }

std::string draw(const std::vector<NamePattern>& patterns, std::mt19937_64& rng) {
    const unsigned total = std::accumulate(patterns.begin(), patterns.end(), 0U,
                                           [](unsigned sum, const NamePattern& p) { return sum + p.weight; });
    unsigned pick = std::uniform_int_distribution<unsigned>(0, total - 1)(rng);
    const NamePattern* chosen = &patterns.front();
    for (const NamePattern& pattern : patterns) {
        if (pick < pattern.weight) {
            chosen = &pattern;
            break;
        }
        pick -= pattern.weight;
    }
    std::string name;
    for (const WordList* part : chosen->parts) {
        name += (*part)[std::uniform_int_distribution<std::size_t>(0, part->size() - 1)(rng)];
    }
    return name;
}

// "Школа №N" / "School No. N": short enough that any number fits the length bound.
std::string numbered_fallback(Lang lang, std::size_t n) {
    return (lang == Lang::English ? "School No. " : "Школа №") + std::to_string(n);
}

void expand(const NamePattern& pattern, std::size_t part, std::string& prefix, std::vector<std::string>& out) {
    if (part == pattern.parts.size()) {
        if (fits(prefix)) out.push_back(prefix);
        return;
    }
    for (const std::string& word : *pattern.parts[part]) {
        const std::size_t length = prefix.size();
        prefix += word;
        expand(pattern, part + 1, prefix, out);
        prefix.resize(length);
    }
}

}  // namespace

std::string random_school_name(Lang lang, const std::set<std::string>& taken, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    const auto& patterns = name_patterns(lang);
    std::string last_fitting;
    for (std::size_t attempt = 0; attempt < kMaxNameDraws; ++attempt) {
        std::string name = draw(patterns, rng);
        if (!fits(name)) continue;
        if (!taken.contains(name)) return name;
        last_fitting = std::move(name);
    }
    // Nearly everything is taken: number a drawn name, or a plain one when that would be too long.
    for (std::size_t n = 2;; ++n) {
        std::string candidate = last_fitting + " " + std::to_string(n);
        if (last_fitting.empty() || !fits(candidate)) candidate = numbered_fallback(lang, n);
        if (!taken.contains(candidate)) return candidate;
    }
}

std::vector<std::string> all_school_names(Lang lang) {
    std::vector<std::string> out;
    for (const NamePattern& pattern : name_patterns(lang)) {
        std::string prefix;
        expand(pattern, 0, prefix, out);
    }
    return out;
}

}  // namespace hschool::content
