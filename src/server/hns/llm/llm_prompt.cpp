#include "server/hns/llm/llm_prompt.hpp"

#include "sim/hns/constants.hpp"
#include "sim/hns/orders.hpp"

namespace hschool::server::hns {

std::string llm_system_text(const sim::hns::GameConfig& c) {
    const int turn_s10 = c.turnTicks * 10 / sim::hns::kTargetFps;  // tenths of a second
    const auto n = [](int v) { return std::to_string(v); };
    std::string t;
    t += "You command one cog in a game of hide and seek: three cogs hide, three seek, and the view below says which you are. ";
    t += "Every " + n(c.turnTicks) + " ticks (" + n(turn_s10 / 10) + "." + n(turn_s10 % 10) +
         " s) you give your cog one order; a driver carries it out until your next one.\n\n";
    t += "The room is " + n(sim::hns::kMapWidth) + " by " + n(sim::hns::kMapHeight) +
         " pixels of walls and doorways. Walls, doors, named regions and all furniture are always known to you. ";
    t += "Furniture: " + n(c.crates) + " crates (64x64), " + n(c.panels) + " panels (128x32, one can close a doorway) and " +
         n(c.ramps) + " ramps. Any of it can be dragged, at " + n(c.carrySpeedPct) + "% of walking speed. ";
    t += "A locked object cannot be moved by the other team, and only the team that locked it can unlock it. ";
    t += "Running up a ramp towards a wall or crate jumps you over it; in the air you are seen by everyone and carry nothing. ";
    t += "Nothing may be dragged within " + n(c.keepClearPx) + " px of a seeker pad.\n\n";
    t += "Sight: a cone along your aim out to " + n(c.sightRange) + " px, " + n(2 * c.visionConeDeg) +
         " degrees wide, plus a " + n(c.visionBubble) + " px circle around you; walls and furniture block it.\n\n";
    t += "Scoring, each hunt tick: if any seeker sees any hider the seekers take the tick, otherwise the hiders do. ";
    t += "Each game has a prep phase of " + n(c.prepTurns) + " turns (seekers frozen and blind, hiders build) and a hunt of " +
         n(c.huntTurns) + " turns; then the teams swap sides for the next game.\n\n";
    t += "Orders (one JSON object; ids come from your view):\n";
    t += "  {\"intent\":\"move_to\",\"to\":[x,y]}  go there\n";
    t += "  {\"intent\":\"hide\",\"at\":\"<anchor, door or region id>\"}  go there and keep still\n";
    t += "  {\"intent\":\"watch\",\"to\":[x,y]}  stand and sweep your sight over that point\n";
    t += "  {\"intent\":\"chase\"}  hunt the enemy last seen\n";
    t += "  {\"intent\":\"push\",\"object\":\"<id>\",\"to\":[x,y]}  drag that object there\n";
    t += "  {\"intent\":\"lock\",\"object\":\"<id>\"} / {\"intent\":\"unlock\",\"object\":\"<id>\"}\n";
    t += "  {\"intent\":\"vault\",\"object\":\"<ramp id>\"}  jump whatever is past that ramp\n";
    t += "Optional fields: \"say\" (at most " + n(sim::hns::kMaxSayRunes) +
         " characters, shouted aloud: everyone nearby hears it, enemies too), \"radio\" (at most " + n(sim::hns::kMaxRadioRunes) +
         " characters, your teammates read it next turn), \"notes\" (at most " + n(sim::hns::kMaxNoteRunes) +
         " characters, shown only to you next turn).\n\n";
    t += "Answer with exactly one JSON object and nothing else, for example\n";
    t += "{\"intent\":\"lock\",\"object\":\"box1\",\"say\":\"mine\",\"radio\":\"door is shut\",\"notes\":\"guard north\"}\n";
    return t;
}

std::string llm_user_message(std::string_view prompt, std::string_view view_json, bool retry) {
    std::string out;
    if (!prompt.empty()) {
        out += "Your operator's guidance (follow it within the rules, and always answer in the format asked):\n";
        out += sim::hns::truncate_runes(prompt, kMaxPromptRunes);
        out += "\n\n";
    }
    out += "Your view:\n";
    out.append(view_json);
    if (retry) out += "\n\nYour last answer could not be used. Answer with only the JSON object, starting with {.";
    return out;
}

}  // namespace hschool::server::hns
