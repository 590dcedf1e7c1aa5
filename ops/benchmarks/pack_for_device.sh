#!/usr/bin/env bash
# Packs the release `spotter` binary, the shared libraries it loads (all but
# glibc's, libstdc++'s and libgcc's, which the lent machine has newer), the
# engine, the models, Debian's EGL/GLES loaders and the clips for
# swift_on_device.sh into .dev/ (ignored by git), in parts that each fit a
# device call's 64 MiB: .dev/p1 (engine, models, loaders, clips) and the
# binary's closure split into .dev/p2 and .dev/p3.
#
# usage: ops/benchmarks/pack_for_device.sh CLIP...   (after swift build -c release)
set -euo pipefail
cd "$(dirname "$0")/../.."
cache=${SPOTTER_CACHE_DIR:-$HOME/.cache/spotter}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
rm -rf .dev/p1 .dev/p2 .dev/p3
mkdir -p .dev/p1/models .dev/p1/clips .dev/p2 .dev/p3 "$stage/lib"

cp .build/release/spotter "$stage/spotter"
strip "$stage/spotter"
ldd .build/release/spotter | awk '$3 ~ /^\// {print $3}' | while read -r lib; do
  case $(basename "$lib") in
    libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|ld-linux*|libstdc++.so.*|libgcc_s.so.*) ;;
    *) cp -L "$lib" "$stage/lib/" ;;
  esac
done
strip --strip-unneeded "$stage"/lib/* 2>/dev/null || true
tar -C "$stage" -cf - spotter lib | xz -T0 -6 >"$stage/closure.tar.xz"
split -n 2 "$stage/closure.tar.xz" "$stage/closure.tar.xz."
mv "$stage/closure.tar.xz.aa" .dev/p2/
mv "$stage/closure.tar.xz.ab" .dev/p3/

xz -T0 -6 -c "$cache/mediapipe-1.2.2/libmediapipe.so" > .dev/p1/libmediapipe.so.xz
cp "$cache"/models/pose_landmarker_full.task "$cache"/models/hand_landmarker_full.task \
   "$cache"/models/hand_landmarker_lite.task "$cache"/models/SHA256SUMS .dev/p1/models/
cp .gl/*.deb .dev/p1/
cp "$@" .dev/p1/clips/
du -sh .dev/p1 .dev/p2 .dev/p3
