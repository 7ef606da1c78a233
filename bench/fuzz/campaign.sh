#!/usr/bin/env bash
# A long fuzzing campaign: every harness in turn for MINUTES (default 60),
# on one core, going on after a finding (FUZZ_KEEP_GOING: libFuzzer's
# -fork=1 with crashes, timeouts and OOMs recorded in build-fuzz/findings/).
# The corpus grows in build-fuzz/corpus/NAME from one campaign to the next.
# The log and the summary go to bench/fuzz/campaign-DATE.log.
#   bench/fuzz/campaign.sh [MINUTES] [HARNESS...]
set -euo pipefail
cd "$(dirname "$0")/../.."
minutes=${1:-60}
shift || true
log="bench/fuzz/campaign-$(date -u +%Y%m%d-%H%M).log"
echo "campaign: ${minutes} min per harness, started $(date -u), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$log"
rc=0
FUZZ_KEEP_GOING=1 scripts/fuzz.sh $((minutes * 60)) "$@" 2>&1 | tee -a "$log" || rc=$?
echo "campaign: ended $(date -u), load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$log"
exit $rc
