#pragma once
// How a prompt seat's decision turns went in one match, as results[].programs says it: the same
// words from `hschool-hns league` (a drop-in server's prompt seat) and from a server's league.
#include <string>
#include <vector>

namespace hschool::league {

// "prompt model 38/38 turns" when the model answered every turn, else
// "prompt fallback 2/38 turns (timeout, parse_error)" with the causes in the order they came.
std::string prompt_turns_note(int model_turns, int fallback_turns, const std::vector<std::string>& causes);

}  // namespace hschool::league
