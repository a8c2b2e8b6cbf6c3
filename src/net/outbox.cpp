#include "net/outbox.hpp"

#include "net/close_codes.hpp"
#include "net/limits.hpp"

namespace hschool::net {

Outbox::Outbox(std::function<void()> wake) : wake_(std::move(wake)) {}

void Outbox::wake_if_idle(std::unique_lock<std::mutex>& lock) {
    if (writer_busy_) return;
    writer_busy_ = true;
    lock.unlock();
    wake_();
}

void Outbox::push_welcome(Frame welcome) {
    std::unique_lock lock(mutex_);
    if (welcomed_ || close_) return;
    welcomed_ = true;
    reliable_bytes_ += welcome->size();
    reliable_.push_front(std::move(welcome));
    wake_if_idle(lock);
}

void Outbox::open() {
    std::unique_lock lock(mutex_);
    if (welcomed_ || close_) return;
    welcomed_ = true;
    if (!reliable_.empty() || !stream_.empty()) wake_if_idle(lock);
}

bool Outbox::push_reliable(Frame frame) {
    std::unique_lock lock(mutex_);
    if (close_) return false;
    if (reliable_.size() >= kMaxReliableFrames || reliable_bytes_ + frame->size() > kMaxReliableBytes) {
        lock.unlock();
        // Frames pile up behind a full socket when the reader is slow, behind a writer that has
        // not run when the server is: the second is not the client's fault.
        if (socket_full()) request_close({close_code::kPolicyViolation, "client is not reading", CloseCause::NotReading});
        else request_close({close_code::kTryAgainLater, "the server is behind", CloseCause::ServerBehind});
        return false;
    }
    reliable_bytes_ += frame->size();
    reliable_.push_back(std::move(frame));
    if (welcomed_) wake_if_idle(lock);
    return true;
}

bool Outbox::push_control(Frame frame) {
    std::unique_lock lock(mutex_);
    if (close_) return false;
    if (control_.size() >= kMaxControlFrames) {
        lock.unlock();
        request_close({close_code::kPolicyViolation, "client is not reading", CloseCause::NotReading});
        return false;
    }
    control_.push_back(std::move(frame));
    wake_if_idle(lock);
    return true;
}

std::size_t Outbox::push_tick(Frame frame) {
    std::unique_lock lock(mutex_);
    if (!welcomed_ || close_) return 0;
    std::size_t dropped = 0;
    if (ticks_.size() >= kTickFrameRing) {
        ticks_.pop_front();  // a stale tick is worthless once a newer one exists
        dropped = 1;
    }
    ticks_.push_back(std::move(frame));
    wake_if_idle(lock);
    return dropped;
}

bool Outbox::push_delta(Frame frame) {
    std::unique_lock lock(mutex_);
    if (!welcomed_ || close_) return false;
    deltas_.push_back(std::move(frame));
    wake_if_idle(lock);
    return true;
}

bool Outbox::push_stream(Frame frame) {
    std::unique_lock lock(mutex_);
    if (close_) return false;
    stream_.push_back(std::move(frame));
    if (welcomed_) wake_if_idle(lock);
    return true;
}

std::size_t Outbox::clear_stream() {
    std::deque<Frame> dropped;  // released outside the lock: their deleters may do work
    {
        std::lock_guard lock(mutex_);
        dropped.swap(stream_);
    }
    return dropped.size();
}

std::size_t Outbox::keep_newest_tick() {
    std::deque<Frame> dropped;  // released outside the lock
    {
        std::lock_guard lock(mutex_);
        if (ticks_.size() <= 1) return 0;
        dropped.assign(std::make_move_iterator(ticks_.begin()), std::make_move_iterator(ticks_.end() - 1));
        ticks_.erase(ticks_.begin(), ticks_.end() - 1);
    }
    return dropped.size();
}

void Outbox::request_close(CloseRequest request) {
    std::unique_lock lock(mutex_);
    if (close_) return;
    close_ = std::move(request);
    // Always wake: a writer stuck on a peer that does not read must learn of the close too.
    writer_busy_ = true;
    auto* caught_up = caught_up_due();
    lock.unlock();
    wake_();
    if (caught_up) (*caught_up)();
}

void Outbox::set_socket_full(bool full) {
    socket_full_.store(full, std::memory_order_relaxed);
    if (!full) return;
    std::unique_lock lock(mutex_);
    auto* caught_up = caught_up_due();
    lock.unlock();
    if (caught_up) (*caught_up)();  // a full socket is the reader's pace: the sender need not wait for it
}

bool Outbox::writer_behind(std::size_t frames) {
    std::lock_guard lock(mutex_);
    if (close_ || socket_full() || reliable_.size() <= frames) return false;
    caught_up_at_ = frames;
    return true;
}

void Outbox::on_writer_caught_up(std::function<void()> caught_up) {
    std::lock_guard lock(mutex_);
    caught_up_ = std::move(caught_up);
}

std::function<void()>* Outbox::caught_up_due() {
    if (!caught_up_at_ || !caught_up_) return nullptr;
    if (!close_ && !socket_full() && reliable_.size() > *caught_up_at_) return nullptr;
    caught_up_at_.reset();
    return &caught_up_;  // set once, before any writer_behind: safe to call unlocked
}

bool Outbox::close_requested() const {
    std::lock_guard lock(mutex_);
    return close_.has_value();
}

Outbox::Next Outbox::next(bool lossy_allowed) {
    std::unique_lock lock(mutex_);
    if (close_) {
        control_.clear();
        reliable_.clear();
        ticks_.clear();
        stream_.clear();
        deltas_.clear();
        return {nullptr, close_};
    }
    if (!control_.empty()) {
        Frame frame = std::move(control_.front());
        control_.pop_front();
        return {std::move(frame), std::nullopt};
    }
    if (welcomed_ && !reliable_.empty()) {
        Frame frame = std::move(reliable_.front());
        reliable_.pop_front();
        reliable_bytes_ -= frame->size();
        if (auto* caught_up = caught_up_due()) {
            lock.unlock();
            (*caught_up)();
        }
        return {std::move(frame), std::nullopt};
    }
    const bool lossy_waiting = (welcomed_ && !stream_.empty()) || !deltas_.empty() || !ticks_.empty();
    if (!lossy_allowed || !lossy_waiting) {
        writer_busy_ = false;  // the next push wakes the writer, which asks again
        return {nullptr, std::nullopt, false, lossy_waiting};
    }
    std::deque<Frame>& lane = welcomed_ && !stream_.empty() ? stream_ : !deltas_.empty() ? deltas_ : ticks_;
    Frame frame = std::move(lane.front());
    lane.pop_front();
    return {std::move(frame), std::nullopt, true, false};
}

std::size_t Outbox::queued_ticks() const {
    std::lock_guard lock(mutex_);
    return ticks_.size();
}

std::size_t Outbox::queued_reliable() const {
    std::lock_guard lock(mutex_);
    return reliable_.size();
}

std::size_t Outbox::queued_deltas() const {
    std::lock_guard lock(mutex_);
    return deltas_.size();
}

std::size_t Outbox::queued_stream() const {
    std::lock_guard lock(mutex_);
    return stream_.size();
}

}  // namespace hschool::net
