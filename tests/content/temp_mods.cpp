#include "temp_mods.hpp"

#include <atomic>
#include <fstream>

#include <unistd.h>

namespace hschool::content::test_support {

namespace fs = std::filesystem;

namespace {
std::atomic<int> next_folder{0};
}

TempMods::TempMods()
    : root_(fs::temp_directory_path() /
            ("hschool-content-" + std::to_string(::getpid()) + "-" + std::to_string(next_folder++))),
      mods_(root_ / "mods") {
    fs::remove_all(root_);
    fs::create_directories(mods_);
}

TempMods::~TempMods() {
    std::error_code ignored;
    fs::remove_all(root_, ignored);
}

void TempMods::copy_shipped(const std::string& pack) const {
    fs::copy(kShippedMods / pack, mods_ / pack, fs::copy_options::recursive);
}

void TempMods::write(const std::string& relative, std::string_view text) const {
    const fs::path path = mods_ / relative;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

void TempMods::write_pack(const std::string& id, std::string_view ru_labels, std::string_view en_labels) const {
    write(id + "/pack.jsonc", "{ \"id\": \"" + id + "\" }");
    write(id + "/lang/ru.jsonc", ru_labels);
    write(id + "/lang/en.jsonc", en_labels);
}

}  // namespace hschool::content::test_support
