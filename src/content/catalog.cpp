#include "content/catalog.hpp"

namespace hschool::content {

const std::string& label_or_id(const StringMap<std::string>& labels, const std::string& id) {
    auto it = labels.find(id);
    return it == labels.end() ? id : it->second;
}

}  // namespace hschool::content
