// SPDX-License-Identifier: Apache-2.0
//
// Report server of the OpenTMA UVM-style layer: severities, ids, verbosity levels,
// per-severity and per-id counts, and the exit code of a simulation (non-zero on any error).
#ifndef TMA_TB_UVM_REPORT_H_
#define TMA_TB_UVM_REPORT_H_

#include <cstdint>
#include <iosfwd>
#include <map>
#include <sstream>
#include <string>

namespace tma::tb::uvm {

enum class Severity : uint8_t { kInfo = 0, kWarning, kError, kFatal };
const char* ToString(Severity s);

// Verbosity of an info message; a message prints when its level <= the server's verbosity.
enum Verbosity : int {
  kNone = 0,
  kLow = 100,
  kMedium = 200,
  kHigh = 300,
  kFull = 400,
  kDebug = 500,
};

// Thrown by a fatal report when the simulation kernel is not running (elaboration, tests).
struct FatalError {
  std::string message;
};

// The process-wide report server. Every report goes through Report(); warnings, errors and
// fatals always print, infos print when their verbosity is within the configured level.
class ReportServer {
 public:
  static ReportServer& Get();

  void Report(Severity sev, const std::string& id, const std::string& msg, int verbosity = kMedium,
              const std::string& where = "");
  bool Enabled(int verbosity) const { return verbosity <= verbosity_; }

  int Count(Severity s) const { return counts_[static_cast<int>(s)]; }
  int CountId(const std::string& id) const;
  int ErrorCount() const { return Count(Severity::kError) + Count(Severity::kFatal); }
  // 0 when no error or fatal was reported, else 1.
  int ExitCode() const { return ErrorCount() > 0 ? 1 : 0; }

  void SetVerbosity(int v) { verbosity_ = v; }
  int verbosity() const { return verbosity_; }
  // After this many errors the simulation is stopped (0 = never).
  void SetMaxQuitCount(int n) { max_quit_count_ = n; }
  bool QuitRequested() const { return quit_requested_; }
  void SetStream(std::ostream* os) { os_ = os; }
  std::ostream& stream() const;
  // Forget every count (between independent runs in one process).
  void Reset();
  // "--- report summary ---" with the per-severity and per-id counts.
  void Summarize() const;

 private:
  ReportServer() = default;
  int verbosity_ = kMedium;
  int counts_[4] = {0, 0, 0, 0};
  std::map<std::string, int> id_counts_;
  int max_quit_count_ = 0;
  bool quit_requested_ = false;
  std::ostream* os_ = nullptr;
};

}  // namespace tma::tb::uvm

// Reporting macros: the message is a stream expression, e.g.
//   TMA_UVM_INFO("SCB", "checked " << n << " bytes", uvm::kHigh);
#define TMA_UVM_REPORT_(sev, id, verb, where, expr)                          \
  do {                                                                       \
    auto& tma_rs_ = ::tma::tb::uvm::ReportServer::Get();                     \
    if ((sev) != ::tma::tb::uvm::Severity::kInfo || tma_rs_.Enabled(verb)) { \
      std::ostringstream tma_os_;                                            \
      tma_os_ << expr;                                                       \
      tma_rs_.Report((sev), (id), tma_os_.str(), (verb), (where));           \
    }                                                                        \
  } while (0)
#define TMA_UVM_INFO(id, expr, verb) \
  TMA_UVM_REPORT_(::tma::tb::uvm::Severity::kInfo, id, verb, "", expr)
#define TMA_UVM_WARNING(id, expr) \
  TMA_UVM_REPORT_(::tma::tb::uvm::Severity::kWarning, id, 0, "", expr)
#define TMA_UVM_ERROR(id, expr) TMA_UVM_REPORT_(::tma::tb::uvm::Severity::kError, id, 0, "", expr)
#define TMA_UVM_FATAL(id, expr) TMA_UVM_REPORT_(::tma::tb::uvm::Severity::kFatal, id, 0, "", expr)

#endif  // TMA_TB_UVM_REPORT_H_
