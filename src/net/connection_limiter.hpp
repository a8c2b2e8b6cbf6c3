#pragma once
// Caps on open WebSocket connections, in total and per client address, checked before the
// upgrade so one address cannot take every slot. Thread-safe; a Slot gives its place back when it goes.
#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

namespace hschool::net {

class ConnectionLimiter {
public:
    enum class Admission { Admitted, TotalCapReached, AddressCapReached };

    // A held place; releases it on destruction. Empty when default-constructed or moved from.
    class Slot {
    public:
        Slot() = default;
        Slot(ConnectionLimiter* limiter, std::string address) : limiter_(limiter), address_(std::move(address)) {}
        Slot(Slot&& other) noexcept : limiter_(other.limiter_), address_(std::move(other.address_)) { other.limiter_ = nullptr; }
        Slot& operator=(Slot&& other) noexcept;
        Slot(const Slot&) = delete;
        Slot& operator=(const Slot&) = delete;
        ~Slot() { release(); }
        void release();
        bool held() const { return limiter_ != nullptr; }

    private:
        ConnectionLimiter* limiter_ = nullptr;
        std::string address_;
    };

    // 0 means no cap.
    ConnectionLimiter(std::size_t max_total, std::size_t max_per_address) : max_total_(max_total), max_per_address_(max_per_address) {}

    // On Admitted, slot holds the place.
    Admission try_admit(const std::string& address, Slot& slot);
    std::size_t total() const;
    std::size_t from(const std::string& address) const;

private:
    void release(const std::string& address);

    const std::size_t max_total_;
    const std::size_t max_per_address_;
    mutable std::mutex mutex_;
    std::size_t total_ = 0;
    std::unordered_map<std::string, std::size_t> per_address_;
};

}  // namespace hschool::net
