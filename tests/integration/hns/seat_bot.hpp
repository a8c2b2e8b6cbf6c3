#pragma once
// A seat program for the hide-and-seek integration tests: answers each decision at once, sends
// 0x85 after every frame, and keeps the decisions it saw.
#include <atomic>
#include <functional>
#include <mutex>
#include <thread>

#include "hns_client.hpp"

namespace hschool::test::hns {

struct Decision {
    int seat = -1;
    json::object body;
};

inline std::vector<Decision> decisions_in(const std::vector<std::string>& texts) {
    std::vector<Decision> out;
    for (const auto& text : texts) {
        auto value = parse(text);
        if (!value.is_object() || value.as_object().at("type") != "decision") continue;
        out.push_back({static_cast<int>(value.as_object().at("seat").as_int64()), value.as_object()});
    }
    return out;
}

// A seat program: answers each decision at once (through `answer`), sends 0x85 after every
// frame, and stops when its socket closes.
class SeatBot {
public:
    using Answer = std::function<std::string(int seat, int game, int turn)>;
    SeatBot(std::unique_ptr<WsClient> ws, int seat, Answer answer)
        : ws_(std::move(ws)), seat_(seat), answer_(std::move(answer)), thread_([this] { run(); }) {}
    ~SeatBot() { wait(); }
    // Until the socket closes (the match ended, or the server closed it).
    void wait() {
        if (thread_.joinable()) thread_.join();
    }
    // Stops reading after the next frame and leaves the socket open; then waits.
    void stop() {
        stop_ = true;
        wait();
    }
    std::size_t decision_count() {
        std::lock_guard lock(mutex_);
        return decisions_.size();
    }
    std::vector<json::object> decisions() {
        std::lock_guard lock(mutex_);
        return decisions_;
    }
    std::uint16_t close_code() const { return close_code_; }

private:
    void run() {
        for (;;) {
            auto event = ws_->read(30s);
            if (auto* closed = std::get_if<Closed>(&event)) {
                close_code_ = closed->code;
                return;
            }
            auto* frame = std::get_if<Frame>(&event);
            if (!frame || stop_) return;
            if (frame->binary) {
                ws_->send(ready_message());
                continue;
            }
            for (auto& d : decisions_in({std::string(frame->data.begin(), frame->data.end())})) {
                const int turn = static_cast<int>(d.body.at("turn").as_int64());
                const int game = static_cast<int>(d.body.at("observation").as_object().at("game").as_int64());
                {
                    std::lock_guard lock(mutex_);
                    decisions_.push_back(d.body);
                }
                ws_->send(text_message("orders:" + std::to_string(game) + ":" + std::to_string(turn) + ":" + answer_(seat_, game, turn)));
            }
        }
    }

    std::unique_ptr<WsClient> ws_;
    const int seat_;
    Answer answer_;
    std::mutex mutex_;
    std::vector<json::object> decisions_;
    std::atomic<std::uint16_t> close_code_{0};
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

}  // namespace hschool::test::hns
