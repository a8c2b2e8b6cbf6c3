#pragma once
// The game's HTTP answers, each made one way: JSON bodies; the reference's plain texts (never
// cached); a refused REST request as application/problem+json; a refused upgrade or /client page
// as the reference's plain text; and what every creating POST shares (a JSON body only, and the
// owner token handed out once).
#include <optional>
#include <string>

#include "net/http_types.hpp"
#include "server/hns/contract/admission.hpp"
#include "server/hns/contract/match_request.hpp"

namespace hschool::server::hns {

net::HttpResponse json_response(unsigned status, std::string body);
net::HttpResponse plain_response(unsigned status, std::string body);
net::HttpResponse no_content();
// WWW-Authenticate on a 401, Retry-After when the error sets one.
net::HttpResponse problem_response(const HubError& error);
// The refusal's status and text; Retry-After when it sets one.
net::HttpResponse rejection_response(Rejection refused);

// A body that is not application/json is refused (415), even an empty one: a cross-site form or a
// text/plain "simple" request must never create anything.
std::optional<net::HttpResponse> refuse_unless_json(const net::HttpRequest& request);

// Owners mode: the creator's token (handed out once, in the 201) and the hash that is kept.
struct NewOwner {
    std::string token, hash;  // both "" in open mode
};
NewOwner new_owner(bool owners);

}  // namespace hschool::server::hns
