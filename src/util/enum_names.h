// Enums named by a table of {value, name} pairs: one lookup each way, for every such enum.
// Pure functions; thread-safe.
#pragma once

#include <array>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace rlock::util {

template <typename Enum, std::size_t N>
using NameTable = std::array<std::pair<Enum, std::string_view>, N>;

// The value's name, or "unknown" for a value the table lacks.
template <typename Enum, std::size_t N>
std::string_view name_in(const NameTable<Enum, N>& table, Enum value) {
  for (auto [v, name] : table) {
    if (v == value) return name;
  }
  return "unknown";
}

template <typename Enum, std::size_t N>
std::optional<Enum> value_in(const NameTable<Enum, N>& table, std::string_view name) {
  for (auto [v, n] : table) {
    if (n == name) return v;
  }
  return std::nullopt;
}

template <typename Enum, std::size_t N>
std::vector<Enum> values_in(const NameTable<Enum, N>& table) {
  std::vector<Enum> values;
  for (auto [v, name] : table) values.push_back(v);
  return values;
}

}  // namespace rlock::util
