# Sourced by measure_formats.sh, measure_kv_formats.sh and measure_fp8_decode.sh after they set
# `name` (the script's name, for messages): the build and output folders from the arguments, the
# shared settings (PRESET, CTX, CHUNKS, THREADS, REPS, TEXT), the binaries checked, the
# evaluation text, and the machine line every table starts with.
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:?usage: $name BUILD_DIR [OUT_DIR]}
out=${2:-$(mktemp -d "${TMPDIR:-/tmp}/infergate-$name.XXXXXX")}
preset=${PRESET:-small}
ctx=${CTX:-256}
chunks=${CHUNKS:-4}
threads=${THREADS:-$(nproc)}
reps=${REPS:-2}
infergate=$build/cli/infergate
engine_speed=$build/bench/programs/llama_cpp/infergate_engine_speed
for bin in "$infergate" "$engine_speed"; do
  [ -x "$bin" ] || { echo "$name: no $bin (build it first)" >&2; exit 2; }
done
mkdir -p "$out"
text=${TEXT:-$out/text.txt}
[ -n "${TEXT:-}" ] || cat "$root"/docs/*.md >"$text"
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, INFERGATE_ISA=${INFERGATE_ISA:-unset}"
