#include "protocol/client_list.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "lab/strategy.h"
#include "protocol/client_spec.h"
#include "rlock/error.h"

namespace rlock::protocol {

protocol::ClientSpec parse_client_spec(const std::string& text) {
  std::size_t equals = text.find('=');
  if (equals == std::string::npos) throw UsageError(fmt::format("--client '{}': expected NAME=COMMAND", text));
  protocol::ClientSpec spec{text.substr(0, equals), text.substr(equals + 1), 1, false};
  if (std::size_t at = spec.name.find('@'); at != std::string::npos) {
    if (!set_server_from(std::string_view(spec.name).substr(at + 1), spec)) {
      throw UsageError(fmt::format("--client '{}': after @ comes where its lock lives: {}", spec.name, kServerKinds));
    }
    spec.name.erase(at);
  }
  if (!is_client_name(spec.name))
    throw UsageError(fmt::format("--client '{}': NAME must be 1 to 32 letters, digits, _ or -",
                                 protocol::blank_command_secrets(text)));
  if (spec.command.find_first_not_of(" \t") == std::string::npos) {
    throw UsageError(fmt::format("--client '{}': the command is empty", text));
  }
  return spec;
}

std::vector<protocol::ClientSpec> parse_client_list(const std::vector<std::string>& texts, const Catalogue& catalogue) {
  std::vector<protocol::ClientSpec> clients;
  for (const std::string& text : texts) {
    bool bare = text.find('=') == std::string::npos;
    protocol::ClientSpec client = bare ? shipped_client(catalogue, text).spec : parse_client_spec(text);
    bool twice = std::any_of(clients.begin(), clients.end(),
                             [&](const protocol::ClientSpec& c) { return c.name == client.name; });
    if (twice) throw UsageError(fmt::format("--client {}: the name is given twice", client.name));
    if (lab::strategy_from(client.name))
      throw UsageError(fmt::format("--client {}: the name is a strategy's", client.name));
    clients.push_back(client);
  }
  return clients;
}

std::vector<protocol::ClientSpec> parse_command_line_clients(const std::vector<std::string>& texts) {
  bool bare =
      std::any_of(texts.begin(), texts.end(), [](const std::string& t) { return t.find('=') == std::string::npos; });
  return parse_client_list(texts, bare ? shipped_catalogue() : Catalogue{});
}

}  // namespace rlock::protocol
