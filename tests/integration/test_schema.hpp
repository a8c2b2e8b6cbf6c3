#pragma once
// A schema of its own on the test PostgreSQL database ($HSCHOOL_TEST_DATABASE_URL, set by make
// test), dropped afterwards; url() selects it (empty when there is no test database: skip, unless
// $HSCHOOL_REQUIRE_POSTGRES makes that a failure).
#include <cstdlib>
#include <random>
#include <string>

#include <gtest/gtest.h>
#include <unistd.h>

#include "store/pg/pg_connection.hpp"

namespace hschool::test {

class TestSchema {
public:
    explicit TestSchema(const char* prefix) {
        const char* base = std::getenv("HSCHOOL_TEST_DATABASE_URL");
        if (!base || !*base) {
            if (std::getenv("HSCHOOL_REQUIRE_POSTGRES")) ADD_FAILURE() << "HSCHOOL_TEST_DATABASE_URL is not set";
            return;
        }
        base_ = base;
        std::random_device device;
        name_ = std::string(prefix) + std::to_string(::getpid()) + "_" + std::to_string(device() % 1000000);
        auto admin = store::pg::Connection::connect(base_);
        if (!admin || !(*admin)->run("CREATE SCHEMA " + name_)) {
            ADD_FAILURE() << "cannot make schema " << name_;
            return;
        }
        url_ = base_ + (base_.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" + name_;
    }
    ~TestSchema() {
        if (url_.empty()) return;
        if (auto admin = store::pg::Connection::connect(base_)) (void)(*admin)->run("DROP SCHEMA " + name_ + " CASCADE");
    }
    TestSchema(const TestSchema&) = delete;
    TestSchema& operator=(const TestSchema&) = delete;

    bool ready() const { return !url_.empty(); }
    const std::string& url() const { return url_; }

private:
    std::string base_, name_, url_;
};

}  // namespace hschool::test
