#include "net/read_poller.hpp"

#include <sys/epoll.h>
#include <unistd.h>

#include <array>
#include <boost/asio/post.hpp>

#include "net/limits.hpp"

namespace hschool::net {

ReadPoller::ReadPoller(boost::asio::io_context& ioc) : epoll_fd_(::epoll_create1(EPOLL_CLOEXEC)), timer_(ioc) {}

ReadPoller::~ReadPoller() {
    if (epoll_fd_ >= 0) ::close(epoll_fd_);
}

ReadPoller::Token ReadPoller::add(int fd, std::shared_ptr<PolledSocket> owner) {
    if (!open_ || epoll_fd_ < 0 || fd < 0 || !owner) return 0;
    const Token token = next_token_++;
    epoll_event event{};
    event.events = EPOLLIN | EPOLLET;  // once per arrival: a socket already read dry costs nothing
    event.data.u64 = token;
    if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &event) != 0) return 0;
    entries_.emplace(token, Entry{fd, std::move(owner), false});
    if (!armed_) arm();
    return token;
}

bool ReadPoller::modify(const Entry& entry, Token token, bool writing) {
    epoll_event event{};
    event.events = EPOLLIN | EPOLLET | (writing ? EPOLLOUT : 0u);
    event.data.u64 = token;
    return ::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, entry.fd, &event) == 0;
}

bool ReadPoller::want_write(Token token, bool want) {
    auto it = entries_.find(token);
    if (it == entries_.end()) return false;
    if (it->second.writing == want) return true;
    if (!modify(it->second, token, want)) return false;
    it->second.writing = want;
    return true;
}

void ReadPoller::again(Token token) {
    if (entries_.count(token) != 0) again_.push_back(token);
}

void ReadPoller::remove(Token token) {
    auto it = entries_.find(token);
    if (it == entries_.end()) return;
    ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, it->second.fd, nullptr);
    auto owner = std::move(it->second.owner);  // released after the map is consistent again
    entries_.erase(it);
}

void ReadPoller::shut() {
    open_ = false;
    timer_.cancel();
    for (auto& [token, entry] : entries_) ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, entry.fd, nullptr);
    auto owners = std::move(entries_);
    entries_.clear();
    again_.clear();
}

std::size_t ReadPoller::poll_once() {
    std::vector<Token> again;
    again.swap(again_);
    for (Token token : again) {  // first: they have waited a pass already
        auto it = entries_.find(token);
        if (it == entries_.end()) continue;
        std::shared_ptr<PolledSocket> owner = it->second.owner;
        owner->on_polled(true, false);
    }
    std::array<epoll_event, kMaxPolledPerPass> events;
    const int count = ::epoll_wait(epoll_fd_, events.data(), static_cast<int>(events.size()), 0);
    if (count <= 0) return 0;
    for (int i = 0; i < count; ++i) {
        const Token token = events[i].data.u64;  // a copy: epoll_event is packed, the field misaligned
        auto it = entries_.find(token);
        if (it == entries_.end()) continue;  // removed by an owner told earlier in this pass
        std::shared_ptr<PolledSocket> owner = it->second.owner;
        const std::uint32_t what = events[i].events;
        owner->on_polled((what & (EPOLLIN | EPOLLHUP | EPOLLERR)) != 0, (what & EPOLLOUT) != 0);
    }
    return static_cast<std::size_t>(count);
}

void ReadPoller::arm() {
    armed_ = true;
    timer_.expires_after(kPolledReadPeriod);
    timer_.async_wait([this](const boost::system::error_code& ec) {
        if (ec || !open_) {
            armed_ = false;
            return;
        }
        pass();
    });
}

void ReadPoller::pass() {
    const bool full = poll_once() == static_cast<std::size_t>(kMaxPolledPerPass);
    if (!open_ || entries_.empty()) {
        armed_ = false;
        return;
    }
    if (!full) return arm();
    // More sockets were ready than one pass takes: the rest go next, after the thread's other work.
    boost::asio::post(timer_.get_executor(), [this] {
        if (open_) return pass();
        armed_ = false;
    });
}

}  // namespace hschool::net
