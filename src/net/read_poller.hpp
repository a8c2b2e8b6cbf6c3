#pragma once
// Arena v5 sockets are read in batches: their network thread polls them on a short timer instead
// of being woken by every Input, which a v5 client sends once per tick (bench/README.md, "Polled
// reads for v5"). The sockets live in an epoll set of their own, edge-triggered, so one
// epoll_wait finds every socket that got bytes since the last pass, and no read re-arms anything.
// An owner reads until a short read; one that stops earlier (its turn is over) says again().
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace hschool::net {

// What a polled socket's owner is told after a poll: bytes or an end to read, room to write.
class PolledSocket {
public:
    virtual void on_polled(bool readable, bool writable) = 0;

protected:
    ~PolledSocket() = default;
};

// One per network thread, used by that thread only.
class ReadPoller {
public:
    using Token = std::uint64_t;  // 0: not registered

    explicit ReadPoller(boost::asio::io_context& ioc);
    ~ReadPoller();
    ReadPoller(const ReadPoller&) = delete;
    ReadPoller& operator=(const ReadPoller&) = delete;

    // Watches fd for reading until remove(); the owner is kept alive until then. 0 when the
    // kernel refuses (the caller keeps its own way of reading). Bytes already there are reported.
    Token add(int fd, std::shared_ptr<PolledSocket> owner);
    // Also reports room to write, until told otherwise (a full socket waits for it).
    bool want_write(Token token, bool want);
    // The owner left bytes unread: it is told again on the next pass, though no new bytes came.
    void again(Token token);
    void remove(Token token);
    // The thread has stopped: drops every owner while the io_context still exists.
    void shut();

    // One poll, as the timer runs it: each ready owner is told once. Returns how many were ready.
    std::size_t poll_once();
    std::size_t size() const { return entries_.size(); }

private:
    struct Entry {
        int fd;
        std::shared_ptr<PolledSocket> owner;
        bool writing;
    };
    void arm();
    void pass();  // one poll, then the next one due
    bool modify(const Entry& entry, Token token, bool writing);

    int epoll_fd_;
    boost::asio::steady_timer timer_;
    std::unordered_map<Token, Entry> entries_;
    std::vector<Token> again_;  // told on the next pass whatever epoll says
    Token next_token_ = 1;
    bool armed_ = false;
    bool open_ = true;
};

}  // namespace hschool::net
