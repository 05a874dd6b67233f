#include "bench/driver/run_workload.h"

#include <malloc.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <thread>

#include "bench/dataset/dataset.h"
#include "bench/dataset/dataset_limits.h"
#include "bench/dataset/dataset_tokenizer.h"
#include "bench/driver/capacity_search.h"
#include "bench/driver/energy_figures.h"
#include "bench/driver/load_driver.h"
#include "bench/driver/load_ranks.h"
#include "bench/driver/progress_printer.h"
#include "bench/driver/server_observation.h"
#include "bench/driver/simulated_repetition.h"
#include "bench/load/schedule_length.h"
#include "bench/metrics/harness_lag.h"
#include "bench/metrics/probe_figures.h"
#include "bench/metrics/ramp_summary.h"
#include "bench/metrics/session_summary.h"
#include "bench/metrics/summarize.h"
#include "bench/quality/workload_quality.h"
#include "bench/results/manifest.h"
#include "bench/results/repetition_result.h"
#include "bench/targets/echo_target.h"
#include "bench/targets/engine_target.h"
#include "bench/targets/openai_target.h"
#include "bench/targets/replica_workload_file.h"
#include "bench/targets/router_target.h"
#include "bench/telemetry/cupti_results.h"
#include "bench/telemetry/cupti_tracer.h"
#include "bench/telemetry/resource_sampler.h"
#include "bench/trace/nvtx_trace_recorder.h"
#include "bench/workload/request_limits.h"
#include "common/io/json_file.h"
#include "common/results/frontier.h"
#include "common/results/results_file.h"
#include "common/util/time_stamp.h"
#include "sim/cluster/simulated_deployment.h"

namespace infergate {

namespace {

// Builds a fresh target for one repetition; model weights are loaded once and shared, and an
// HTTP server is asked what the workload leaves out (model, vocabulary size) once.
class TargetFactory {
 public:
  explicit TargetFactory(const Workload& w)
      : spec_(w.target), faults_(w.faults), sampling_(w.sampling) {
    if (w.structured_output) {
      structured_ = StructuredRequests::read(w.structured_output->path, spec_.api);
    }
    // A router target's replicas are engines of this model: the harness reads it too, for the
    // vocabulary, the request limits and a text dataset's tokenizer.
    if (spec_.type == "engine" || spec_.type == "router") {
      weights_ = load_model(spec_.model);
      weights_.apply_weight_dtype(weight_dtype_name(spec_.engine.weight_dtype));
      model_tokenizer_ = model_dataset_tokenizer(spec_.model, weights_.vocab, vocab_size());
    }
    if (spec_.type == "openai") {
      if (spec_.tokenizer) model_tokenizer_ = target_dataset_tokenizer(*spec_.tokenizer);
      endpoint_ = resolve_openai_endpoint(spec_, model_tokenizer_);
      endpoint_.sampling = sampling_;
      endpoint_.structured = structured_;
    }
    if (spec_.type == "router") replica_workload_ = std::make_unique<ReplicaWorkloadFile>(spec_);
    if (spec_.type == "simulated") {
      simulated_ = std::make_unique<SimulatedDeployment>(spec_.simulated);
    }
  }

  // A simulated target's deployment; null for the others.
  const SimulatedDeployment* simulated() const { return simulated_.get(); }

  // `router`: a router target's workers at this sweep point; `engine`: an engine target's;
  // `constrain`: whether structured-output requests carry their structure.
  std::unique_ptr<Target> make(const RouterTargetSpec& router, const EngineConfig& engine,
                               bool constrain) const {
    if (spec_.type == "echo") return std::make_unique<EchoTarget>(spec_.echo_token_delay_us);
    if (spec_.type == "openai") {
      OpenAiEndpoint endpoint = endpoint_;
      endpoint.constrain = constrain;
      return std::make_unique<OpenAiTarget>(std::move(endpoint));
    }
    if (spec_.type == "router") {
      TargetSpec point = spec_;
      point.router = router;
      return std::make_unique<RouterTarget>(self_executable(), point, replica_workload_->path(),
                                            faults_, sampling_, model_tokenizer_, structured_,
                                            constrain);
    }
    // Converting again is a no-op (converted once above); the dtype stays in the config so
    // the other ranks of a multi-rank engine convert their own copies alike.
    return std::make_unique<EngineTarget>(std::make_unique<Engine>(engine, weights_), sampling_);
  }

  // What one request may hold: now that the model is loaded, its max_model_len is known.
  RequestLimit request_limit() const {
    if (simulated_) {
      return engine_request_limit(spec_.engine, simulated_->shape().config.max_position_embeddings);
    }
    if (spec_.type != "engine" && spec_.type != "router") return static_request_limit(spec_);
    return engine_request_limit(spec_.engine, weights_.config.max_position_embeddings);
  }

  // An engine or router target's model, at the engine's weight_dtype.
  const ModelWeights& weights() const { return weights_; }

  int32_t vocab_size() const {
    if (spec_.type == "engine" || spec_.type == "router") return weights_.config.vocab_size;
    if (spec_.type == "openai") return endpoint_.vocab_size;
    if (simulated_) return simulated_->shape().config.vocab_size;
    return 32000;
  }

  // What turns a text dataset into ids: an engine's model's own tokenizer, as generate and serve
  // build it (a GGUF's tokenizer metadata is read again, mmapped; the weights are not), an
  // openai target's target.tokenizer, else bytes over a synthetic vocabulary of the target's size.
  DatasetTokenizer dataset_tokenizer() const {
    if (model_tokenizer_) {
      DatasetTokenizer t = *model_tokenizer_;
      t.template_conversations =
          t.chat && !t.chat->is_chatml() && (spec_.type == "engine" || spec_.api != "chat");
      if (t.template_conversations)
        t.description += "; sharegpt turns through " + t.chat_description;
      return t;
    }
    if (spec_.type == "openai") {
      return byte_dataset_tokenizer(
          vocab_size(),
          "openai target without target.tokenizer: the server may tokenize the "
          "text differently");
    }
    return byte_dataset_tokenizer(vocab_size(), spec_.type + " target");
  }

 private:
  const TargetSpec& spec_;
  const std::vector<FaultSpec>& faults_;
  SamplingSpec sampling_;
  std::shared_ptr<const StructuredRequests> structured_;  // the workload's structured_output
  ModelWeights weights_;
  std::optional<DatasetTokenizer> model_tokenizer_;  // the model's, or target.tokenizer
  OpenAiEndpoint endpoint_;
  std::unique_ptr<ReplicaWorkloadFile> replica_workload_;
  std::unique_ptr<SimulatedDeployment> simulated_;
};

// Whether this process writes the results: always, but for load ranks other than 0.
bool reports(const RunOptions& o) { return !o.load_ranks || o.load_ranks->rank() == 0; }

// Several load ranks send to one server (openai) or each to its own echo; the others targets
// would start a router or an engine per rank.
void check_load_ranks(const Workload& w, const RunOptions& o) {
  if (!o.load_ranks || o.load_ranks->size() == 1) return;
  const std::string ranks =
      "several load ranks (mpirun -np " + std::to_string(o.load_ranks->size()) + ")";
  if (w.target.type != "openai" && w.target.type != "echo") {
    throw std::invalid_argument(ranks + " send to an openai or echo target, not " + w.target.type +
                                " (docs/distributed.md, \"Load from many hosts\")");
  }
  if (!w.load.stop_when.empty() || w.load.max_concurrency > 0 || w.load.search) {
    throw std::invalid_argument(ranks +
                                ": load.stop_when, load.max_concurrency and load.search judge "
                                "or cap the whole load and are not split over ranks yet");
  }
}

LoadSpec load_for_point(const Workload& w, const nlohmann::json& value) {
  LoadSpec load = w.load;
  if (!w.sweep) return load;
  if (w.sweep->field == "load.rate") load.rate = value.get<double>();
  if (w.sweep->field == "load.concurrency") load.concurrency = int(value.get<double>());
  return load;
}

// The samples on the repetition's clock, as its timeline.
std::vector<TimelineSample> timeline_of(const std::vector<ResourceSample>& samples,
                                        int64_t origin_ns) {
  std::vector<TimelineSample> out;
  out.reserve(samples.size());
  for (const ResourceSample& s : samples) {
    out.push_back({double(s.time_ns - origin_ns) * 1e-6, s.rss_bytes, s.cpu_pct, s.gpu_memory_bytes,
                   s.gpu_utilization_pct, s.target, s.target_error});
  }
  return out;
}

// Telemetry and engine counters that summarize_run() cannot see from request records.
void add_telemetry(RunSummary& s, const ResourceSampler& sampler, const TargetStats& target) {
  add_engine_counters(s, target);
  const std::vector<ResourceSample> samples = sampler.samples();
  double cpu = 0, gpu = 0;
  int gpu_n = 0;
  for (const ResourceSample& x : samples) {
    cpu += x.cpu_pct;
    if (x.gpu_utilization_pct) gpu += *x.gpu_utilization_pct, ++gpu_n;
  }
  s.cpu_utilization_pct = samples.empty() ? 0 : cpu / double(samples.size());
  s.harness_cpu_utilization_pct = s.cpu_utilization_pct;
  const double cores = double(std::max(1u, std::thread::hardware_concurrency()));
  // Without a GPU, utilization is the process's share of all CPU cores.
  s.utilization_pct = gpu_n ? gpu / gpu_n : s.cpu_utilization_pct / cores;
  s.peak_memory_bytes = sampler.peak_rss_bytes();
  s.harness_peak_memory_bytes = s.peak_memory_bytes;
  s.peak_gpu_memory_bytes = sampler.peak_gpu_memory_bytes();
}

// The GPU's kernels and copies as trace spans, on one track per device and stream.
void add_gpu_spans(NvtxTraceRecorder& trace, const CuptiTracer& cupti) {
  std::vector<TraceGpuSpan> spans;
  for (const KernelRecord& k : cupti.kernels()) {
    spans.push_back({k.name, "cuda_kernel", k.start_ns, k.end_ns, k.device, k.stream});
  }
  for (const KernelRecord& m : cupti.memcpys()) {
    spans.push_back({m.name, "cuda_memcpy", m.start_ns, m.end_ns, m.device, m.stream});
  }
  trace.add_gpu_spans(spans);
}

std::string point_label(const Workload& w, const nlohmann::json& value, int rep, int reps) {
  std::string label;
  if (w.sweep) label += " " + w.sweep->field + "=" + value.dump();
  if (reps > 1) label += " rep " + std::to_string(rep + 1) + "/" + std::to_string(reps);
  return label;
}

// A disaggregated request's prefill phase and KV read, for its lane in the trace.
std::vector<TracePhase> handoff_phases(const RequestRecord& rec) {
  if (!rec.kv_transfer) return {};
  const KvTransferRecord& k = *rec.kv_transfer;
  std::vector<TracePhase> phases;
  if (k.prefill_end_ns > k.prefill_begin_ns && k.prefill_begin_ns > 0) {
    phases.push_back({"prefill worker", k.prefill_begin_ns, k.prefill_end_ns});
  }
  if (k.read_end_ns > k.read_begin_ns && k.read_begin_ns > 0) {
    phases.push_back({"KV read", k.read_begin_ns, k.read_end_ns});
  }
  return phases;
}

// A router target's workers at one sweep point: the swept field set to the point's value.
RouterTargetSpec router_for_point(const Workload& w, const nlohmann::json& value) {
  RouterTargetSpec r = w.target.router;
  if (!w.sweep) return r;
  const std::string& field = w.sweep->field;
  if (field == kSweepReplicas) r.replicas = value.get<int>();
  if (field == kSweepPrefillReplicas) r.prefill_replicas = value.get<int>();
  if (field == kSweepKvReadRate) r.kv_read_rate_mb_s = value.get<double>();
  return r;
}

// Whether the structured-output requests carry their structure at one sweep point (the
// structured_output.enabled sweep measures the constraint's cost: 0 sends them plain).
bool constrained_at_point(const Workload& w, const nlohmann::json& value) {
  return !w.sweep || w.sweep->field != kSweepStructured || value.get<int>() == 1;
}

// An engine target's config at one sweep point: speculation's proposed tokens, 0 for off.
EngineConfig engine_for_point(const Workload& w, const nlohmann::json& value) {
  EngineConfig c = w.target.engine;
  if (!w.sweep || w.sweep->field != kSweepSpecTokens) return c;
  const int tokens = value.get<int>();
  if (tokens == 0) {  // off: the draft's own settings go too, which validate() ties to a method
    c.speculative_method = SpeculativeMethod::kNone;
    c.speculative_draft_model.clear();
    c.speculative_draft_layers = 0;
  } else {
    c.speculative_num_tokens = tokens;
  }
  return c;
}

// The structured answers that failed, said at once with the first one's problem: a rate alone
// does not tell a schema the server ignored from answers cut off by max_tokens.
void report_invalid_outputs(const std::vector<RequestRecord>& records) {
  int64_t judged = 0, invalid = 0;
  const RequestRecord* first = nullptr;
  for (const RequestRecord& r : records) {
    if (r.warmup || r.status != RequestStatus::kOk || !r.output_problem) continue;
    ++judged;
    if (r.output_problem->empty()) continue;
    ++invalid;
    if (!first) first = &r;
  }
  std::cerr << "structured output: " << judged - invalid << " of " << judged << " answers valid";
  if (first) std::cerr << "; e.g. request " << first->index << ": " << *first->output_problem;
  std::cerr << "\n";
}

// A server that counts tokens otherwise than the client is said at once, not only in the results:
// its per-token latencies are per other tokens than the workload meant.
void warn_if_token_counts_differ(const TargetStats& stats) {
  if (!stats.http_client) return;
  const HttpClientRecord& c = *stats.http_client;
  if (c.prompt_mismatches > 0) {
    std::cerr << "warning: the server's usage.prompt_tokens differs from the client's count for "
              << c.prompt_mismatches << " of " << c.prompt_checked << " requests, e.g. "
              << c.prompt_mismatch_examples.front() << "\n";
  }
  if (c.usage_mismatches > 0) {
    std::cerr << "warning: the server's usage.completion_tokens differs from its stream for "
              << c.usage_mismatches << " requests, e.g. " << c.mismatch_examples.front() << "\n";
  }
}

RepetitionResult run_repetition(const Workload& w, const TargetFactory& factory,
                                const std::vector<BenchRequest>& dataset, const LoadSpec& load,
                                const RouterTargetSpec& router, const EngineConfig& engine,
                                bool constrain, int repetition, const RunOptions& o,
                                const std::optional<QualitySummary>& quality,
                                NvtxTraceRecorder* trace, ProgressPrinter& progress,
                                const std::vector<BenchSession>* sessions, ProbeFigures* probe) {
  const auto began = std::chrono::steady_clock::now();
  // Freed heap pages go back to the OS, so each repetition's peak RSS starts from the same floor
  // instead of the previous repetition's leftovers (see run_workload).
  ::malloc_trim(0);
  std::unique_ptr<Target> target = factory.make(router, engine, constrain);
  Target* t = target.get();
  std::unique_ptr<EnergyMeter> meter;  // set before the sampler starts polling it
  ResourceSampler sampler(std::chrono::milliseconds(o.sample_interval_ms),
                          [t, &meter](ResourceSample& s) {
                            s.target = t->stats();
                            if (meter) meter->poll();  // RAPL counters wrap within the hour
                          });
  const std::string energy_elsewhere = energy_not_the_targets(w.target);
  if (energy_elsewhere.empty()) {
    meter = std::make_unique<EnergyMeter>(o.powercap_root, &sampler.nvml());
  }
  DriverOptions d;
  d.load = load;
  d.seed = w.seed;  // every repetition replays the same arrivals: they differ only by noise
  d.stop = o.stop;
  d.on_progress = [&](const DriverProgress& p) { progress.update(p); };
  d.sessions = sessions;
  // Traced around the load alone, as the sampler, so both describe the same stretch of work.
  std::unique_ptr<CuptiTracer> cupti;
  if (w.telemetry.cupti) {
    cupti = std::make_unique<CuptiTracer>();
    cupti->start();  // unavailable (no GPU, no CUPTI): said in the results, the run goes on
  }
  // An openai target's server, observed over the same stretch (null for the other targets).
  const std::unique_ptr<ServerObservation> server =
      reports(o) ? ServerObservation::for_target(w.target) : nullptr;
  if (server) server->start();
  if (meter) meter->start();
  sampler.start();
  std::vector<LoadRankRecord> rank_report;
  DriverResult run = o.load_ranks ? LoadRanks(*o.load_ranks).run(*target, dataset, d, rank_report)
                                  : run_load(*target, dataset, d);
  sampler.stop();
  const std::optional<EnergyReading> energy =
      meter ? std::optional<EnergyReading>(meter->stop()) : std::nullopt;
  if (server) server->stop();
  if (cupti) cupti->stop();
  progress.finish();
  const TargetStats stats = target->stats();
  target.reset();
  if (!reports(o)) return {};  // a load rank other than 0: rank 0 has its records
  warn_if_token_counts_differ(stats);

  RunSummary summary = summarize_run(run.records, w.slo);
  if (summary.valid_output_rate) report_invalid_outputs(run.records);
  add_telemetry(summary, sampler, stats);
  const EnergyRecord energy_used =
      energy ? energy_record(*energy, run.records) : energy_unavailable(energy_elsewhere);
  add_energy(summary, energy_used);
  if (quality) add_quality(summary, *quality);
  const std::optional<ServerSideRecord> server_side =
      server ? server->finish(summary, run.records, run.start_ns) : std::nullopt;
  // Lag held back on purpose by max_concurrency is the load model, not the harness failing.
  summary.harness_limited =
      !(load.mode == LoadMode::kOpen && load.max_concurrency > 0) && send_lag_grew(run.records);
  summary.error_share_exceeded = summary.error_share > o.max_error_share;
  RepetitionResult r = make_repetition_result(repetition, run, summary, stats, w.record_requests);
  r.timeline = timeline_of(sampler.samples(), run.start_ns);
  r.energy = energy_used;
  if (sessions) r.sessions = session_summary(run);
  r.server = server_side;
  if (load.ramp) r.ramp = ramp_summary(run, load, w.slo);
  if (o.load_ranks) r.load_ranks = std::move(rank_report);
  if (probe) {
    probe->summary = summary;
    add_slo_ratios(*probe, run.records, w.slo);
    probe->seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  }
  if (cupti) r.cupti = cupti_record(*cupti, run.start_ns, run.end_ns);
  if (trace && cupti) add_gpu_spans(*trace, *cupti);
  if (trace) {
    for (const RequestRecord& rec : run.records) {
      trace->add_request(rec.index, rec.scheduled_ns, rec.sent_ns, rec.first_token_ns,
                         rec.finished_ns, request_status_name(rec.status), handoff_phases(rec));
    }
  }
  return r;
}

// Everything one repetition needs besides its load: what run_workload holds for the run.
struct RunContext {
  const Workload& w;
  const TargetFactory& factory;
  const std::vector<BenchRequest>& dataset;
  const std::vector<BenchSession>* sessions;
  const std::optional<QualitySummary>& quality;
  NvtxTraceRecorder* trace;
  const RunOptions& o;
};

// One repetition at `load` (a sweep point's, or a search's probe when `probe` is given), its
// arrivals seeded `seed`.
RepetitionResult measure(const RunContext& c, const LoadSpec& load, const nlohmann::json& value,
                         uint64_t seed, int r, const std::string& label, ProbeFigures* probe) {
  const RouterTargetSpec router = router_for_point(c.w, value);
  const EngineConfig engine = engine_for_point(c.w, value);
  Workload w = c.w;
  w.seed = seed;
  ProgressPrinter progress(c.o.quiet || !reports(c.o), c.o.progress_is_tty, label);
  if (c.factory.simulated()) {
    return run_simulated_repetition(w, *c.factory.simulated(), c.dataset, c.sessions, load, router,
                                    engine, r, c.o, probe);
  }
  return run_repetition(w, c.factory, c.dataset, load, router, engine,
                        constrained_at_point(w, value), r, c.o, c.quality, c.trace, progress,
                        c.sessions, probe);
}

// A repetition of a capacity search: probes at the loads it picks, each a fresh target.
RepetitionResult search_capacity(const RunContext& c, const LoadSpec& load,
                                 const nlohmann::json& value, int r) {
  const CapacitySearchSpec& spec = *load.search;
  CapacitySearchSettings settings{spec,     load.mode,
                                  c.w.slo,  c.w.seed,
                                  c.o.stop, c.o.quiet || !reports(c.o) ? nullptr : &std::cerr};
  const ProbeFunction probe = [&](double at, uint64_t seed, int index) {
    LoadSpec p = load;
    p.search.reset();
    if (p.mode == LoadMode::kOpen) p.rate = at;
    if (p.mode == LoadMode::kClosed) p.concurrency = int(at);
    ProbeRun run;
    run.figures.goodput_share = spec.goodput_share;
    const std::string label = c.w.name + point_label(c.w, value, r, c.w.repetitions) + " probe " +
                              std::to_string(index) + " at " + nlohmann::json(at).dump();
    run.repetition = measure(c, p, value, seed, r, label, &run.figures);
    return run;
  };
  RepetitionResult rep = run_capacity_search(settings, probe, r);
  if (reports(c.o)) print_search_verdict(std::cerr, *rep.search);
  return rep;
}

// Before the load, so the evaluation's second copy of the model is freed (and trimmed by the
// first repetition) before any memory is sampled.
std::optional<QualitySummary> score_quality(const Workload& w, const TargetFactory& factory) {
  if (!w.quality) return std::nullopt;
  std::cerr << "quality: weights " << weight_dtype_name(w.target.engine.weight_dtype) << ", KV "
            << dtype_name(w.target.engine.kv_cache_dtype) << " against weights "
            << w.quality->baseline_dtype << ", KV f32 on " << w.quality->text << "\n";
  const QualitySummary q =
      measure_workload_quality(*w.quality, w.target.model, factory.weights(),
                               w.target.engine.kv_cache_dtype, w.target.engine.num_threads);
  std::cerr << "quality: " << q.positions << " positions, KL mean " << q.kl_divergence.mean
            << " p99 " << q.kl_divergence.p99 << ", top-1 agreement " << q.top1_agreement
            << ", perplexity " << q.perplexity << " (baseline " << q.baseline_perplexity << ")\n";
  return q;
}

// Once per run: every repetition's results say it too.
void warn_if_cupti_unavailable(const RepetitionResult& repetition, bool& warned) {
  const std::optional<CuptiRecord>& cupti = repetition.cupti;
  if (warned || !cupti || cupti->available) return;
  std::cerr << "warning: CUPTI tracing is unavailable, the run goes on without it: "
            << cupti->unavailable_reason.value_or("") << "\n";
  warned = true;
}

// The build and host, and for a simulated target what was simulated and with which
// calibration: its latencies come from that, not from this host.
nlohmann::json run_manifest(const Workload& w, const TargetFactory& factory) {
  nlohmann::json m = build_manifest(w.hash, w.seed);
  if (factory.simulated()) m["simulated"] = factory.simulated()->manifest();
  return m;
}

}  // namespace

RunOutcome run_workload(const Workload& w, const RunOptions& o) {
  // Every repetition starts fresh threads; with glibc's per-thread arenas their fragments pile
  // up and each repetition's peak RSS climbs (+5% over 6 quickstart repetitions), which the
  // gates would read as a memory regression. One arena keeps the floor flat (docs/metrics.md).
  ::mallopt(M_ARENA_MAX, 1);
  std::unique_ptr<NvtxTraceRecorder> trace;
  if (!o.trace_path.empty()) {
    trace = std::make_unique<NvtxTraceRecorder>();
    trace->start();
  }
  check_load_ranks(w, o);
  check_open_loop_length(w);  // before the model is loaded: a refusal costs nothing
  const TargetFactory factory(w);
  const std::string base_dir = std::filesystem::path(w.source_path).parent_path().string();
  // Model files are read only now: their max_model_len is checked before the first request.
  const RequestLimit limit = factory.request_limit();
  check_synthetic_lengths(w, w.source_path, limit);
  std::optional<DatasetTokenizer> text;
  if (dataset_has_text(w.dataset)) {
    text = factory.dataset_tokenizer();
    std::cerr << "dataset tokenizer: " << text->description << "\n";
  }
  const bool sessions = w.dataset.type == "sessions";
  const std::vector<BenchRequest> dataset =
      sessions
          ? std::vector<BenchRequest>{}
          : make_dataset(w.dataset, dataset_request_count(w.load), w.dataset.seed.value_or(w.seed),
                         factory.vocab_size(), base_dir, text ? &*text : nullptr);
  check_dataset_requests(dataset, w, limit);
  const std::vector<BenchSession> conversations =
      sessions ? make_session_dataset(w.dataset, w.dataset.seed.value_or(w.seed),
                                      factory.vocab_size(), base_dir, text ? &*text : nullptr)
               : std::vector<BenchSession>{};
  check_session_lengths(conversations, w, limit);
  if (sessions) check_session_warmup(w, conversations);
  const std::optional<QualitySummary> quality = score_quality(w, factory);

  const std::vector<nlohmann::json> values =
      w.sweep ? std::vector<nlohmann::json>(w.sweep->values.begin(), w.sweep->values.end())
              : std::vector<nlohmann::json>{nullptr};
  RunOutcome outcome;
  bool cupti_warned = false;
  ResultsFile results;
  const RunContext context{w,       factory,     dataset, sessions ? &conversations : nullptr,
                           quality, trace.get(), o};
  for (const nlohmann::json& value : values) {
    const LoadSpec load = load_for_point(w, value);
    PointResult& point = results.points.emplace_back();
    point.sweep = w.sweep ? nlohmann::json{{"field", w.sweep->field}, {"value", value}}
                          : nlohmann::json(nullptr);
    for (int r = 0; r < w.repetitions && !outcome.incomplete; ++r) {
      RepetitionResult rep =
          load.search ? search_capacity(context, load, value, r)
                      : measure(context, load, value, w.seed, r,
                                w.name + point_label(w, value, r, w.repetitions), nullptr);
      outcome.incomplete = outcome.incomplete || rep.incomplete;
      warn_if_cupti_unavailable(rep, cupti_warned);
      point.repetitions.push_back(std::move(rep));
    }
    if (outcome.incomplete) break;
  }

  results.incomplete = outcome.incomplete;
  results.doc = {
      {"schema", kResultsSchema},
      {"created_at", utc_iso8601_now()},
      {"command", o.command_line},
      {"workload", w.resolved},
      {"workload_hash", w.hash},
      {"overrides", w.overrides},
      {"manifest", run_manifest(w, factory)},
      {"max_error_share", o.max_error_share},
      // The folder the hash counted file paths from, so gates can recompute it.
      {"workload_dir", w.source_path.empty()
                           ? std::string()
                           : std::filesystem::absolute(w.source_path).parent_path().string()}};
  if (!reports(o)) return outcome;
  // A load sweep's or a search's Pareto frontier, as the reports draw it (docs/metrics.md).
  results.workload = w.resolved;
  if (const std::optional<Frontier> frontier = frontier_of(results)) {
    results.doc["frontier"] = to_json(*frontier);
  }
  outcome.results = results_to_json(results);
  write_json_atomically(outcome.results, o.out_path);
  if (trace) {
    trace->stop();
    trace->write_chrome_trace(o.trace_path);
  }
  return outcome;
}

}  // namespace infergate
