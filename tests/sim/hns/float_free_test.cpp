// The integer-only rule (§3.1): no float type in the hns files except vision.cpp, which carries
// the reference's own float cone and airborne tests, results.cpp (prints scores), the driver and
// the seat view (prints the margin), which sit outside the determinism boundary.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace {

// The seats' driver sits outside the determinism boundary (its masks are recorded), as in
// the reference, so it may use float navigation maths. The numeric view (its margin) and the
// training bridge's scores only read the sim.
const char* const kFloatAllowed[] = {"vision.cpp",        "results.cpp",       "driver.cpp",         "orders.cpp",
                                     "seat_view.cpp",     "float_text.cpp",    "float_text.hpp",     "order_catalog.cpp",
                                     "order_catalog.hpp", "bridge_session.cpp", "bridge_session.hpp"};

}  // namespace

TEST(HnsIntegerOnly, NoFloatTypesOutsideTheWhitelist) {
    const std::filesystem::path dir = std::filesystem::path(HSCHOOL_SOURCE_DIR) / "src/sim/hns";
    const std::regex floaty(R"(\b(float|double|long\s+double)\b|\bstd::(sqrt|cos|sin|pow|round)\b)");
    int scanned = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (entry.path().extension() != ".cpp" && entry.path().extension() != ".hpp") continue;
        bool allowed = false;
        for (const char* ok : kFloatAllowed) allowed = allowed || name == ok;
        if (allowed) continue;
        std::ifstream in(entry.path());
        std::string line;
        int number = 0;
        while (std::getline(in, line)) {
            ++number;
            const auto comment = line.find("//");
            const std::string code = comment == std::string::npos ? line : line.substr(0, comment);
            EXPECT_FALSE(std::regex_search(code, floaty)) << name << ":" << number << ": " << line;
        }
        ++scanned;
    }
    EXPECT_GE(scanned, 10);
}
