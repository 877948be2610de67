#!/usr/bin/env bash
# Installs the Debian packages pqpage builds against, only those that are missing.
set -euo pipefail
packages=(build-essential cmake pkg-config thrift-compiler libthrift-dev libzstd-dev libsnappy-dev
  libboost-dev libabsl-dev libgtest-dev libgmock-dev libbenchmark-dev zlib1g-dev liblz4-dev libbrotli-dev
  libdeflate-dev liblzo2-dev libxxhash-dev libssl-dev libprotobuf-dev protobuf-compiler
  python3 python3-venv clang-14 libclang-rt-14-dev llvm-14 clang-format clang-tidy)
# Intel's ipsec-mb (AES-GCM for modular encryption) is built for x86-64 only.
[ "$(dpkg --print-architecture)" = amd64 ] && packages+=(libipsec-mb-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
