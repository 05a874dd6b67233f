"""The table ci/gpu-check.sh prints last, and its one JSON summary (OUT_DIR/summary.json): every
GPU micro-benchmark as a fraction of the roofline measured in the same run, the kernel targets,
the engine's speed on `small` (decode 1 and 32, prefill 512), the measured roofline as a share of
the device's datasheet peaks (HBM bandwidth, dense bf16), the GPU tests' counts (and the NCCL
test over every GPU), and the quickstart on cpu and cuda.
    python3 ci/gpu-summary.py OUT_DIR
Reads OUT_DIR/cuda-micro.json (Google Benchmark), OUT_DIR/ctest-gpu.txt and
OUT_DIR/quickstart-{cpu,cuda}.json and OUT_DIR/nccl-all-gpus.txt; a missing file is reported
as missing, never as a pass."""
import json
import os
import re
import sys

# (benchmark name prefix, counter, at least): the targets of issue 6 on H100/H200.
TARGETS = [
    ("BM_GemmTensorCore/m:4096/n:4096/k:4096/", "of_cublas", 0.70,
     "own GEMM vs cuBLAS, 4096^3 bf16"),
    ("BM_AttentionPrefill/seq:4096/", "of_roofline", 0.50,
     "prefill attention vs bf16 GEMM roofline, seq 4096, head_dim 128"),
    ("BM_AttentionDecode/batch:64/context:4096/", "of_roofline", 0.70,
     "decode attention vs measured copy bandwidth, batch 64, context 4096"),
]


# Datasheet peaks (dense bf16 tensor TFLOP/s, HBM TB/s), by a name nvidia-smi prints: the
# denominators of the roofline's shares. An unknown device gets no share.
DATASHEETS = [
    ("H200", 989.4, 4.8),
    ("H100 80GB HBM3", 989.4, 3.35),
    ("H100 PCIe", 756.0, 2.0),
    ("A100-SXM4-80GB", 312.0, 2.039),
    ("A100", 312.0, 1.555),
]

ENGINE_BENCHES = [("decode_1", "BM_CudaEngineDecode1", "bw_share"),
                  ("decode_32", "BM_CudaEngineDecode32", "gemm_share"),
                  ("prefill_512", "BM_CudaEnginePrefill512", "gemm_share")]


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print(f"  (missing: {path}: {e})")
        return None


def micro_table(doc):
    ctx = doc.get("context", {})
    print(f"device {ctx.get('device')}: copy {ctx.get('roofline_copy_GBps')} GB/s, "
          f"bf16 GEMM {ctx.get('roofline_bf16_gemm_TFLOPs')} TFLOP/s (roofline, this run)")
    print(f"{'benchmark':58} {'ms':>9} {'rate':>12} {'of_roof':>8} {'of_cublas':>9}")
    for b in doc.get("benchmarks", []):
        if b.get("run_type") == "aggregate":
            continue
        rate = (f"{b['TFLOPs']:.1f} TFLOP/s" if "TFLOPs" in b else
                f"{b['GBps']:.0f} GB/s" if "GBps" in b else "")
        ms = b.get("real_time", 0) * {"ns": 1e-6, "us": 1e-3, "ms": 1, "s": 1e3}[b["time_unit"]]
        print(f"{b['name'][:58]:58} {ms:9.3f} {rate:>12} {b.get('of_roofline', float('nan')):8.2f} "
              f"{b.get('of_cublas', float('nan')):9.2f}")


def target_table(doc):
    print("\ntargets (issue 6):")
    benches = doc.get("benchmarks", []) if doc else []
    rows = []
    for prefix, counter, floor, label in TARGETS:
        hits = [b for b in benches if b["name"].startswith(prefix) and counter in b]
        if not hits:
            print(f"  NOT MEASURED  {label}")
            rows.append({"target": label, "verdict": "not measured"})
            continue
        value = max(b[counter] for b in hits)
        verdict = "MET" if value >= floor else "MISSED"
        print(f"  {verdict:12}  {label}: {value:.2f} (target >= {floor:.2f})")
        rows.append({"target": label, "value": value, "at_least": floor, "verdict": verdict})
    return rows


def roofline_shares(doc):
    """The measured copy bandwidth and cuBLAS bf16 GEMM as shares of the datasheet's peaks."""
    ctx = (doc or {}).get("context", {})
    device = ctx.get("device") or ""
    out = {"device": device or None}
    try:
        copy = float(ctx["roofline_copy_GBps"]) / 1e3
        gemm = float(ctx["roofline_bf16_gemm_TFLOPs"])
    except (KeyError, ValueError):
        print("\nroofline: not measured")
        return out
    out.update(copy_TBps=copy, bf16_gemm_TFLOPs=gemm)
    sheet = next((d for d in DATASHEETS if d[0] in device), None)
    if sheet is None:
        print(f"\nroofline: {device!r} is not in the datasheet table; no peak shares")
        return out
    out.update(datasheet=sheet[0], hbm_bandwidth_share=copy / sheet[2],
               cublas_gemm_peak_share=gemm / sheet[1])
    print(f"\nroofline vs datasheet ({sheet[0]}): HBM {copy:.2f} of {sheet[2]} TB/s "
          f"({out['hbm_bandwidth_share']:.2f}), cuBLAS bf16 {gemm:.0f} of {sheet[1]} TFLOP/s "
          f"({out['cublas_gemm_peak_share']:.2f})")
    return out


def engine_speed(doc):
    print("\nengine on backend cuda, small preset, bf16:")
    benches = (doc or {}).get("benchmarks", [])
    out = {}
    for key, name, share in ENGINE_BENCHES:
        hit = next((b for b in benches if b["name"].startswith(name)), None)
        if hit is None:
            print(f"  {key:12} not measured")
            continue
        out[key] = {"tok_per_s": hit.get("tok_per_s"), share: hit.get(share),
                    "mean_ms": hit.get("mean_ms")}
        print(f"  {key:12} {hit.get('tok_per_s', 0):10.1f} tok/s  {share} "
              f"{hit.get(share, float('nan')):.2f}")
    return out


def gpu_tests(out_dir):
    """Counts from ctest's last line ("N% tests passed, F tests failed out of T")."""
    try:
        with open(os.path.join(out_dir, "ctest-gpu.txt")) as f:
            text = f.read()
    except OSError:
        return {"ran": False}
    m = re.search(r"(\d+)% tests passed, (\d+) tests? failed out of (\d+)", text)
    if not m:
        return {"ran": False}
    failed, total = int(m.group(2)), int(m.group(3))
    skipped = len(re.findall(r"\*\*\*Skipped|Not Run", text))
    failures = re.findall(r"^\s*\d+ - (.+?) \(Failed\)", text, re.MULTILINE)
    return {"ran": True, "total": total, "failed": failed, "skipped": skipped,
            "failures": failures}


def nccl_all_gpus(out_dir):
    """The NCCL test over every GPU (gpu-check runs it only with several GPUs and MPI)."""
    try:
        with open(os.path.join(out_dir, "nccl-all-gpus.txt")) as f:
            text = f.read()
    except OSError:
        return {"ran": False}
    return {"ran": True, "passed": "All tests passed" in text}


def quickstart_table(out):
    print("\nquickstart (40 requests at 8 req/s):")
    rows = {}
    summary = {}
    for backend in ("cpu", "cuda"):
        doc = load(os.path.join(out, f"quickstart-{backend}.json"))
        if doc and "summary" in doc:
            s = doc["summary"]
            rows[backend] = (s["ttft_ms"]["p50"], s["tpot_ms"]["p50"], s["output_throughput_tps"])
    for backend, (ttft, tpot, tps) in rows.items():
        print(f"  {backend:5} TTFT p50 {ttft:8.2f} ms  TPOT p50 {tpot:7.3f} ms  {tps:8.1f} tok/s")
        summary[backend] = {"ttft_p50_ms": ttft, "tpot_p50_ms": tpot, "output_tok_per_s": tps}
    if len(rows) == 2:
        c, g = rows["cpu"], rows["cuda"]
        print(f"  cuda/cpu: TTFT x{g[0] / c[0]:.2f}, TPOT x{g[1] / c[1]:.2f}, "
              f"tokens/s x{g[2] / c[2]:.2f}")
    return summary


def find_key(node, key):
    """The first value under `key` anywhere in a JSON document (depth first), or None."""
    if isinstance(node, dict):
        if key in node:
            return node[key]
        node = list(node.values())
    if isinstance(node, list):
        for child in node:
            found = find_key(child, key)
            if found is not None:
                return found
    return None


def telemetry(out_dir):
    """What NVML and CUPTI read during the cuda quickstart (results-schema.md: gpu, cupti)."""
    doc = load(os.path.join(out_dir, "quickstart-cuda.json"))
    if not doc:
        return {}
    gpu = find_key(doc, "gpu") or {}
    cupti = find_key(doc, "cupti") or {}
    kernels = cupti.get("kernels") or []
    found = {
        "nvml_driver": gpu.get("driver_version") if isinstance(gpu, dict) else None,
        "nvml_unavailable": gpu.get("unavailable_reason") if isinstance(gpu, dict) else None,
        "peak_gpu_memory_bytes": find_key(doc, "peak_gpu_memory_bytes"),
        "cupti_available": cupti.get("available"),
        "cupti_unavailable": cupti.get("unavailable_reason"),
        "cupti_kernels": len(kernels),
        "gpu_busy_fraction": cupti.get("gpu_busy_fraction"),
    }
    print("\nNVML/CUPTI during the cuda quickstart: " +
          ", ".join(f"{k} {v}" for k, v in found.items()))
    return found


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "out/gpu-check"
    doc = load(os.path.join(out, "cuda-micro.json"))
    if doc:
        micro_table(doc)
    summary = {"tests": gpu_tests(out), "nccl_all_gpus": nccl_all_gpus(out),
               "roofline": roofline_shares(doc),
               "kernel_targets": target_table(doc), "engine_speed": engine_speed(doc),
               "quickstart": quickstart_table(out), "telemetry": telemetry(out)}
    # Written whole, then renamed: a reader never sees half a summary.
    path = os.path.join(out, "summary.json")
    with open(path + ".tmp", "w") as f:
        json.dump(summary, f, indent=2)
    os.replace(path + ".tmp", path)
    print(f"\nsummary: {path}")


if __name__ == "__main__":
    main()
