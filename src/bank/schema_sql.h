// The accounts table's schema: init.sql (which scripts/services.sh and compose.yaml apply), built into
// the binary so that AccountStore::reset creates the table in a user's own database where it is
// missing. Re-runnable; a constant.
#pragma once

#include <string_view>

namespace rlock::bank {

extern const std::string_view kSchemaSql;

}  // namespace rlock::bank
