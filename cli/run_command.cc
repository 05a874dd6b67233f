#include "cli/run_command.h"

#include <unistd.h>

#include <atomic>
#include <boost/program_options.hpp>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "bench/driver/run_workload.h"
#include "bench/results/summary_table.h"
#include "bench/trace/nvtx_trace_recorder.h"
#include "bench/workload/workload_parser.h"
#include "cli/command_line.h"
#include "common/io/json_file.h"
#include "common/util/time_stamp.h"
#include "engine/comm/communicator.h"
#ifdef INFERGATE_HAVE_PARALLEL
#include "engine/comm/mpi_communicator.h"
#include "engine/comm/mpi_session.h"
#include "engine/parallel/parallel_job.h"
#endif
#include "common/util/safe_file_name.h"
#include "history/history_store.h"

namespace infergate {

namespace po = boost::program_options;

namespace {

std::atomic<bool> g_stop{false};

void on_sigint(int) { g_stop.store(true); }

// The workload's name is input: as a safe file name it stays inside out/.
std::string default_out_path(const Workload& w) {
  return "out/" + (w.name.empty() ? std::string("run") : safe_file_name(w.name)) + "-" +
         local_compact_now() + ".json";
}

// A point where no request succeeded measured nothing: its zeros must not pass for numbers.
bool some_point_failed_entirely(const nlohmann::json& results) {
  for (const LabelledPointErrors& p : errors_by_point(results)) {
    if (p.errors.completed == 0) return true;
  }
  return false;
}

// A capacity search whose range held at its top answered nothing: its range is the input to fix.
bool some_search_not_bracketed(const nlohmann::json& results) {
  for (const nlohmann::json& point : results.value("points", nlohmann::json::array())) {
    for (const nlohmann::json& rep : point.value("repetitions", nlohmann::json::array())) {
      const nlohmann::json search = rep.value("search", nlohmann::json());
      if (search.is_object() && search.value("status", "") == "not_bracketed") return true;
    }
  }
  return false;
}

// Under mpirun: the ranks of a multi-rank engine (rank 0 runs the workload, the others serve
// its steps), or load ranks that split the load (an openai or echo target: docs/distributed.md,
// "Load from many hosts"). Every rank reads the same workload, so all decide alike.
class MpiRoles {
 public:
  explicit MpiRoles(const Workload& w) {
#ifdef INFERGATE_HAVE_PARALLEL
    if (!launched_under_mpi()) return;
    if (w.target.type == "openai" || w.target.type == "echo") {
      session_ = std::make_unique<MpiSession>(nullptr, nullptr);
      // A rank waits at the end of each repetition for the slowest one's requests to drain.
      load_ranks_ = std::make_unique<MpiCommunicator>(CommOptions{2 * w.target.timeout_s + 600});
    } else {
      job_ = std::make_unique<ParallelJob>(nullptr, nullptr);
    }
#else
    (void)w;
#endif
  }

  // An engine's rank other than 0: serves rank 0's steps, then returns the exit status.
  std::optional<int> serve_engine_steps() {
#ifdef INFERGATE_HAVE_PARALLEL
    if (job_ && job_->is_worker()) return job_->run_worker();
#endif
    return std::nullopt;
  }
  Communicator* load_ranks() { return load_ranks_.get(); }
  // Rank 0 of load ranks (or no MPI): prints and writes the results.
  bool reports() const { return !load_ranks_ || load_ranks_->rank() == 0; }

 private:
#ifdef INFERGATE_HAVE_PARALLEL
  std::unique_ptr<ParallelJob> job_;
  std::unique_ptr<MpiSession> session_;
#endif
  std::unique_ptr<Communicator> load_ranks_;
};

}  // namespace

int run_command(int argc, char** argv) {
  std::string workload_path, out, trace, history;
  std::vector<std::string> sets;
  int repeat = 0;
  double max_error_share = 0.01;
  po::options_description desc(
      "infergate run WORKLOAD [options]\n"
      "Exit: 0 done, 2 usage or input error (also a capacity search whose range held at its\n"
      "top: the results are written), 5 a sweep point where no request succeeded (the\n"
      "results are written; the summary says why they failed), 130 stopped early");
  desc.add_options()("help,h", "show this help")("workload", po::value(&workload_path)->required(),
                                                 "workload file (workloads/*.json)")(
      "out", po::value(&out), "results file (default out/NAME-TIMESTAMP.json)")(
      "set", po::value(&sets)->composing(), "override a field: --set load.rate=4 (repeatable)")(
      "repeat", po::value(&repeat)->default_value(0), "repetitions (overrides the file's)")(
      "trace", po::value(&trace), "write a Perfetto/Chrome trace of NVTX ranges and requests")(
      "requests", "keep per-request records in the results file")("quiet,q", "no progress output")(
      "cupti", "trace GPU kernels with CUPTI (= --set telemetry.cupti=true)")(
      "max-error-share", po::value(&max_error_share)->default_value(0.01, "0.01"),
      "warn (and flag the results) when more than this share of a repetition's requests fail")(
      "history", po::value(&history)->implicit_value("results/history.sqlite"),
      "also store the results in this history database (docs/history.md; default "
      "results/history.sqlite)");
  po::positional_options_description pos;
  pos.add("workload", 1);
  const auto parsed = parse_command_line(argc, argv, desc, pos);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  if (!trace.empty()) {  // before anything can make the first NVTX call
    std::string why_not;
    if (!NvtxTraceRecorder::install(&why_not)) {
      std::cerr << "warning: the trace will hold requests but no NVTX ranges: " << why_not << "\n";
    }
  }
  if (repeat < 0) throw std::invalid_argument("--repeat must be >= 1");
  if (!(max_error_share >= 0 && max_error_share <= 1)) {
    throw std::invalid_argument("--max-error-share must be a fraction in 0 .. 1, got " +
                                std::to_string(max_error_share));
  }
  if (repeat > 0) sets.push_back("repetitions=" + std::to_string(repeat));
  if (vm.count("requests")) sets.push_back("record_requests=true");
  if (vm.count("cupti")) sets.push_back("telemetry.cupti=true");
  const Workload workload = load_workload_file(workload_path, sets);
  MpiRoles mpi(workload);
  if (const std::optional<int> status = mpi.serve_engine_steps()) return *status;

  RunOptions options;
  options.out_path = out.empty() ? default_out_path(workload) : out;
  options.trace_path = trace;
  options.load_ranks = mpi.load_ranks();
  if (mpi.reports()) {
    check_writable(options.out_path);  // now, not after the whole run
    if (!trace.empty()) check_writable(trace);
  }
  options.quiet = vm.count("quiet") > 0;
  options.progress_is_tty = isatty(STDERR_FILENO);
  options.stop = &g_stop;
  options.max_error_share = max_error_share;
  options.command_line = "infergate run";
  for (int i = 1; i < argc; ++i) options.command_line += std::string(" ") + argv[i];
  // Opened (created, migrated) before the run, so a bad database fails now, not after it.
  std::optional<HistoryStore> store;
  if (!history.empty() && mpi.reports()) store.emplace(history);
  std::signal(SIGINT, on_sigint);
  std::signal(SIGTERM, on_sigint);
  const RunOutcome outcome = run_workload(workload, options);
  if (!mpi.reports()) return outcome.incomplete ? 130 : 0;
  print_summary_table(std::cout, outcome.results);
  std::cout << "results: " << options.out_path << (outcome.incomplete ? " (incomplete)" : "")
            << "\n";
  if (!trace.empty()) std::cout << "trace: " << trace << "\n";
  if (outcome.incomplete) {
    if (store) std::cout << "history: not stored (the run was stopped early)\n";
    return 130;
  }
  if (store)
    std::cout << "history: run " << store->add(options.out_path).id << " in " << history << "\n";
  if (some_point_failed_entirely(outcome.results)) return kExitNoRequestSucceeded;
  if (some_search_not_bracketed(outcome.results)) {
    std::cerr << "infergate run: the capacity search's range does not bracket the capacity "
                 "(the results say where it held): raise load.search.to\n";
    return kExitSearchNotBracketed;
  }
  return 0;
}

}  // namespace infergate
