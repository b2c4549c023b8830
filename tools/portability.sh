#!/usr/bin/env bash
# Portable evidence, proved on one machine: re-run the strict notebook validation and the figure check
# under other numeric configurations of this CPU (issue "Portable evidence"; README, "Why the notebooks
# pass on your machine").  Called by `make test` after the run in the inherited configuration.
#   (a) numpy limited to its baseline (no AVX2/AVX-512 kernels), OpenBLAS's Nehalem kernels, glibc's libm
#       kept off AVX2/FMA;
#   (b) OpenBLAS's Haswell kernels with a 512 KiB L2 (as a cloud image sets them), numpy's AVX-512 off.
# numpy rejects or ignores names it does not dispatch, so only features this CPU and this numpy have
# are disabled; a feature the CPU lacks is already off and is skipped.  Not x86-64: skipped, one line.
set -euo pipefail
BIN=${BIN:-.venv/bin}
NBVAL=(--nbval --nbval-current-env --nbval-sanitize-with notebooks/nbval-sanitize.cfg)

if [ "$(uname -m)" != "x86_64" ]; then
    echo "portability: skipped (not x86-64: $(uname -m); the configurations below are x86 kernels)"
    exit 0
fi

# Dispatched numpy features this CPU has, among those we may turn off.
present() {
    "$BIN/python" - "$@" <<'PY'
import sys
from numpy._core._multiarray_umath import __cpu_dispatch__ as dispatch, __cpu_features__ as have
print(" ".join(name for name in sys.argv[1:] if name in dispatch and have.get(name)))
PY
}

run() {  # run LABEL ENV... : the strict notebook validation and the figure check under ENV
    local label=$1
    shift
    echo "portability: configuration ($label): ${*:-(nothing to change)}"
    env "$@" "$BIN/python" -c "import numpy, sys; from numpy._core._multiarray_umath import __cpu_features__ as f; \
off = [n for n in ('X86_V3', 'X86_V4', 'AVX512_ICL', 'AVX512_SPR') if n in numpy._core._multiarray_umath.__cpu_dispatch__ and not f.get(n)]; \
print('portability:   numpy dispatch features off:', ' '.join(off) or 'none')"
    env "$@" "$BIN/python" -m pytest -q -p no:cacheprovider "${NBVAL[@]}" notebooks/
    env "$@" "$BIN/ropemath" figures --check
}

A_OFF=$(present X86_V3 X86_V4 AVX512_ICL AVX512_SPR)
B_OFF=$(present X86_V4 AVX512_ICL AVX512_SPR)
A_ENV=(OPENBLAS_CORETYPE=Nehalem GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA)
B_ENV=(OPENBLAS_CORETYPE=Haswell OPENBLAS_L2_SIZE=512)
[ -n "$A_OFF" ] && A_ENV+=("NPY_DISABLE_CPU_FEATURES=$A_OFF")
[ -n "$B_OFF" ] && B_ENV+=("NPY_DISABLE_CPU_FEATURES=$B_OFF")
[ -z "$B_OFF" ] && echo "portability: this CPU has no AVX-512, so numpy's AVX-512 kernels are off in (b) already"

run "a: baseline numpy, Nehalem BLAS, no FMA in libm" "${A_ENV[@]}"
run "b: Haswell BLAS, L2 512 KiB, no AVX-512" "${B_ENV[@]}"
echo "portability: the notebooks and figures pass under every configuration"
