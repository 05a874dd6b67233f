// `infergate`: one command line in front of the engine, the harness and the gates, git-style.
#include <cstring>
#include <exception>
#include <iostream>
#include <memory>
#include <string>

#include "cli/baseline_command.h"
#include "cli/bench_comm_command.h"
#include "cli/bisect_command.h"
#include "cli/calibrate_command.h"
#include "cli/compare_command.h"
#include "cli/export_command.h"
#include "cli/generate_command.h"
#include "cli/logits_command.h"
#include "cli/report_command.h"
#include "cli/run_command.h"
#include "cli/serve_command.h"
#include "cli/validate_command.h"
#ifdef INFERGATE_HAVE_PARALLEL
#include "engine/parallel/parallel_job.h"
#endif
#ifdef INFERGATE_HAVE_CUDA_BACKEND
#include "engine/cuda/cuda_executor.h"
#endif

namespace {

void print_usage() {
  std::cout << "usage: infergate <command> [options]\n\n"
               "commands:\n"
               "  run        run a workload file against a target and write a results file\n"
               "  validate   check workload files without running them\n"
               "  serve      serve a model over an OpenAI-compatible HTTP API\n"
               "  generate   generate text from a model and report throughput\n"
               "  export     write a model as GGUF or safetensors\n"
               "  logits     print a model's logits for a token sequence as JSON\n"
               "  compare    judge a candidate results file against a baseline (the gate)\n"
               "  baseline   store, show and list the baselines under results/\n"
               "  calibrate  measure run-to-run noise and the rules' false-alarm rate (A/A)\n"
               "  report     write the HTML report of a run, or every report of a comparison\n"
               "  bisect     find the commit that regressed a metric (drives git bisect run)\n"
               "  bench-comm measure collectives over MPI or NCCL, nccl-tests style (under "
               "mpirun)\n\n"
               "`infergate <command> --help` lists a command's options.\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    print_usage();
    return argc < 2 ? 2 : 0;
  }
  const std::string command = argv[1];
#ifdef INFERGATE_HAVE_CUDA_BACKEND
  infergate::register_cuda_executor();  // engines with backend "cuda" (docs/cuda.md)
#endif
#ifdef INFERGATE_HAVE_PARALLEL
  // Under mpirun, rank 0 runs the command and the other ranks serve its engines' steps
  // (docs/distributed.md); bench-comm runs the same command on every rank instead.
  std::unique_ptr<infergate::ParallelJob> job;
  if (command != "bench-comm" && infergate::launched_under_mpi()) {
    job = std::make_unique<infergate::ParallelJob>(&argc, &argv);
    if (job->is_worker()) return job->run_worker();
  }
#endif
  try {
    if (command == "run") return infergate::run_command(argc - 1, argv + 1);
    if (command == "serve") return infergate::serve_command(argc - 1, argv + 1);
    if (command == "generate") return infergate::generate_command(argc - 1, argv + 1);
    if (command == "export") return infergate::export_command(argc - 1, argv + 1);
    if (command == "logits") return infergate::logits_command(argc - 1, argv + 1);
    if (command == "validate") return infergate::validate_command(argc - 1, argv + 1);
    if (command == "compare") return infergate::compare_command(argc - 1, argv + 1);
    if (command == "baseline") return infergate::baseline_command(argc - 1, argv + 1);
    if (command == "calibrate") return infergate::calibrate_command(argc - 1, argv + 1);
    if (command == "report") return infergate::report_command(argc - 1, argv + 1);
    if (command == "bisect") return infergate::bisect_command(argc - 1, argv + 1);
    if (command == "bisect-step") return infergate::bisect_step_command(argc - 1, argv + 1);
    if (command == "bench-comm") return infergate::bench_comm_command(argc - 1, argv + 1);
    std::cerr << "infergate: unknown command '" << command
              << "' (allowed: run, validate, generate, export, logits, compare, baseline, "
                 "calibrate, report, bisect, bench-comm)\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "infergate " << command << ": error: " << e.what() << "\n";
    return 2;
  }
}
