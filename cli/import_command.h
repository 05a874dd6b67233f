// `infergate import FILE... [--out-dir DIR] [--db HISTORY]`: the results other load generators
// wrote (vllm bench serve, AIPerf, GuideLLM, inference-perf; common/imports/) as infergate
// results files, so compare, history, the dashboard and diagnose work on them. Exit 0 done,
// 2 usage or input error: a refused file names its problem, and then nothing is written or
// stored, for any of the files.
#pragma once

namespace infergate {

int import_command(int argc, char** argv);

}  // namespace infergate
