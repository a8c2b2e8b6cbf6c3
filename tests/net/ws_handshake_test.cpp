#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <string>
#include <variant>

#include "net/ws_handshake.hpp"

namespace hschool::net {
namespace {

constexpr std::string_view kRfcKey = "dGhlIHNhbXBsZSBub25jZQ==";  // RFC 6455 section 1.3's sample nonce

WsHandshakeRequest valid_request() {
    WsHandshakeRequest request;
    request.has_host = true;
    request.has_key = true;
    request.key = kRfcKey;
    request.has_version = true;
    request.version = "13";
    return request;
}

// A valid request with one thing changed.
template <class Change>
WsHandshakeRequest valid_but(Change change) {
    WsHandshakeRequest request = valid_request();
    change(request);
    return request;
}

// The problem a refused handshake answers with, or a failure naming what came instead.
HttpResponse refusal(const WsHandshakeRequest& request) {
    auto result = ws_handshake_accept(request);
    if (auto* accepted = std::get_if<std::string>(&result)) {
        ADD_FAILURE() << "accepted with key " << *accepted;
        return {};
    }
    return std::get<HttpResponse>(std::move(result));
}

std::string problem_code(const HttpResponse& response) {
    return std::string(boost::json::parse(response.body).as_object().at("code").as_string());
}

TEST(WsHandshake, TheAcceptKeyIsTheRfcsForItsSampleAndSha1Base64ForOthers) {
    EXPECT_EQ(ws_accept_key(kRfcKey), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    EXPECT_EQ(ws_accept_key("x3JJHMbDL1EzLkh9GBhXDw=="), "HSmrc0sMlYUkAGmm5OPpG2HaGWk=");
    // Not base64 at all (zero and 0xFF bytes): the key is hashed as it came, as Beast did.
    std::string binary;
    for (int i = 0; i < 12; ++i) binary += std::string("\x00\xff", 2);
    EXPECT_EQ(ws_accept_key(binary), "4KkIzBSOZsvOp5VtFnk/Q4mmm7g=");
}

TEST(WsHandshake, AValidRequestIsAcceptedWithItsKey) {
    auto result = ws_handshake_accept(valid_request());
    ASSERT_TRUE(std::holds_alternative<std::string>(result));
    EXPECT_EQ(std::get<std::string>(result), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    auto longest = valid_request();
    const std::string key(kMaxWsKeyChars, 'A');
    longest.key = key;
    EXPECT_TRUE(std::holds_alternative<std::string>(ws_handshake_accept(longest)));
}

TEST(WsHandshake, MissingHostKeyOrAnOversizedKeyOrHttp10Get400) {
    const std::string long_key(kMaxWsKeyChars + 1, 'A');
    const WsHandshakeRequest no_host = valid_but([](auto& r) { r.has_host = false; });
    const WsHandshakeRequest no_key = valid_but([](auto& r) { r.has_key = false; r.key = {}; });
    const WsHandshakeRequest empty_key = valid_but([](auto& r) { r.key = ""; });
    const WsHandshakeRequest too_long = valid_but([&](auto& r) { r.key = long_key; });
    const WsHandshakeRequest http10 = valid_but([](auto& r) { r.http_version = 10; });
    for (const auto* request : {&no_host, &no_key, &empty_key, &too_long, &http10}) {
        const HttpResponse refused = refusal(*request);
        EXPECT_EQ(refused.status, 400U);
        EXPECT_EQ(refused.content_type, "application/problem+json");
        EXPECT_EQ(problem_code(refused), "bad-request");
    }
}

TEST(WsHandshake, AnyVersionBut13Gets426NamingVersion13) {
    const WsHandshakeRequest old = valid_but([](auto& r) { r.version = "8"; });
    const WsHandshakeRequest missing = valid_but([](auto& r) { r.has_version = false; r.version = {}; });
    const WsHandshakeRequest padded = valid_but([](auto& r) { r.version = "13 "; });
    const WsHandshakeRequest garbage = valid_but([](auto& r) { r.version = std::string_view("1\x00" "3", 3); });
    for (const auto* request : {&old, &missing, &padded, &garbage}) {
        const HttpResponse refused = refusal(*request);
        EXPECT_EQ(refused.status, 426U);
        EXPECT_EQ(problem_code(refused), "upgrade-required");
        ASSERT_EQ(refused.headers.size(), 1U);
        EXPECT_EQ(refused.headers[0].first, "Sec-WebSocket-Version");
        EXPECT_EQ(refused.headers[0].second, "13");
    }
}

TEST(WsHandshake, The101AnswerCarriesTheAcceptKeyAndEndsItsHeaders) {
    const std::string answer = ws_switching_protocols("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    EXPECT_TRUE(answer.starts_with("HTTP/1.1 101 Switching Protocols\r\n")) << answer;
    EXPECT_NE(answer.find("\r\nUpgrade: websocket\r\n"), std::string::npos) << answer;
    EXPECT_NE(answer.find("\r\nConnection: Upgrade\r\n"), std::string::npos) << answer;
    EXPECT_NE(answer.find("\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"), std::string::npos) << answer;
    EXPECT_TRUE(answer.ends_with("\r\n\r\n")) << answer;
    EXPECT_EQ(answer.find("\r\n\r\n"), answer.size() - 4) << "one blank line, at the end";
    EXPECT_EQ(answer.find("Content-Length"), std::string::npos) << "a 101 has no body: " << answer;
    EXPECT_EQ(answer.find("Connection: close"), std::string::npos) << "the connection goes on as a WebSocket: " << answer;
}

TEST(WsHandshake, AnAcceptKeyThatCouldSplitThe101IsLeftOut) {
    const std::string answer = ws_switching_protocols("abc\r\nSet-Cookie: x=1");
    EXPECT_EQ(answer.find("Set-Cookie"), std::string::npos) << answer;
    EXPECT_EQ(answer.find("Sec-WebSocket-Accept"), std::string::npos) << answer;
}

}  // namespace
}  // namespace hschool::net
