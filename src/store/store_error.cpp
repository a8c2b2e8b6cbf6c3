#include "store/store_error.hpp"

namespace hschool::store {

const char* describe(StoreErrorKind kind) {
    switch (kind) {
        case StoreErrorKind::OpenFailed: return "open-failed";
        case StoreErrorKind::SchemaTooNew: return "schema-too-new";
        case StoreErrorKind::Io: return "io";
        case StoreErrorKind::Busy: return "busy";
        case StoreErrorKind::LimitReached: return "limit-reached";
        case StoreErrorKind::IdSpaceExhausted: return "id-space-exhausted";
        case StoreErrorKind::Unavailable: return "unavailable";
    }
    return "unknown";
}

}  // namespace hschool::store
