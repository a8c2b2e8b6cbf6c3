#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "net/http_answer.hpp"

namespace hschool::net {
namespace {

using Headers = std::vector<std::pair<std::string, std::string>>;

TEST(AnswerHead, StatusLineServerTypeOwnHeadersAndLengthEndInABlankLine) {
    const Headers headers{{"Cache-Control", "no-cache"}, {"Retry-After", "5"}};
    EXPECT_EQ(answer_head({503, "application/problem+json", &headers, 42, true}),
              "HTTP/1.1 503 Service Unavailable\r\nServer: hschool\r\nContent-Type: application/problem+json\r\n"
              "Cache-Control: no-cache\r\nRetry-After: 5\r\nContent-Length: 42\r\n\r\n");
    EXPECT_EQ(answer_head({200, "", nullptr, 0, true}), "HTTP/1.1 200 OK\r\nServer: hschool\r\nContent-Length: 0\r\n\r\n");
}

TEST(AnswerHead, AnAnswerThatEndsTheConnectionSaysClose) {
    EXPECT_EQ(answer_head({404, "text/plain", nullptr, 3, false}),
              "HTTP/1.1 404 Not Found\r\nServer: hschool\r\nContent-Type: text/plain\r\nContent-Length: 3\r\nConnection: close\r\n\r\n");
}

TEST(AnswerHead, NoContentNotModifiedAndInformationalAnswersHaveNoLength) {
    for (const unsigned status : {100U, 204U, 304U}) {
        SCOPED_TRACE(status);
        EXPECT_TRUE(status_has_no_body(status));
        EXPECT_EQ(answer_head({status, "", nullptr, 0, true}).find("Content-Length"), std::string::npos);
    }
    for (const unsigned status : {200U, 201U, 400U, 503U}) EXPECT_FALSE(status_has_no_body(status)) << status;
}

TEST(AnswerHead, AHeaderThatCouldSplitTheAnswerIsLeftOut) {
    const Headers headers{{"Location", "/a\r\nSet-Cookie: stolen=1"},
                          {"Content-Disposition", std::string("attachment\0x", 12)},
                          {"X-Bad\nName", "v"},
                          {"X-Colon:", "v"},
                          {"X Space", "v"},
                          {"", "v"},
                          {"Vary", "Origin"}};
    const std::string head = answer_head({200, "text/html\r\nX-Evil: 1", &headers, 7, true});
    EXPECT_EQ(head, "HTTP/1.1 200 OK\r\nServer: hschool\r\nVary: Origin\r\nContent-Length: 7\r\n\r\n");
    EXPECT_EQ(head.find("\r\n\r\n"), head.size() - 4) << "one blank line, at the end";
}

}  // namespace
}  // namespace hschool::net
