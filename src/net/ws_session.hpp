#pragma once
// A WebSocket connection after the upgrade request was accepted (network files only).
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <memory>

#include "server/commands.hpp"
#include "server/hns/peer.hpp"
#include "net/network_thread.hpp"

namespace hschool::server {

// Beast answers the upgrade; the session then reads and writes the frames itself. The slot is
// the connection-cap place the upgrade took; it is given back when the session ends.
// `sink` set: a hide-and-seek socket (Sprite v1, no Hello) whose messages go to it. `rights`: which
// schools a v4 session may pause or speed up.
void start_ws_session(tcp::socket&& socket, boost::beast::http::request<boost::beast::http::string_body> request,
                      NetworkShared& shared, NetworkThread& thread, ConnectionLimiter::Slot slot,
                      std::shared_ptr<hns::PeerSink> sink = nullptr, SchoolRights rights = {});

}  // namespace hschool::server
