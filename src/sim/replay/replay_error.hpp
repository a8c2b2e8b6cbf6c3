#pragma once
// Why a replay could not be read. Errors are values: replay files come from disk, not from us.
#include <cstdint>

namespace hschool::sim::replay {

enum class ReplayError : std::uint8_t {
    None,
    Empty,               // no bytes at all
    BadMagic,            // not a replay file
    UnsupportedVersion,  // a format version this build cannot read
    HeaderTruncated,     // the file ends inside the header
    InvalidSettings,     // the header's settings cannot drive a world
    RecordTruncated,     // the last record is cut off (a crash while recording)
    BadRecordMarker,     // a record does not start with the tick marker
    TickOutOfOrder,      // a record's tick is not the previous one plus one
    TooManyCommands,     // a command count above kMaxCommandsPerTick
    UnknownCommand,      // a command tag this format does not define
    NameTooLong,         // a join name above protocol::v1::kMaxNameBytes
    InvalidName,         // a join name that is not valid UTF-8
};

const char* describe(ReplayError error);

// True for errors that mean the bytes are not a usable replay at all.
bool is_header_error(ReplayError error);

}  // namespace hschool::sim::replay
