#pragma once
// One HTTP GET to a server on this machine, for the league runner's watch on its drop-in server
// (is it listening yet, which seats are taken). Beast lives in the .cpp.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace hschool::tools::hns {

// An answer is a few KiB of match JSON; more is not our server.
inline constexpr std::size_t kMaxLoopbackAnswerBytes = 1 << 20;

// The body of a 200 answer from 127.0.0.1:port, or nothing (refused, timed out, another status).
std::optional<std::string> loopback_get(std::uint16_t port, const std::string& target, std::chrono::milliseconds timeout);

}  // namespace hschool::tools::hns
