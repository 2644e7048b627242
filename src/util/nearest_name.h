// The known name nearest to a mistyped one, for "unknown X 'chaso' (did you mean 'chaos'?)".
// Stateless: thread-safe.
#pragma once

#include <string>
#include <vector>

namespace rlock::util {

// The name of `known` at the smallest edit distance from `typed` (insertions, deletions,
// substitutions), when that distance is at most a third of the longer name plus one; otherwise
// empty, so that a word unlike any name suggests nothing.
std::string nearest_name(const std::string& typed, const std::vector<std::string>& known);

}  // namespace rlock::util
