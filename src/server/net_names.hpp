#pragma once
// The transport's names as the server and its games write them (frames, outboxes, fan-out, the
// HTTP types and router, caps, budgets): listed once here, so a game file says Frame, not
// net::Frame, and a reader sees in one place what of the transport the games use.
#include "net/connection_limiter.hpp"
#include "net/fanout.hpp"
#include "net/http_router.hpp"
#include "net/http_types.hpp"
#include "net/origin_policy.hpp"
#include "net/outbox.hpp"
#include "net/thread_role.hpp"
#include "net/token_bucket.hpp"
#include "net/ws_connection.hpp"

namespace hschool::server {

using net::BroadcastGroup;
using net::BudgetLimits;
using net::CloseRequest;
using net::ConnectionId;
using net::ConnectionLimiter;
using net::ConnectionRef;
using net::DirectFanOut;
using net::escape_invalid_utf8;
using net::FanOut;
using net::Frame;
using net::framed_in_place;
using net::HttpHandler;
using net::HttpRequest;
using net::HttpResponse;
using net::HttpRouter;
using net::InboundBudget;
using net::make_frame;
using net::origin_allowed;
using net::Outbox;
using net::OutboxList;
using net::PathParams;
using net::percent_decode;
using net::problem;
using net::push_tick_to_all;
using net::query_param;
using net::Respond;
using net::take_thread_role;
using net::ThreadLauncher;
using net::TokenBucket;
using net::WireFrame;

}  // namespace hschool::server
