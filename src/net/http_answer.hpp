#pragma once
// An answer's status line and header block, written by us (issue 38): Beast's serializer and write
// operations cost ~11 s of compile for what is a few lines of text. Pure: no socket.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hschool::net {

struct AnswerHead {
    unsigned status = 200;
    std::string_view content_type;  // left out when empty
    const std::vector<std::pair<std::string, std::string>>* headers = nullptr;
    std::uint64_t content_length = 0;  // of GET's body, also for HEAD
    bool keep_alive = true;
};

// Whether an answer with this status carries no body and no Content-Length (1xx, 204, 304: RFC 9110).
bool status_has_no_body(unsigned status);

// "HTTP/1.1 <status> <reason>" and the headers — Server, Content-Type, the answer's own, Content-Length,
// "Connection: close" unless kept alive — ending in the blank line. A header whose name or value
// holds CR, LF or NUL (or whose name is empty or holds ':' or a space) is left out, so no answer
// can be split into two.
std::string answer_head(const AnswerHead& answer);

}  // namespace hschool::net
