#!/usr/bin/env bash
# Lints every Swift file with the toolchain's swift-format and the rules in .swift-format
# (no force unwraps, no force try, doc comments that match their declarations).
# `Scripts/format.sh --fix` rewrites the files in place first.
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Package.swift Sources Tests Docs/Examples Fuzz)
if [ "${1:-}" = "--fix" ]; then swift format format --in-place --recursive "${paths[@]}"; fi
swift format lint --strict --recursive "${paths[@]}"
echo "swift-format: clean"
