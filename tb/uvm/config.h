// SPDX-License-Identifier: Apache-2.0
//
// Config store of the OpenTMA UVM-style layer: values set for a path pattern and a key,
// looked up by a component's full name. Patterns are full names with '*' wildcards
// ("*.axi_agent*", "uvm_test_top.env"). Among matching entries, the one with the most
// literal characters wins; a tie goes to the later Set.
#ifndef TMA_TB_UVM_CONFIG_H_
#define TMA_TB_UVM_CONFIG_H_

#include <any>
#include <string>
#include <utility>
#include <vector>

#include "uvm/component.h"
#include "uvm/report.h"

namespace tma::tb::uvm {

// True when `text` matches `pattern` ('*' = any run of characters, '?' = one character).
bool GlobMatch(const std::string& pattern, const std::string& text);

class ConfigDb {
 public:
  static ConfigDb& Get();

  template <class T>
  void Set(const std::string& path_pattern, const std::string& key, T value) {
    entries_.push_back(Entry{path_pattern, key, std::any(std::move(value)), seq_++});
  }
  // Looks up `key` for the component path `path`. False when no entry matches; an entry of
  // another type is reported as an error and ignored.
  template <class T>
  bool Lookup(const std::string& path, const std::string& key, T* out) const {
    const Entry* e = Find(path, key);
    if (e == nullptr) {
      return false;
    }
    const T* v = std::any_cast<T>(&e->value);
    if (v == nullptr) {
      TMA_UVM_ERROR("CFGTYPE", "config '" << key << "' for " << path << " has another type");
      return false;
    }
    *out = *v;
    return true;
  }
  template <class T>
  bool Lookup(const Component* c, const std::string& key, T* out) const {
    return Lookup(c->full_name(), key, out);
  }
  // Lookup with a default.
  template <class T>
  T GetOr(const Component* c, const std::string& key, T dflt) const {
    T v;
    return Lookup(c, key, &v) ? v : dflt;
  }
  void Clear() { entries_.clear(); }

 private:
  struct Entry {
    std::string pattern;
    std::string key;
    std::any value;
    int seq;
  };
  const Entry* Find(const std::string& path, const std::string& key) const;
  std::vector<Entry> entries_;
  int seq_ = 0;
};

}  // namespace tma::tb::uvm

#endif  // TMA_TB_UVM_CONFIG_H_
