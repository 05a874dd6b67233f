#include "cli/bench_comm_command.h"

#include <boost/program_options.hpp>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/programs/comm/byte_size.h"
#include "bench/programs/comm/comm_bench.h"
#include "bench/programs/comm/comm_bench_json.h"
#include "bench/programs/comm/comm_bench_table.h"
#include "cli/command_line.h"
#include "common/io/json_file.h"
#include "engine/comm/comm_error.h"
#include "engine/comm/comm_options.h"

#ifdef INFERGATE_HAVE_MPI
#include "engine/comm/mpi_communicator.h"
#include "engine/comm/mpi_session.h"
#endif
#ifdef INFERGATE_HAVE_NCCL
#include "engine/comm/nccl_communicator.h"
#endif

namespace infergate {

namespace po = boost::program_options;

namespace {

struct BenchCommArgs {
  CommBenchOptions bench;
  std::string backend = "mpi";
  std::string json_path;
  double timeout_s = 30;
  std::string command;
};

std::vector<CommOp> parse_ops(const std::string& list) {
  std::vector<CommOp> ops;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(',', start);
    if (end == std::string::npos) end = list.size();
    try {
      ops.push_back(parse_comm_op(list.substr(start, end - start)));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("--ops: ") + e.what());
    }
    start = end + 1;
  }
  return ops;
}

// Parses and validates the options; nullopt for --help. Throws std::invalid_argument.
std::optional<BenchCommArgs> parse_args(int argc, char** argv) {
  BenchCommArgs a;
  std::string min_bytes = "8", max_bytes = "64M", ops = "all", dtype = "f32";
  po::options_description desc("mpirun -np N infergate bench-comm [options]");
  desc.add_options()("help,h", "show this help")(
      "backend", po::value(&a.backend)->default_value(a.backend),
      "mpi (host buffers) | nccl (GPU buffers, one GPU per rank)")(
      "min-bytes,b", po::value(&min_bytes)->default_value(min_bytes),
      "smallest message size (8, 4K, 64M, 1G)")(
      "max-bytes,e", po::value(&max_bytes)->default_value(max_bytes), "largest message size")(
      "step-factor,f", po::value(&a.bench.step_factor)->default_value(2),
      "multiply the size by this between steps")(
      "iters,n", po::value(&a.bench.iters)->default_value(20), "timed calls per size")(
      "warmup,w", po::value(&a.bench.warmup)->default_value(5), "untimed calls per size first")(
      "ops", po::value(&ops)->default_value(ops),
      "comma-separated: all_reduce, all_gather, reduce_scatter, all_to_all, send_recv, "
      "broadcast; or all")("dtype,d", po::value(&dtype)->default_value(dtype),
                           "element type: f32|float, f64|double, f16|half, bf16|bfloat16, "
                           "i32|int32, i64|int64, u8|uint8")(
      "timeout-s", po::value(&a.timeout_s)->default_value(a.timeout_s),
      "deadline of every operation; past it the job ends with exit 124 (<= 0: none)")(
      "json", po::value(&a.json_path), "write the results (schema infergate.comm/v1) here");
  const auto parsed = parse_command_line(argc, argv, desc);
  if (!parsed) return std::nullopt;
  a.bench.min_bytes = parse_byte_size(min_bytes, "--min-bytes");
  a.bench.max_bytes = parse_byte_size(max_bytes, "--max-bytes");
  if (ops != "all") a.bench.ops = parse_ops(ops);
  try {
    a.bench.dtype = parse_comm_dtype(dtype);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--dtype: ") + e.what());
  }
  if (a.backend != "mpi" && a.backend != "nccl") {
    throw std::invalid_argument("--backend: unknown backend '" + a.backend +
                                "' (allowed: mpi, nccl)");
  }
  a.bench.validate();
  if (!a.json_path.empty()) check_writable(a.json_path);  // before measuring, not after
  a.command = "infergate bench-comm";
  for (int i = 1; i < argc; ++i) a.command += std::string(" ") + argv[i];
  return a;
}

#ifdef INFERGATE_HAVE_MPI
std::unique_ptr<Communicator> make_measured(const BenchCommArgs& a, Communicator& control) {
  const CommOptions options{a.timeout_s};
  if (a.backend == "mpi") return std::make_unique<MpiCommunicator>(options);
#ifdef INFERGATE_HAVE_NCCL
  return std::make_unique<NcclCommunicator>(control, options);
#else
  (void)control;
  throw std::invalid_argument(
      "--backend nccl: this infergate was built without NCCL (the CUDA toolkit and NCCL were "
      "not found when cmake ran)");
#endif
}

int run(const BenchCommArgs& a) {
  MpiCommunicator control(CommOptions{a.timeout_s});
  const bool lead = control.rank() == 0;
  std::unique_ptr<Communicator> measured = make_measured(a, control);
  if (lead) print_comm_bench_header(std::cout, a.backend, measured->size(), a.bench);
  const CommBenchResult result =
      run_comm_bench(*measured, control, a.bench, [&](const auto& series, const auto& row) {
        if (lead) print_comm_bench_row(std::cout, series, row, a.bench.dtype);
      });
  if (lead) {
    print_comm_bench_footer(std::cout, result);
    if (!a.json_path.empty()) {
      write_json_atomically(comm_bench_json(result, a.command), a.json_path);
      std::cout << "results: " << a.json_path << "\n";
    }
  }
  control.barrier();  // nobody finalizes while rank 0 may still fail writing
  return result.total_wrong() == 0 ? 0 : 1;
}
#endif

}  // namespace

int bench_comm_command(int argc, char** argv) {
  const std::optional<BenchCommArgs> args = parse_args(argc, argv);
  if (!args) return 0;
#ifdef INFERGATE_HAVE_MPI
  MpiSession mpi(nullptr, nullptr);
  try {
    return run(*args);
  } catch (const std::exception& e) {
    // Other ranks may be waiting in a collective this rank will never join: end them all.
    MpiSession::abort_job(std::string("bench-comm: error: ") + e.what(), kCommErrorExitCode);
  }
#else
  throw std::runtime_error(
      "bench-comm needs MPI: install libopenmpi-dev and openmpi-bin (ci/install-deps.sh) and "
      "re-run cmake");
#endif
}

}  // namespace infergate
