// The tests' scratch directory: the library's TempDir (temp_dir.h), under the tests' namespace.
#pragma once

#include "temp_dir.h"

namespace rlock::test {

using rlock::TempDir;

}  // namespace rlock::test
