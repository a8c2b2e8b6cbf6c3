#include "server/hns/llm/http_batch.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <memory>
#include <mutex>

namespace hschool::server::hns {
namespace {

using Clock = std::chrono::steady_clock;

// curl_global_init is not guaranteed thread-safe on every build: once, before the first batch.
void init_curl_once() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct Transfer {
    CURL* easy = nullptr;
    curl_slist* headers = nullptr;
    HttpAnswer answer;
    bool done = false;
    bool too_big = false;
    ~Transfer() {
        if (easy) curl_easy_cleanup(easy);
        if (headers) curl_slist_free_all(headers);
    }
};

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
    auto* t = static_cast<Transfer*>(user);
    const std::size_t n = size * count;
    if (t->answer.body.size() + n > kMaxLlmBodyBytes) {
        t->too_big = true;
        return 0;  // aborts the transfer (CURLE_WRITE_ERROR)
    }
    t->answer.body.append(data, n);
    return n;
}

struct MultiDeleter {
    void operator()(CURLM* m) const { curl_multi_cleanup(m); }
};

}  // namespace

std::vector<HttpAnswer> run_http_batch(const std::vector<HttpCall>& calls, std::chrono::milliseconds timeout,
                                       const std::function<bool()>& stop) {
    init_curl_once();
    std::vector<std::unique_ptr<Transfer>> transfers;
    std::unique_ptr<CURLM, MultiDeleter> multi(curl_multi_init());
    const long timeout_ms = std::max<long>(1, static_cast<long>(timeout.count()));
    for (const HttpCall& call : calls) {
        auto t = std::make_unique<Transfer>();
        t->easy = curl_easy_init();
        if (!multi || !t->easy) {
            t->answer.transport_error = "libcurl could not start a transfer";
            t->done = true;
            transfers.push_back(std::move(t));
            continue;
        }
        for (const auto& [name, value] : call.headers) t->headers = curl_slist_append(t->headers, (name + ": " + value).c_str());
        t->headers = curl_slist_append(t->headers, "Expect:");  // no 100-continue round trip
        CURL* e = t->easy;
        curl_easy_setopt(e, CURLOPT_URL, call.url.c_str());
        curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
        curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
        curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 1L);
        curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 2L);
        curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(e, CURLOPT_HTTPHEADER, t->headers);
        curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(call.body.size()));
        curl_easy_setopt(e, CURLOPT_COPYPOSTFIELDS, call.body.c_str());
        curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, timeout_ms);
        curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, std::min<long>(timeout_ms, kHttpConnectTimeout.count()));
        curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &on_body);
        curl_easy_setopt(e, CURLOPT_WRITEDATA, t.get());
        curl_easy_setopt(e, CURLOPT_PRIVATE, t.get());
        if (curl_multi_add_handle(multi.get(), e) != CURLM_OK) {
            t->answer.transport_error = "libcurl could not queue a transfer";
            t->done = true;
        }
        transfers.push_back(std::move(t));
    }
    const auto deadline = Clock::now() + timeout;
    int running = 1;
    while (multi && running > 0) {
        if (curl_multi_perform(multi.get(), &running) != CURLM_OK) break;
        int queued = 0;
        while (CURLMsg* msg = curl_multi_info_read(multi.get(), &queued)) {
            if (msg->msg != CURLMSG_DONE) continue;
            Transfer* t = nullptr;
            curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, reinterpret_cast<char**>(&t));
            if (!t) continue;
            t->done = true;
            const CURLcode code = msg->data.result;
            if (code == CURLE_OK) {
                curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &t->answer.status);
            } else if (code == CURLE_OPERATION_TIMEDOUT) {
                t->answer.timed_out = true;
            } else if (t->too_big) {
                t->answer.transport_error = "answer over " + std::to_string(kMaxLlmBodyBytes) + " bytes";
            } else {
                t->answer.transport_error = curl_easy_strerror(code);
            }
            if (code != CURLE_OK) t->answer.body.clear();
            curl_multi_remove_handle(multi.get(), t->easy);
        }
        if (running == 0) break;
        const auto now = Clock::now();
        if (now >= deadline || (stop && stop())) break;
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
        const int wait_ms = static_cast<int>(std::max<std::int64_t>(1, std::min(left, kHttpBatchStopPoll).count()));
        curl_multi_poll(multi.get(), nullptr, 0, wait_ms, nullptr);
    }
    std::vector<HttpAnswer> out;
    out.reserve(transfers.size());
    for (auto& t : transfers) {
        if (!t->done) {
            t->answer.timed_out = true;
            t->answer.body.clear();
            if (multi && t->easy) curl_multi_remove_handle(multi.get(), t->easy);
        }
        out.push_back(std::move(t->answer));
    }
    return out;
}

}  // namespace hschool::server::hns
