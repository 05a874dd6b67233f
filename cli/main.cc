// `infergate`: one command line in front of the engine, the harness and the gates, git-style.
#include <cstring>
#include <exception>
#include <iomanip>
#include <iostream>
#include <memory>
#include <string>

#include "cli/ab_command.h"
#include "cli/baseline_command.h"
#include "cli/bench_comm_command.h"
#include "cli/bisect_command.h"
#include "cli/calibrate_command.h"
#include "cli/compare_command.h"
#include "cli/diagnose_command.h"
#include "cli/eval_command.h"
#include "cli/export_command.h"
#include "cli/generate_command.h"
#include "cli/history_command.h"
#include "cli/import_command.h"
#include "cli/logits_command.h"
#include "cli/plan_command.h"
#include "cli/quantize_command.h"
#include "cli/report_command.h"
#include "cli/router_command.h"
#include "cli/run_command.h"
#include "cli/serve_command.h"
#include "cli/sim_command.h"
#include "cli/tokenize_command.h"
#include "cli/validate_command.h"
#ifdef INFERGATE_HAVE_PARALLEL
#include "engine/parallel/parallel_job.h"
#endif
#ifdef INFERGATE_HAVE_CUDA_BACKEND
#include "engine/cuda/cuda_executor.h"
#endif
#ifdef INFERGATE_HAVE_PARALLEL_CUDA
#include "engine/parallel/cuda/cuda_rank_model.h"
#endif

namespace {

struct Command {
  const char* name;
  int (*run)(int argc, char** argv);
  const char* summary;  // empty: internal, left out of the usage and the allowed list
};

// The one list the dispatcher, the usage and the unknown-command message all read.
const Command kCommands[] = {
    {"run", infergate::run_command,
     "run a workload file against a target and write a results file"},
    {"validate", infergate::validate_command, "check workload files without running them"},
    {"serve", infergate::serve_command, "serve a model over an OpenAI-compatible HTTP API"},
    {"router", infergate::router_command,
     "route requests over replicas (data parallelism) with health checks and failover"},
    {"generate", infergate::generate_command, "generate text from a model and report throughput"},
    {"export", infergate::export_command, "write a model as GGUF or safetensors"},
    {"quantize", infergate::quantize_command,
     "write a model's matrices in a block format (q8_0, q4_k, q6_k, iq4_xs, ...) as GGUF"},
    {"logits", infergate::logits_command, "print a model's logits for a token sequence as JSON"},
    {"tokenize", infergate::tokenize_command,
     "print the token ids a model's own tokenizer makes of a text (as llama-tokenize)"},
    {"eval", infergate::eval_command,
     "a model's quality against a baseline: perplexity, KL divergence, top-1 agreement"},
    {"compare", infergate::compare_command,
     "judge a candidate results file against a baseline (the gate)"},
    {"ab", infergate::ab_command,
     "paired, interleaved A/B of two builds on this machine, judged while it runs"},
    {"diagnose", infergate::diagnose_command,
     "name a run's dominant symptom and its remedies (--set lines); --verify measures them"},
    {"baseline", infergate::baseline_command, "store, show and list the baselines under results/"},
    {"history", infergate::history_command,
     "store every results file in a database (SQLite), list and export it"},
    {"import", infergate::import_command,
     "read vllm bench serve, AIPerf, GuideLLM or inference-perf results as infergate results"},
    {"plan", infergate::plan_command,
     "rank the layouts of a model on N simulated devices for a workload (goodput, cost)"},
    {"sim", infergate::sim_command,
     "the simulator: calibrate it on this machine, list its hardware and model shapes"},
    {"calibrate", infergate::calibrate_command,
     "measure run-to-run noise and the rules' false-alarm rate (A/A)"},
    {"report", infergate::report_command,
     "write the HTML report of a run, or every report of a comparison"},
    {"bisect", infergate::bisect_command,
     "find the commit that regressed a metric (drives git bisect run)"},
    {"bisect-step", infergate::bisect_step_command, ""},
    {"bench-comm", infergate::bench_comm_command,
     "measure collectives over MPI or NCCL, nccl-tests style (under mpirun)"},
};

void print_usage() {
  std::cout << "usage: infergate <command> [options]\n\ncommands:\n";
  for (const Command& c : kCommands) {
    if (*c.summary) std::cout << "  " << std::left << std::setw(11) << c.name << c.summary << "\n";
  }
  std::cout << "\n`infergate <command> --help` lists a command's options.\n";
}

std::string public_command_names() {
  std::string names;
  for (const Command& c : kCommands) {
    if (*c.summary) names += (names.empty() ? "" : ", ") + std::string(c.name);
  }
  return names;
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
#ifdef INFERGATE_HAVE_PARALLEL_CUDA
  infergate::register_cuda_rank_model();  // backend "cuda" with more than one rank
#endif
#ifdef INFERGATE_HAVE_PARALLEL
  // Under mpirun, rank 0 runs the command and the other ranks serve its engines' steps
  // (docs/distributed.md); bench-comm runs the same command on every rank instead, and run
  // decides once it has read the workload (an engine's ranks, or load ranks).
  std::unique_ptr<infergate::ParallelJob> job;
  if (command != "bench-comm" && command != "run" && infergate::launched_under_mpi()) {
    job = std::make_unique<infergate::ParallelJob>(&argc, &argv);
    if (job->is_worker()) return job->run_worker();
  }
#endif
  try {
    for (const Command& c : kCommands) {
      if (command == c.name) return c.run(argc - 1, argv + 1);
    }
    std::cerr << "infergate: unknown command '" << command
              << "' (allowed: " << public_command_names() << ")\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "infergate " << command << ": error: " << e.what() << "\n";
    return 2;
  }
}
