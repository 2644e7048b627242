#include "util/nearest_name.h"

#include <algorithm>
#include <numeric>

namespace rlock::util {
namespace {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string nearest_name(const std::string& typed, const std::vector<std::string>& known) {
  std::string best;
  std::size_t best_distance = 0;
  for (const std::string& name : known) {
    std::size_t distance = edit_distance(typed, name);
    if (best.empty() || distance < best_distance) best = name, best_distance = distance;
  }
  std::size_t limit = std::max(typed.size(), best.size()) / 3 + 1;
  return best_distance <= limit ? best : "";
}

}  // namespace rlock::util
