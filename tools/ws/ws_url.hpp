#pragma once
// A ws:// URL as our tools take it (--url): the host (an IPv6 literal without its brackets), the
// port ("80" when the URL names none) and the target ("/" when it names none). wss:// is not
// supported: the tools talk to a server on this machine or beside it.
#include <string>
#include <string_view>

#include "util/expected.hpp"

namespace hschool::tools::ws {

struct WsUrl {
    std::string host;
    std::string port = "80";
    bool port_given = false;
    std::string target = "/";
};

// The URL's parts, or why it is not one we can dial.
Expected<WsUrl, std::string> parse_ws_url(std::string_view url);

}  // namespace hschool::tools::ws
