#!/usr/bin/env bash
# The Swift path on a lent GPU machine: `spotter landmarks` on one video with
# 1…16 parts (pinned to one core for the baseline), on the GPU delegate, with
# hands; each track compared with the one-part CPU track (track_compare.py);
# `spotter analyze` on the CPU and the GPU; each landmarks run's CPU use over
# time from cpu_timeline.py. The bundle comes from
# pack_for_device.sh, unpacked into $SP (lib/, spotter, libmediapipe.so,
# models/, clips/); Debian's libEGL/libGLESv2 unpacked into /.
#
# usage: [THREADS="2 4 8 12 16"] swift_on_device.sh LONG_CLIP EXERCISE HANDS_CLIP
#        (clips in $SP/clips; run from the repository root)
#
# On the lent machine, three calls in a row (it keeps /tmp while warm, 30 s):
#   carry .dev/p1: mkdir -p /tmp/sp && cp -r .dev/p1/models .dev/p1/clips /tmp/sp/ &&
#                  xz -dc .dev/p1/libmediapipe.so.xz >/tmp/sp/libmediapipe.so &&
#                  for f in .dev/p1/*.deb; do dpkg -x $f /; done; ldconfig
#   carry .dev/p2: cp .dev/p2/closure.tar.xz.aa /tmp/sp/
#   carry .dev/p3: cat /tmp/sp/closure.tar.xz.aa .dev/p3/closure.tar.xz.ab | xz -d | tar -C /tmp/sp -xf - &&
#                  bash ops/benchmarks/swift_on_device.sh deadlift-01x2.mp4 deadlift curl-05.mp4
set -u
SP=${SP:-/tmp/sp}
long=$SP/clips/$1 exercise=$2 hands=$SP/clips/$3
work=$(mktemp -d)
export LD_LIBRARY_PATH=$SP/lib SPOTTER_MEDIAPIPE_LIBRARY=$SP/libmediapipe.so \
  SPOTTER_MODEL_DIR=$SP/models SPOTTER_RULES_DIR=$PWD/Rules SPOTTER_NO_NETWORK=1 \
  __EGL_VENDOR_LIBRARY_FILENAMES=${__EGL_VENDOR_LIBRARY_FILENAMES:-/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json}
spotter=$SP/spotter
pin="taskset -c 0"; command -v taskset >/dev/null || pin=""
TIMEFORMAT='%R %U %S'

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), $(nvidia-smi -L 2>/dev/null | head -1)"
"$spotter" --version
"$spotter" probe "$long" | head -3

# run NAME ARGS...: times `spotter landmarks ARGS` into $work/NAME.jsonl; prints
# one line, and cpu_timeline.py's split of the wall time into start, busy and finish
run() {
  local name=$1; shift
  local times
  times=$( { time python3 ops/benchmarks/cpu_timeline.py "$@" -o "$work/$name.jsonl" 2>"$work/$name.err" ; } 2>&1 ) || { echo "$name FAILED: $(tail -3 "$work/$name.err")"; return; }
  read -r wall user sys <<<"$times"
  local frames
  frames=$(($(wc -l <"$work/$name.jsonl") - 1))
  local base=$work/${name%%-*}-base.jsonl compared=-
  [ "$name" != "${name%%-*}-base" ] && compared=$(python3 ops/benchmarks/track_compare.py "$base" "$work/$name.jsonl")
  awk -v n="$name" -v w="$wall" -v c="$(awk "BEGIN{print $user + $sys}")" -v f="$frames" -v d="$compared" \
    'BEGIN{printf "%-11s wall %6.2f s  cpu %7.2f s  frames %5d  %6.1f f/s  vs base %s\n", n, w, c, f, f / w, d}'
  grep '^timeline:' "$work/$name.err" | sed 's/^/            /'
}

echo "== pose, $(basename "$long")"
run pose-base $pin "$spotter" landmarks "$long" --threads 1
for n in ${THREADS:-2 4 8 12 16}; do run pose-t$n "$spotter" landmarks "$long" --threads $n; done
for n in 1 2; do run pose-gpu$n "$spotter" landmarks "$long" --threads $n --delegate gpu; done

echo "== pose + hands, $(basename "$hands")"
run hands-base $pin "$spotter" landmarks "$hands" --hands --threads 1
run hands-t16 "$spotter" landmarks "$hands" --hands --threads 16
run hands-gpu1 "$spotter" landmarks "$hands" --hands --threads 1 --delegate gpu
run hands-gpu2 "$spotter" landmarks "$hands" --hands --threads 2 --delegate gpu

echo "== analyze $(basename "$long") --exercise $exercise"
for d in cpu gpu; do
  ( time "$spotter" analyze "$long" --exercise "$exercise" --delegate $d --json >"$work/analyze-$d.json" 2>"$work/analyze-$d.err" ) 2>&1 | sed "s/^/$d wall,user,sys: /"
  python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(sys.argv[2], 'reps', r['rep_count'], 'faults', json.dumps(r['faults']), 'view', json.dumps(r['view']))" "$work/analyze-$d.json" $d 2>/dev/null || echo "$d FAILED: $(tail -1 "$work/analyze-$d.err")"
done
