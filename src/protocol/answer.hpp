#pragma once
// How a server answers one client message of our protocols (v1, v4, v5), decided without sockets:
// the games' sessions return these beside the commands they make, and the transport carries them out.
#include "protocol/bytes.hpp"
#include "protocol/errors.hpp"

namespace hschool::protocol {

struct Ignore {};  // an unknown message id: skipped, as the protocols ask
struct Reply {     // answered on the spot (Pong), on the reliable queue
    Bytes message;
};
struct Reject {  // close with this code; malformed input is also counted as a rejected frame
    CloseCode code = CloseCode::InvalidPayload;
    const char* reason = "";
    bool malformed = true;
};

}  // namespace hschool::protocol
