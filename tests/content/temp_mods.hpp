#pragma once
// A throwaway mods/ folder for tests that need broken or hand-made packs.
#include <filesystem>
#include <string>
#include <string_view>

namespace hschool::content::test_support {

inline const std::filesystem::path kShippedMods = std::filesystem::path(HSCHOOL_SOURCE_DIR) / "mods";

class TempMods {
public:
    TempMods();  // an empty <tmp>/hschool-content-N/mods
    ~TempMods();
    TempMods(const TempMods&) = delete;
    TempMods& operator=(const TempMods&) = delete;

    const std::filesystem::path& dir() const { return mods_; }
    // Copies a shipped pack (e.g. "core") in unchanged.
    void copy_shipped(const std::string& pack) const;
    // Writes mods/<relative>, creating folders.
    void write(const std::string& relative, std::string_view text) const;
    // A minimal valid pack: manifest and both lang files with the given bodies.
    void write_pack(const std::string& id, std::string_view ru_labels = "{}", std::string_view en_labels = "{}") const;

private:
    std::filesystem::path root_;
    std::filesystem::path mods_;
};

}  // namespace hschool::content::test_support
