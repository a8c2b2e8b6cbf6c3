#pragma once
// A suite whose every test gets its own server, started with the suite's arguments and checked
// before the test body runs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "server_process.hpp"

namespace hschool::test {

using ServerArgs = std::vector<std::string> (*)(const TempDir&);

template <ServerArgs Args>
class ServerTest : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_TRUE(server.started()) << server.output(); }
    TempDir dir;
    ServerProcess server{Args(dir)};
};

}  // namespace hschool::test
