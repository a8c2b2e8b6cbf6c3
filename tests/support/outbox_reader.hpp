#pragma once
// A test connection: an outbox whose frames the test reads back in write order.
#include <memory>

#include "server/commands.hpp"

namespace hschool::server::test {

struct TestConnection {
    explicit TestConnection(net::ConnectionId id) : ref{id, std::make_shared<net::Outbox>([] {})} {}
    std::vector<protocol::Bytes> take() {
        std::vector<protocol::Bytes> frames;
        while (auto frame = ref.outbox->next().frame) frames.emplace_back(frame->payload().begin(), frame->payload().end());
        return frames;
    }
    net::ConnectionRef ref;
};

}  // namespace hschool::server::test
