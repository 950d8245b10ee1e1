#!/usr/bin/awk -f
# collapse.awk - the sanitizer reports of console.log files, one line a
# report, for analysis/collapse.jq to count by stack (as the kernel's
# kcsan-collapse.sh counts KCSAN reports):
#
#   FILE<TAB>KIND<TAB>SUMMARY<TAB>STACK
#
# KIND: "ThreadSanitizer: data race", "AddressSanitizer: heap-use-after-free",
# "UndefinedBehaviorSanitizer: runtime error" ...; SUMMARY: the report's
# SUMMARY line without its "SUMMARY: " and folders (or the runtime-error
# line); STACK: the function names of the first 4 frames of the report's
# first two stacks (the access and, for a race, the other access; for
# ASan the free), "a < b < c" each, the two joined by " | ".  Addresses,
# pids, thread numbers and lines are left out, so one bug seen twice is
# one stack.
#
#   awk -f analysis/collapse.awk RESULTS/DATE/*/console.log
BEGIN { OFS = "\t"; inrep = 0 }

function flush() {
	if (inrep)
		print FILENAME, kind, summary, stack[1] (nstack > 1 ? " | " stack[2] : "")
	inrep = 0
}

function start(k) {
	flush()
	inrep = 1; kind = k; summary = k; nstack = 0; nframe = 0; delete stack
}

# A frame: "#N 0xADDR in FUNC FILE" (ASan) or "#N FUNC FILE (obj+0x..)" (TSan).
function frame(line,    n, f, i) {
	n = split(line, f, /[ \t]+/)
	for (i = 1; i <= n; i++) if (f[i] ~ /^#[0-9]+$/) break
	if (f[i + 1] ~ /^0x/ && f[i + 2] == "in") return f[i + 3]
	return f[i + 1]
}

FNR == 1 { flush() }

/^WARNING: ThreadSanitizer: / {
	k = $0; sub(/^WARNING: /, "", k); sub(/ \(pid=[0-9]+\).*$/, "", k)
	start(k); next
}
/^==[0-9]+==ERROR: [A-Za-z]+Sanitizer: / {
	k = $0; sub(/^==[0-9]+==ERROR: /, "", k); sub(/ on (unknown )?address.*$/, "", k); sub(/ \(pid=[0-9]+\).*$/, "", k)
	start(k); next
}
/: runtime error: / {
	start("UndefinedBehaviorSanitizer: runtime error")
	s = $0; sub(/^.*\//, "", s)
	summary = s
	stack[1] = ""
	flush(); next
}
inrep && /^[ \t]+#[0-9]+ / {
	if (nframe == 0) { nstack++ }
	nframe++
	if (nstack <= 2 && nframe <= 4)
		stack[nstack] = stack[nstack] (nframe > 1 ? " < " : "") frame($0)
	next
}
inrep && /^[ \t]*$/ { nframe = 0; next }
inrep && !/^[ \t]+#/ { nframe = 0 }
inrep && /^SUMMARY: / {
	s = $0; sub(/^SUMMARY: /, "", s); gsub(/[^ ]*\//, "", s)
	summary = s
	flush(); next
}
END { flush() }
