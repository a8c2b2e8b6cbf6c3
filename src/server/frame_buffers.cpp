#include "server/frame_buffers.hpp"

#include <vector>

#include "server/limits.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define HSCHOOL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HSCHOOL_ASAN 1
#endif
#endif
#ifdef HSCHOOL_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace hschool::server::frame_buffers {
namespace {

// Under AddressSanitizer a kept buffer is poisoned, so a view into a frame already written and
// freed still trips it, as it would without the pool.
void poison(protocol::Bytes& buffer, bool on) {
#ifdef HSCHOOL_ASAN
    if (on) {
        ASAN_POISON_MEMORY_REGION(buffer.data(), buffer.capacity());
    } else {
        ASAN_UNPOISON_MEMORY_REGION(buffer.data(), buffer.capacity());
    }
#else
    (void)buffer, (void)on;
#endif
}

struct Pool {
    Pool() = default;
    Pool(const Pool&) = delete;
    Pool& operator=(const Pool&) = delete;
    ~Pool() {
        for (auto& buffer : buffers) poison(buffer, false);
    }
    std::vector<protocol::Bytes> buffers;
    std::size_t bytes = 0;
};
thread_local Pool pool;

}  // namespace

protocol::Bytes take() {
    if (pool.buffers.empty()) return {};
    protocol::Bytes buffer = std::move(pool.buffers.back());
    pool.buffers.pop_back();
    pool.bytes -= buffer.capacity();
    poison(buffer, false);
    buffer.clear();
    return buffer;
}

void give_back(protocol::Bytes&& buffer) {
    const std::size_t capacity = buffer.capacity();
    if (capacity == 0 || capacity > kMaxPooledFrameBytes || pool.bytes + capacity > kFrameBufferPoolBytes) return;
    pool.bytes += capacity;
    buffer.clear();
    poison(buffer, true);
    pool.buffers.push_back(std::move(buffer));
}

std::size_t pooled_bytes() { return pool.bytes; }

}  // namespace hschool::server::frame_buffers
