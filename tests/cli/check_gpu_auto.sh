#!/bin/sh
# cli.gpu_auto: `--gpu auto` end to end through the driver loader, with the
# stand-in libcuda.so.1 of tests/fakecuda on LD_LIBRARY_PATH: a name as
# nvidia-smi prints it, a name kvcheck does not know (its compute
# capability is used), no GPU, and cuInit failing.
set -u
kvcheck=$1
fake=$2
fails=0
run() { # EXPECTED_RC EXPECTED_TEXT 'VAR=VALUE ...' ARGS...
  want_rc=$1 want=$2 envs=$3
  shift 3
  out=$(eval "export $envs"; LD_LIBRARY_PATH="$fake" "$kvcheck" "$@" 2>&1)
  rc=$?
  if [ $rc != "$want_rc" ] || ! printf '%s' "$out" | grep -qF -- "$want"; then
    echo "FAIL ($envs kvcheck $*): exit $rc, expected $want_rc and '$want' in:"
    printf '%s\n' "$out"
    fails=$((fails + 1))
  fi
}
run 0 "gpu    B300 (compute capability 10.3, CUDA)" "FAKE_CUDA_NAME='NVIDIA B300 SXM6 AC' FAKE_CUDA_CC=10.3" \
  layout --gpu auto --model glm-5.2
run 0 "worker: fp8_raw, 576 B/token" "FAKE_CUDA_NAME='NVIDIA B300 SXM6 AC' FAKE_CUDA_CC=10.3" \
  layout -q --gpu auto --model glm-5.2
run 0 "gpu    sm_100 (compute capability 10.0, CUDA)" "FAKE_CUDA_NAME='NVIDIA Z999 Prototype' FAKE_CUDA_CC=10.0" \
  layout --gpu auto --model glm-5.2
run 1 "INCOMPATIBLE" "FAKE_CUDA_NAME='NVIDIA B300 SXM6 AC' FAKE_CUDA_CC=10.3" \
  check -q --prefill-gpu auto --decode-gpu auto --model glm-5.2 --prefill-args '--disaggregation-mode prefill' \
  --decode-args '--disaggregation-mode decode --enable-hisparse --disable-radix-cache'
run 4 "the NVIDIA driver sees no GPU on this machine; name the GPU instead" "FAKE_CUDA_COUNT=0" \
  layout --gpu auto --model glm-5.2
run 4 "[CUDA_ERROR_NO_DEVICE] no CUDA-capable device is detected in cuInit: --gpu auto needs the NVIDIA driver and a GPU" \
  "FAKE_CUDA_INIT=100" layout --gpu auto --model glm-5.2
[ $fails = 0 ] && echo "gpu auto: 6 cases passed"
[ $fails = 0 ]
