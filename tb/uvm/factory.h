// SPDX-License-Identifier: Apache-2.0
//
// Factory of the OpenTMA UVM-style layer: components (tests) and objects (sequences)
// created by type name, with type overrides. Register with the macros at namespace scope:
//   TMA_UVM_COMPONENT_REGISTER(MyTest);   TMA_UVM_OBJECT_REGISTER(MySeq);
#ifndef TMA_TB_UVM_FACTORY_H_
#define TMA_TB_UVM_FACTORY_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "uvm/component.h"

namespace tma::tb::uvm {

// Base of factory-made non-component objects (sequences, items).
class Object {
 public:
  virtual ~Object() = default;
  virtual std::string type_name() const { return "Object"; }
};

class Factory {
 public:
  using ComponentMaker = std::function<std::unique_ptr<Component>(const std::string&, Component*)>;
  using ObjectMaker = std::function<std::unique_ptr<Object>()>;

  static Factory& Get();
  void RegisterComponent(const std::string& type, ComponentMaker m);
  void RegisterObject(const std::string& type, ObjectMaker m);
  // Future creations of `original` make `replacement` instead.
  void SetTypeOverride(const std::string& original, const std::string& replacement);
  void ClearOverrides() { overrides_.clear(); }

  // nullptr (and an error report) for an unknown type.
  std::unique_ptr<Component> CreateComponent(const std::string& type, const std::string& name,
                                             Component* parent);
  std::unique_ptr<Object> CreateObject(const std::string& type);
  // Object creation with a downcast; nullptr when unknown or of another class.
  template <class T>
  std::unique_ptr<T> Create(const std::string& type) {
    std::unique_ptr<Object> o = CreateObject(type);
    T* t = dynamic_cast<T*>(o.get());
    if (t == nullptr) {
      return nullptr;
    }
    o.release();
    return std::unique_ptr<T>(t);
  }
  bool HasComponent(const std::string& type) const { return components_.count(type) != 0; }
  bool HasObject(const std::string& type) const { return objects_.count(type) != 0; }
  std::vector<std::string> ComponentNames() const;
  std::vector<std::string> ObjectNames() const;

 private:
  std::string Resolve(const std::string& type) const;
  std::map<std::string, ComponentMaker> components_;
  std::map<std::string, ObjectMaker> objects_;
  std::map<std::string, std::string> overrides_;
};

template <class T>
struct ComponentRegistrar {
  explicit ComponentRegistrar(const char* type) {
    Factory::Get().RegisterComponent(type, [](const std::string& n, Component* p) {
      return std::unique_ptr<Component>(new T(n, p));
    });
  }
};
template <class T>
struct ObjectRegistrar {
  explicit ObjectRegistrar(const char* type) {
    Factory::Get().RegisterObject(type, [] { return std::unique_ptr<Object>(new T()); });
  }
};

}  // namespace tma::tb::uvm

#define TMA_UVM_CAT2_(a, b) a##b
#define TMA_UVM_CAT_(a, b) TMA_UVM_CAT2_(a, b)
#define TMA_UVM_COMPONENT_REGISTER(T) \
  static const ::tma::tb::uvm::ComponentRegistrar<T> TMA_UVM_CAT_(tma_uvm_reg_, __LINE__)(#T)
#define TMA_UVM_OBJECT_REGISTER(T) \
  static const ::tma::tb::uvm::ObjectRegistrar<T> TMA_UVM_CAT_(tma_uvm_reg_, __LINE__)(#T)

#endif  // TMA_TB_UVM_FACTORY_H_
