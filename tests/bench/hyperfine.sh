# tests/bench/hyperfine.sh - sourced by benchmarks: median (of "$1" runs)
# wall seconds and mean user + system seconds of a command, "wall cpu",
# through hyperfine (no shell; median_sh: through sh), its JSON kept in
# $D; ratio A B prints A / B.
# Needs D (the benchmark's directory) and PY (python3).
median() {
	hfmedian -N "$@"
}
# median_sh: the same, each command run through sh (a pipe, a redirection).
median_sh() {
	hfmedian "" "$@"
}
hfmedian() {	# hfmedian SHELLOPT RUNS COMMAND...
	opt=$1 runs=$2
	shift 2
	# shellcheck disable=SC2086
	hyperfine $opt --style none --runs "$runs" --export-json "$D/hf.json" \
	    "$@" >/dev/null 2>&1 || { echo nan nan; return; }
	$PY -c 'import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print("%.4f %.4f" % (r["median"], r["user"] + r["system"]))' "$D/hf.json"
}
ratio() {
	$PY -c 'import sys; a, b = map(float, sys.argv[1:]); print("%.1f" % (a / b))' "$1" "$2"
}
