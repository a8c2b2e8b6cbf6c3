#include "policy_http.hpp"

#include <curl/curl.h>

#include <memory>

#include "numeric_seat.hpp"

namespace hschool::tools::hns {
namespace {

struct Sink {
    std::string body;
    bool overflow = false;
};

std::size_t collect(char* data, std::size_t size, std::size_t count, void* user) {
    auto* sink = static_cast<Sink*>(user);
    const std::size_t n = size * count;
    if (sink->body.size() + n > kMaxNumericAnswerBytes) {
        sink->overflow = true;
        return 0;  // aborts the transfer
    }
    sink->body.append(data, n);
    return n;
}

}  // namespace

sh::Expected<PolicyReply> post_policy(const std::string& url, const std::string& bearer_key, const std::string& body,
                                      int timeout_seconds) {
    using R = sh::Expected<PolicyReply>;
    static const bool initialised = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
    if (!initialised) return R::fail("libcurl did not start");
    std::unique_ptr<CURL, void (*)(CURL*)> curl(curl_easy_init(), curl_easy_cleanup);
    if (!curl) return R::fail("libcurl did not start");
    curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
    if (!bearer_key.empty()) headers = curl_slist_append(headers, ("Authorization: Bearer " + bearer_key).c_str());
    std::unique_ptr<curl_slist, void (*)(curl_slist*)> header_list(headers, curl_slist_free_all);
    Sink sink;
    CURL* c = curl.get();
    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, body.c_str());
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
    curl_easy_setopt(c, CURLOPT_TIMEOUT, static_cast<long>(timeout_seconds));
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &sink);
    const CURLcode code = curl_easy_perform(c);
    if (sink.overflow) return R::fail("the policy answered over " + std::to_string(kMaxNumericAnswerBytes) + " bytes");
    if (code != CURLE_OK) return R::fail(curl_easy_strerror(code));
    long status = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    return R::ok(PolicyReply{static_cast<int>(status), std::move(sink.body)});
}

}  // namespace hschool::tools::hns
