// libFuzzer: what peers send the hide-and-seek endpoints besides Sprite v1 messages: the join
// query (parsed, then admitted against a roster, and a viewer's stream choice), the POST /api/hns/matches body, an archived
// match summary, and the replay transport keys. None may crash or hang; every error is a value.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "server/hns/contract/admission.hpp"
#include "server/hns/contract/match_request.hpp"
#include "server/hns/contract/match_view.hpp"
#include "server/hns/contract/query.hpp"
#include "server/hns/contract/replay_keys.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace hns = hschool::server::hns;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    if (auto query = hns::parse_query(text)) {
        hns::Roster roster;
        roster.slots.resize(6);
        roster.slots[0].token = "t0";
        roster.names_in_use = {"Player1"};
        (void)hns::admit_player(hns::player_request(*query), roster);
        (void)hns::admit_viewer(*query);
        (void)hns::viewer_stream(*query);
    }
    (void)hns::parse_create_request(text);
    hns::MatchView view;
    if (hns::match_view_from_json(text, view)) (void)hns::match_view_json(view, true);
    hns::Transport transport;
    hns::apply_transport_text(transport, text, 100, 949);
    if (transport.seek_to > 949 || transport.speed_index < 0 || transport.speed_index > 5) __builtin_trap();
    return 0;
}
