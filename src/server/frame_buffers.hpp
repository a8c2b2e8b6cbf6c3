#pragma once
// Frame buffers are reused per thread. A tick makes one v5 Frame of a few KiB per connection, each
// of which was a malloc and a free of its own (with glibc's consolidation, ~8 % of the server's CPU
// at 5,000 players); a buffer given back on the thread that frees it serves the next tick's Frame.
#include "protocol/bytes.hpp"

namespace hschool::server::frame_buffers {

// An empty buffer, with the capacity of one given back earlier on this thread if there is one.
protocol::Bytes take();
// Keeps the buffer's memory for take() unless this thread already holds kFrameBufferPoolBytes, or
// the buffer is larger than kMaxPooledFrameBytes (a rare keyframe is not worth keeping).
void give_back(protocol::Bytes&& buffer);
// Bytes of capacity this thread holds (tests).
std::size_t pooled_bytes();

}  // namespace hschool::server::frame_buffers
