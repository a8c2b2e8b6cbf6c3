#include <cstdio>
#include <cstdlib>

#include "protocol/errors.hpp"
#include "protocol/stream.hpp"

namespace hschool::protocol {

const char* describe(DecodeError error) {
    switch (error) {
        case DecodeError::Empty: return "empty frame";
        case DecodeError::Truncated: return "truncated frame";
        case DecodeError::TrailingBytes: return "trailing bytes after the message";
        case DecodeError::LengthTooLarge: return "string longer than allowed";
        case DecodeError::CountTooLarge: return "element count larger than allowed";
        case DecodeError::InvalidUtf8: return "string is not valid UTF-8";
        case DecodeError::InvalidFieldMask: return "flag or field-mask bits this version does not define";
    }
    return "unknown decode error";
}

void encode_failed(const char* message, DecodeError error) {
    std::fprintf(stderr, "hschool: bug: cannot encode %s: %s\n", message, describe(error));
    std::abort();
}

}  // namespace hschool::protocol
