// What a usage error says besides itself: the unknown subcommand with the nearest known name, and
// whose help to read (the subcommand's own when one was named). Used by main.cpp and `rlock help`.
// Stateless: thread-safe as far as the CLI::App given is not being parsed meanwhile.
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace rlock::cli {

// "unknown subcommand 'chaso': did you mean 'chaos'? (rlock help lists them)"; without a near name,
// no question.
std::string unknown_subcommand(CLI::App& app, const std::string& typed);

// After a failed parse that selected no subcommand: the first word left over that is not an
// option, which was meant as a subcommand; none when nothing was left over.
std::optional<std::string> stray_subcommand(const CLI::App& app);

// "rlock chaos --help" when the parse selected chaos, else "rlock --help".
std::string help_command(const CLI::App& app);

}  // namespace rlock::cli
