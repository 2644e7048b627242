// What a usage error says besides itself: the unknown subcommand or option with the nearest known
// name, CLI11's own phrases in the project's words, and whose help to read (the subcommand's own
// when one was named). Used by main.cpp and `rlock help`.
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

// "unknown option '--trial': did you mean '--trials'? (see rlock chaos --help)", the options known
// being those of the subcommand the parse selected and of the commands above it; without a near
// name, no question.
std::string unknown_option(const CLI::App& app, const std::string& typed);

// A parse error of CLI11 (but for a missing subcommand), in one line of the project's words:
// an unknown option or an unexpected word, a value missing, an option given too often, a value not
// read or not above 0; any other error as CLI11 says it. Ends with the help to read.
std::string plain_parse_error(const CLI::App& app, const CLI::ParseError& e);

// "rlock chaos --help" when the parse selected chaos, else "rlock --help".
std::string help_command(const CLI::App& app);

}  // namespace rlock::cli
