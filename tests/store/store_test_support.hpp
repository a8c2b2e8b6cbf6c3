#pragma once
// Shared helpers for the store tests.
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "store/hns_archive.hpp"
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

// A finished match's row, as either archive backend keeps it (no owner: open mode).
inline ArchivedMatch sample_match(std::string id, std::int64_t finished_at_ms = 1764590000000, std::string kind = kArchiveKindMatch) {
    ArchivedMatch match;
    match.id = std::move(id);
    match.variant = "classic";
    match.finished_at_ms = finished_at_ms;
    match.final_tick = 14400;
    match.end_reason = "complete";
    match.results_json = R"({"scores":[3,1],"winner":"hiders"})";
    match.summary_json = R"({"seats":[{"name":"Аня","policy":"burrow"}]})";
    match.kind = std::move(kind);
    return match;
}

// A few hundred KB with every byte value, NULs included, as a real replay has.
inline std::string sample_replay(std::size_t size = 300 * 1024, unsigned seed = 7) {
    std::string bytes(size, '\0');
    unsigned x = seed;
    for (auto& b : bytes) {
        x = x * 1103515245U + 12345U;
        b = static_cast<char>(x >> 16);
    }
    bytes.replace(0, 8, "COWLDHNS");
    return bytes;
}

}  // namespace hschool::store::testing
