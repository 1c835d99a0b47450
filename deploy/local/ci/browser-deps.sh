#!/usr/bin/env bash
# Debian's Chromium for the hosted-page browser tests (driven by playwright-core, which never
# downloads a browser of its own). Installed only when missing; the tests skip with a clear message
# if it cannot be had.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  echo "chromium present: $(chromium --version 2>/dev/null | head -1)"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "chromium missing and not root: skipping its installation" >&2
  exit 1
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
chromium --version | head -1
