#pragma once
// Shared helpers for the store tests.
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "store/school_store.hpp"

namespace hschool::store::testing {

inline NewSchool sample_school(std::string name = "Гимназия №14") {
    NewSchool school;
    school.name = std::move(name);
    school.start_date_ms = 1333432800000;  // 2012-04-03T06:00:00Z
    school.mod_ids = {"core", "extra-b", "extra-a"};
    school.map_json = R"({"yard":{"id":"yard"}})";
    school.game_time_ms = 1333432800000;
    school.running = true;
    school.speed_index = 1;
    return school;
}

inline std::unique_ptr<SchoolStore> open_store(const std::filesystem::path& path) {
    auto opened = SchoolStore::open(path);
    EXPECT_TRUE(opened.has_value()) << (opened ? "" : opened.error().message);
    return opened ? std::move(opened).value() : nullptr;
}

}  // namespace hschool::store::testing
