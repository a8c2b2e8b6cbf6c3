#pragma once
// A fresh directory per test, removed afterwards, so tests never share a database file.
#include <filesystem>

namespace hschool::store::testing {

class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path file(const char* name) const { return path_ / name; }

private:
    std::filesystem::path path_;
};

}  // namespace hschool::store::testing
