// SPDX-License-Identifier: BSD-3-Clause
// Format specs of kobalt-bench ("csr:classical", "sellp:b=32,t=1"): the
// strict parser of NAME[:WORD][,KEY=VALUE...]; format_registry.hpp turns a
// parsed spec into a prepared operator.
#pragma once

#include "options.hpp"

#include <cstdint>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace kobalt::bench {

/// A parsed spec: name, and either a bare strategy word or key=value pairs.
/// Parsing is strict: an empty item (a trailing comma), an empty key or
/// value, a repeated key or a second bare word is an invalid_argument, and
/// so is a value that is not entirely a number (number(), whole()).
struct FormatSpec {
  std::string text, name, word;
  std::map<std::string, std::string> keys;

  static FormatSpec parse(const std::string& text) {
    FormatSpec s;
    s.text = text;
    const auto colon = text.find(':');
    s.name = text.substr(0, colon);
    if (s.name.empty()) throw std::invalid_argument("format spec '" + text + "': no format name");
    if (colon == std::string::npos) return s;
    std::string rest = text.substr(colon + 1);
    std::size_t pos = 0;
    while (pos <= rest.size()) {
      const auto comma = rest.find(',', pos);
      const std::string item = rest.substr(pos, comma == std::string::npos ? comma : comma - pos);
      const auto eq = item.find('=');
      if (item.empty()) s.fail("an empty item (a stray comma?)");
      if (eq == std::string::npos) {
        if (!s.word.empty()) s.fail("expected KEY=VALUE, got '" + item + "'");
        s.word = item;
      } else {
        const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
        if (key.empty() || value.empty()) s.fail("expected KEY=VALUE, got '" + item + "'");
        if (!s.keys.emplace(key, value).second) s.fail("key '" + key + "' given twice");
      }
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
    return s;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument("format spec '" + text + "': " + what);
  }
  /// A finite number, the whole value ("2.5", "1e-3"); fallback if absent.
  double number(const std::string& key, double fallback) const {
    const auto it = keys.find(key);
    if (it == keys.end()) return fallback;
    const auto v = parse_number(it->second);
    if (!v) fail(key + " needs a finite number, got '" + it->second + "'");
    return *v;
  }
  /// An integer in [min, max], the whole value in decimal digits ("64",
  /// not "64abc", "2.5" or "1e30"); fallback if absent.
  std::int64_t whole(const std::string& key, std::int64_t fallback, std::int64_t min = 0,
                     std::int64_t max = std::numeric_limits<std::int64_t>::max()) const {
    const auto it = keys.find(key);
    if (it == keys.end()) return fallback;
    const auto v = parse_whole(it->second, min, max);
    if (!v)
      fail(key + " needs an integer in [" + std::to_string(min) + ", " + std::to_string(max) +
           "], got '" + it->second + "'");
    return *v;
  }
  /// The 0/1 value of `key`, removed from the keys (a key every Kobalt
  /// format takes, like reproducible=1); false if absent.
  bool take_flag(const std::string& key) {
    const bool on = whole(key, 0, 0, 1) != 0;
    keys.erase(key);
    return on;
  }
  /// Throws if a key other than `allowed` was given (no silent ignoring).
  void only(const std::vector<std::string>& allowed) const {
    for (const auto& [k, v] : keys) {
      bool ok = false;
      for (const auto& a : allowed) ok = ok || a == k;
      if (!ok) fail("unknown key '" + k + "'");
    }
  }
};

}  // namespace kobalt::bench
