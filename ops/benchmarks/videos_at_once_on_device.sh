#!/usr/bin/env bash
# Several videos at once on a lent many-core machine, as `spotter worker
# --concurrency N` runs them: N `spotter landmarks` processes side by side, each
# with --threads cores ÷ N (what the worker gives its analysis children) and,
# to compare, each with every core (oversubscribed); total frames/s, CPU, and
# the peak RSS summed over the processes. Then one video on every core with
# MALLOC_ARENA_MAX=2 against glibc's default (peak RSS and wall time); with
# GPU=1, also 1, 2 and 4 videos at once on the GPU delegate, one part each.
# The bundle comes from pack_for_device.sh, unpacked into $SP as for
# swift_on_device.sh (same three calls; this script in the third).
#
# usage: [COUNTS="1 2 4"] [GPU=1] videos_at_once_on_device.sh CLIP...  (clips in $SP/clips)
set -u
SP=${SP:-/tmp/sp}
export LD_LIBRARY_PATH=$SP/lib SPOTTER_MEDIAPIPE_LIBRARY=$SP/libmediapipe.so \
  SPOTTER_MODEL_DIR=$SP/models SPOTTER_RULES_DIR=$PWD/Rules SPOTTER_NO_NETWORK=1 \
  __EGL_VENDOR_LIBRARY_FILENAMES=${__EGL_VENDOR_LIBRARY_FILENAMES:-/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json}
cores=$(nproc)
work=$(mktemp -d)
echo "machine: $cores cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"

# side_by_side VIDEO N THREADS DELEGATE [ENV...]: N landmarks runs of VIDEO at once; one line
side_by_side() {
  python3 - "$SP/spotter" "$@" <<'PY'
import os, subprocess, sys, time
spotter, video, count, threads, delegate, *env = sys.argv[1:]
count, extra = int(count), dict(e.split("=", 1) for e in env)
work = os.environ.get("TMPDIR", "/tmp")
started = time.perf_counter()
runs = [subprocess.Popen([spotter, "landmarks", video, "--threads", threads, "--delegate", delegate, "--out", f"{work}/t{i}.jsonl"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, **extra})
        for i in range(count)]
waited = [os.wait4(run.pid, 0) for run in runs]
wall = time.perf_counter() - started
if any(status != 0 for _, status, _ in waited):
    sys.exit(f"{count} x --threads {threads}: a run failed")
frames = sum(sum(1 for _ in open(f"{work}/t{i}.jsonl")) - 1 for i in range(count))
cpu = sum(usage.ru_utime + usage.ru_stime for _, _, usage in waited)
rss = sum(usage.ru_maxrss for _, _, usage in waited) / 1024
label = f"{count} video(s) x --threads {threads} {delegate}" + (f" {' '.join(env)}" if env else "")
print(f"{label:<44} wall {wall:6.2f} s  cpu {cpu:7.1f} s  "
      f"{frames / wall:7.1f} frames/s  peak RSS summed {rss:6.0f} MB")
PY
}

for clip in "$@"; do
  video=$SP/clips/$clip
  echo "== $clip: $($SP/spotter probe "$video" | head -2 | tr '\n' ' ')"
  TMPDIR=$work side_by_side "$video" 1 1 cpu
  for n in ${COUNTS:-1 2 4}; do
    TMPDIR=$work side_by_side "$video" "$n" $((cores / n > 0 ? cores / n : 1)) cpu
    [ $((cores / n)) -ne "$cores" ] && TMPDIR=$work side_by_side "$video" "$n" "$cores" cpu
  done
  TMPDIR=$work side_by_side "$video" 1 "$cores" cpu MALLOC_ARENA_MAX=2
  if [ -n "${GPU:-}" ]; then
    for n in ${COUNTS:-1 2 4}; do TMPDIR=$work side_by_side "$video" "$n" 1 gpu; done
  fi
done
