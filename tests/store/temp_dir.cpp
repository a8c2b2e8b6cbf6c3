#include "temp_dir.hpp"

#include <atomic>
#include <string>
#include <system_error>

#include <unistd.h>

namespace hschool::store::testing {

TempDir::TempDir() {
    static std::atomic<int> counter{0};
    const std::string name =
        "hschool-store-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1));
    path_ = std::filesystem::temp_directory_path() / name;
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

}  // namespace hschool::store::testing
