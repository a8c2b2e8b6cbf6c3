#pragma once
// Word lists and the patterns that join them into school names, per language.
#include <cstddef>
#include <string>
#include <vector>

#include "content/lang.hpp"

namespace hschool::content {

using WordList = std::vector<std::string>;

// A name is one word from each part, concatenated; literals are one-word parts.
struct NamePattern {
    std::vector<const WordList*> parts;
    unsigned weight = 1;  // how often this pattern is drawn relative to the others
};

const std::vector<NamePattern>& name_patterns(Lang lang);

}  // namespace hschool::content
