# Shared by the ops/ scripts: where things go, what is pinned, small helpers.
# Source it; it sets -euo pipefail.
set -euo pipefail

OPS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Swift is installed at /opt/swift on these machines; put it on PATH if needed.
command -v swift >/dev/null 2>&1 || PATH="/opt/swift/usr/bin:$PATH"
REPO_DIR="$(cd "$OPS_DIR/.." && pwd)"

# The cache directory, as Spotter resolves it (see MediaPipeInstallation).
if [ -n "${SPOTTER_CACHE_DIR:-}" ]; then
  CACHE_DIR="$SPOTTER_CACHE_DIR"
elif [ -n "${XDG_CACHE_HOME:-}" ]; then
  CACHE_DIR="$XDG_CACHE_HOME/spotter"
else
  CACHE_DIR="$HOME/.cache/spotter"
fi
ENGINE_VERSION=1.2.2
ENGINE_LIBRARY="${SPOTTER_MEDIAPIPE_LIBRARY:-$CACHE_DIR/mediapipe-$ENGINE_VERSION/libmediapipe.so}"
MODEL_DIR="${SPOTTER_MODEL_DIR:-$CACHE_DIR/models}"
TEST_DATA_DIR="${SPOTTER_TEST_DATA_DIR:-$CACHE_DIR/testdata}"
# The private PostgreSQL server of the tests (ops/postgres, the PostgresDatabase trait).
TEST_POSTGRES_DIR="${SPOTTER_TEST_POSTGRES_DIR:-$CACHE_DIR/test-postgres}"
DOWNLOAD_DIR="$CACHE_DIR/downloads"

# Everything fetched, pinned by version and SHA-256.
ENGINE_WHEEL=mediapipe-1.2.2-py3-none-manylinux_2_28_x86_64.whl
ENGINE_WHEEL_SHA256=c0b641bf1515dd186036da711df597a514466c0ba97a138f35b698ecc0411a61
ENGINE_LIBRARY_SHA256=022f20f556e1148d6be05672475a483ba6358347fee8236e70ce8ef6a48aff72
MODELS_WHEEL=mediapipe-0.10.21-cp311-cp311-manylinux_2_28_x86_64.whl
MODELS_WHEEL_SHA256=05dc4a9e593655a79558d05d6227d31018c2537a4bd3362b51e230cf22aecfe3
FLATBUFFERS_WHEEL=flatbuffers-25.12.19-py2.py3-none-any.whl
FLATBUFFERS_WHEEL_SHA256=7634f50c427838bb021c2d66a3d1168e9d199b0607e6329399f04846d42e20b4
# MediaPipe's Python API, for the parity expectations and the benchmark; numpy
# alone also renders the synthetic test videos.
NUMPY_WHEEL=numpy-2.3.5-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl
NUMPY_WHEEL_SHA256=8cba086a43d54ca804ce711b2a940b16e452807acebe7852ff327f1ecd49b0d4
CERTIFI_WHEEL=certifi-2025.11.12-py3-none-any.whl
CERTIFI_WHEEL_SHA256=97de8790030bbd5c2d96b7ec782fc2f7820ef8dba6db909ccf95449f2d062d4b
# OpenCV for the Python pipeline `ops/bench video` compares with (decoding).
OPENCV_WHEEL=opencv_python_headless-4.13.0.92-cp37-abi3-manylinux_2_28_x86_64.whl
OPENCV_WHEEL_SHA256=0bd48544f77c68b2941392fcdf9bcd2b9cdf00e98cb8c29b2455d194763cf99e

log() { printf '%s\n' "ops: $*" >&2; }
die() { printf '%s\n' "ops: error: $*" >&2; exit 1; }

# Runs a command as root: directly when we are root, else through sudo.
as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

# require_sha256 FILE SHA256: fails unless FILE has that digest.
require_sha256() {
  local actual
  actual="$(sha256_of "$1")"
  [ "$actual" = "$2" ] || die "$1: SHA-256 is $actual, pinned $2"
}

# fetch_wheel FILE SHA256 REQUIREMENT: downloads a wheel from PyPI into
# $DOWNLOAD_DIR (once) for CPython 3.11 on manylinux x86_64, and checks it.
fetch_wheel() {
  local file="$1" sha="$2" requirement="$3"
  mkdir -p "$DOWNLOAD_DIR"
  if [ ! -f "$DOWNLOAD_DIR/$file" ] || [ "$(sha256_of "$DOWNLOAD_DIR/$file")" != "$sha" ]; then
    log "downloading $requirement from PyPI"
    python3 -m pip download --quiet --no-deps --only-binary=:all: \
      --platform manylinux_2_28_x86_64 --python-version 3.11 --implementation cp \
      --dest "$DOWNLOAD_DIR" "$requirement" >&2
    [ -f "$DOWNLOAD_DIR/$file" ] || die "pip did not fetch $file for $requirement"
  fi
  require_sha256 "$DOWNLOAD_DIR/$file" "$sha"
}

# extract_member ARCHIVE MEMBER TARGET: copies one member of a zip (a wheel)
# to TARGET atomically.
extract_member() {
  python3 - "$1" "$2" "$3" <<'PY'
import os, shutil, sys, zipfile
archive, member, target = sys.argv[1:]
os.makedirs(os.path.dirname(target), exist_ok=True)
with zipfile.ZipFile(archive) as z, z.open(member) as source, open(target + ".partial", "wb") as sink:
    shutil.copyfileobj(source, sink)
os.replace(target + ".partial", target)
PY
}

# unpack_mediapipe_python DIR: unpacks MediaPipe's Python API (the mediapipe
# 1.2.2 wheel, with numpy and certifi) into DIR, for PYTHONPATH; nothing is
# installed. Needs CPython 3.11 (numpy's wheel is built for it).
unpack_mediapipe_python() {
  python3 -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' \
    || die "MediaPipe's Python API here needs CPython 3.11 as python3 (found $(python3 --version 2>&1))"
  fetch_wheel "$ENGINE_WHEEL" "$ENGINE_WHEEL_SHA256" "mediapipe==$ENGINE_VERSION"
  fetch_wheel "$NUMPY_WHEEL" "$NUMPY_WHEEL_SHA256" numpy==2.3.5
  fetch_wheel "$CERTIFI_WHEEL" "$CERTIFI_WHEEL_SHA256" certifi==2025.11.12
  for wheel in "$ENGINE_WHEEL" "$NUMPY_WHEEL" "$CERTIFI_WHEEL"; do
    python3 -m zipfile -e "$DOWNLOAD_DIR/$wheel" "$1"
  done
}

# unpack_numpy DIR: unpacks the pinned numpy wheel alone into DIR, for
# PYTHONPATH (ops/render-test-videos); nothing is installed. Needs CPython 3.11.
unpack_numpy() {
  python3 -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' \
    || die "the pinned numpy wheel needs CPython 3.11 as python3 (found $(python3 --version 2>&1))"
  fetch_wheel "$NUMPY_WHEEL" "$NUMPY_WHEEL_SHA256" numpy==2.3.5
  python3 -m zipfile -e "$DOWNLOAD_DIR/$NUMPY_WHEEL" "$1"
}
