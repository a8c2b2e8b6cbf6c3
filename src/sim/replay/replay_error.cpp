#include "sim/replay/replay_error.hpp"

namespace hschool::sim::replay {

const char* describe(ReplayError error) {
    switch (error) {
        case ReplayError::None: return "no error";
        case ReplayError::Empty: return "the file is empty";
        case ReplayError::BadMagic: return "not an arena replay (bad magic)";
        case ReplayError::UnsupportedVersion: return "unsupported replay format version";
        case ReplayError::HeaderTruncated: return "the file ends inside the header";
        case ReplayError::InvalidSettings: return "the header's arena settings are invalid";
        case ReplayError::RecordTruncated: return "the last tick record is cut off";
        case ReplayError::BadRecordMarker: return "a tick record does not start with the tick marker";
        case ReplayError::TickOutOfOrder: return "a tick record is out of order";
        case ReplayError::TooManyCommands: return "a tick record has too many commands";
        case ReplayError::UnknownCommand: return "a tick record has an unknown command";
        case ReplayError::NameTooLong: return "a join name is too long";
        case ReplayError::InvalidName: return "a join name is not valid UTF-8";
    }
    return "unknown replay error";
}

bool is_header_error(ReplayError error) {
    switch (error) {
        case ReplayError::Empty:
        case ReplayError::BadMagic:
        case ReplayError::UnsupportedVersion:
        case ReplayError::HeaderTruncated:
        case ReplayError::InvalidSettings: return true;
        default: return false;
    }
}

}  // namespace hschool::sim::replay
