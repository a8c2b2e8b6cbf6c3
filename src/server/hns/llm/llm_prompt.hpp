#pragma once
// The text a prompt seat's model reads (issue 21): our own system text (the rules, the orders,
// the reply format, from the game's facts and this match's config) and the user message, the
// operator's guidance (the seat's prompt, bounded) above the seat's view (the §2.5 observation).
// The prompt goes only into the request: never into a replay, the results, a log or the REST.
#include <string>
#include <string_view>

#include "sim/hns/config.hpp"

namespace hschool::server::hns {

// The reference's PLAYER_PROMPT cap: longer prompts are cut (on a rune boundary), never refused.
inline constexpr int kMaxPromptRunes = 4000;

std::string llm_system_text(const sim::hns::GameConfig& config);

// The guidance block (when the prompt is not empty), then the view JSON; `retry` adds the line
// that tells the model its last reply was not usable.
std::string llm_user_message(std::string_view prompt, std::string_view view_json, bool retry);

}  // namespace hschool::server::hns
