// POST /api/schools bodies and the other strings the schools API reads from clients.
#include <boost/json.hpp>
#include <cstddef>
#include <cstdint>
#include <string>

#include "server/schools/school_request.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    boost::system::error_code ec;
    const boost::json::value body = boost::json::parse(text, ec);
    if (!ec) {
        auto request = hschool::server::read_create_request(body);
        if (auto* failure = std::get_if<hschool::net::HttpResponse>(&request)) {
            if (failure->status < 400 || failure->status > 499) __builtin_trap();
        } else if (hschool::server::name_problem(std::get<hschool::server::CreateRequest>(request).name)) {
            __builtin_trap();  // an accepted request must carry an acceptable name
        }
    }
    hschool::server::name_problem(text);
    if (auto id = hschool::server::parse_school_id(text); id && *id <= 0) __builtin_trap();
    for (const auto& mod : hschool::server::split_mods(text))
        if (mod.empty()) __builtin_trap();
    return 0;
}
