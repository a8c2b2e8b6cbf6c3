#include "net/http_answer.hpp"

#include <boost/beast/http/status.hpp>

#include <algorithm>

namespace hschool::net {

namespace {

bool safe_value(std::string_view text) {
    return std::none_of(text.begin(), text.end(), [](char c) { return c == '\r' || c == '\n' || c == '\0'; });
}

bool safe_name(std::string_view name) {
    return !name.empty() && safe_value(name) &&
           std::none_of(name.begin(), name.end(), [](char c) { return c == ':' || c == ' ' || c == '\t'; });
}

void add_line(std::string& head, std::string_view name, std::string_view value) {
    if (!safe_name(name) || !safe_value(value)) return;
    head += name;
    head += ": ";
    head += value;
    head += "\r\n";
}

}  // namespace

bool status_has_no_body(unsigned status) { return status / 100 == 1 || status == 204 || status == 304; }

std::string answer_head(const AnswerHead& answer) {
    std::string head = "HTTP/1.1 " + std::to_string(answer.status) + " ";
    head += boost::beast::http::obsolete_reason(static_cast<boost::beast::http::status>(answer.status));
    head += "\r\n";
    add_line(head, "Server", "hschool");
    if (!answer.content_type.empty()) add_line(head, "Content-Type", answer.content_type);
    if (answer.headers)
        for (const auto& [name, value] : *answer.headers) add_line(head, name, value);
    if (!status_has_no_body(answer.status)) add_line(head, "Content-Length", std::to_string(answer.content_length));
    if (!answer.keep_alive) add_line(head, "Connection", "close");
    head += "\r\n";
    return head;
}

}  // namespace hschool::net
