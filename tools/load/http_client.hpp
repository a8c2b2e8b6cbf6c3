#pragma once
// Blocking HTTP/1.1 requests with a deadline, for the REST setup and /metrics. Beast stays in the .cpp.
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace hschool::load {

struct HttpReply {
    int status = 0;  // 0 when the request failed (connect, timeout, parse)
    std::string body;
};

HttpReply http_request(const std::string& host, std::uint16_t port, std::string_view method, std::string_view target,
                       std::string_view json_body = {}, std::chrono::milliseconds timeout = std::chrono::seconds(5));

}  // namespace hschool::load
