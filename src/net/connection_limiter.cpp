#include "net/connection_limiter.hpp"

namespace hschool::net {

ConnectionLimiter::Slot& ConnectionLimiter::Slot::operator=(Slot&& other) noexcept {
    if (this != &other) {
        release();
        limiter_ = other.limiter_;
        address_ = std::move(other.address_);
        other.limiter_ = nullptr;
    }
    return *this;
}

void ConnectionLimiter::Slot::release() {
    if (limiter_) limiter_->release(address_);
    limiter_ = nullptr;
}

ConnectionLimiter::Admission ConnectionLimiter::try_admit(const std::string& address, Slot& slot) {
    {
        std::lock_guard lock(mutex_);
        if (max_total_ != 0 && total_ >= max_total_) return Admission::TotalCapReached;
        std::size_t& mine = per_address_[address];
        if (max_per_address_ != 0 && mine >= max_per_address_) {
            if (mine == 0) per_address_.erase(address);
            return Admission::AddressCapReached;
        }
        ++mine;
        ++total_;
    }
    slot = Slot(this, address);
    return Admission::Admitted;
}

void ConnectionLimiter::release(const std::string& address) {
    std::lock_guard lock(mutex_);
    const auto found = per_address_.find(address);
    if (found == per_address_.end()) return;
    --total_;
    if (--found->second == 0) per_address_.erase(found);
}

std::size_t ConnectionLimiter::total() const {
    std::lock_guard lock(mutex_);
    return total_;
}

std::size_t ConnectionLimiter::from(const std::string& address) const {
    std::lock_guard lock(mutex_);
    const auto found = per_address_.find(address);
    return found == per_address_.end() ? 0 : found->second;
}

}  // namespace hschool::net
