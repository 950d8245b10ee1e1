#!/usr/bin/env bats
# SAN: plain build only (tests scripts, not the sanitized C code)
# index.html in a real browser (headless Chromium, from the file system,
# no server): the page renders (screenshot not blank), has the verdict
# table's rows, and every image loads (none broken).  The report has no
# JavaScript; the test adds its own checks in copies of the page.

load ../lib/analysis

setup_file() {
	[ -z "${SAN:-}" ] || return 0
	command -v jq >/dev/null && command -v gnuplot >/dev/null || return 0
	export PAGE_DIR=$BATS_FILE_TMPDIR/results/$GOOD
	mkdir -p "$BATS_FILE_TMPDIR/results"
	cp -r "$AFIX/results/$GOOD" "$BATS_FILE_TMPDIR/results/"
	"$TOP/bin/report.sh" "$PAGE_DIR" >/dev/null
}

setup() {
	skip_under_sanitizers
	need jq jq
	need gnuplot gnuplot-nox
	need chromium chromium
	PROFILE=$(mktemp -d "$BATS_TEST_TMPDIR/profile.XXXXXX")
}

# browser ARG...: headless Chromium, bounded in time, without network or
# background services, with a throw-away profile.
browser() {
	timeout -k 5 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$PROFILE" "$@" 2>"$BATS_TEST_TMPDIR/chromium.err"
}

# with_check PAGE OUT SCRIPT: OUT is PAGE with SCRIPT run after the load
# event, writing its findings into <pre id="check">.
with_check() {
	local page script
	page=$(cat "$1")
	script='<pre id="check"></pre><script>window.addEventListener("load", function () { var out = []; '"$3"'; document.getElementById("check").textContent = out.join("\n"); });</script></body>'
	printf '%s\n' "${page/<\/body>/$script}" >"$2"
}

@test "the page renders: a screenshot of the expected size that is not blank" {
	browser --window-size=1200,1600 --screenshot="$BATS_TEST_TMPDIR/shot.png" "file://$PAGE_DIR/index.html"
	[ "$(png_size "$BATS_TEST_TMPDIR/shot.png")" = 1200x1600 ]
	# Count the non-white pixels of the screenshot in a page of our own
	# (a data: URL, so that the canvas may be read).
	{
		printf '<!DOCTYPE html><html><body><img id="shot" src="data:image/png;base64,'
		base64 -w0 "$BATS_TEST_TMPDIR/shot.png"
		printf '"></body></html>\n'
	} >"$BATS_TEST_TMPDIR/pixels.html"
	with_check "$BATS_TEST_TMPDIR/pixels.html" "$BATS_TEST_TMPDIR/pixels-check.html" \
		'var im = document.getElementById("shot"), c = document.createElement("canvas"); c.width = im.naturalWidth; c.height = im.naturalHeight; var g = c.getContext("2d"); g.drawImage(im, 0, 0); var d = g.getImageData(0, 0, c.width, c.height).data, n = 0; for (var k = 0; k < d.length; k += 4) if (d[k] < 200 || d[k + 1] < 200 || d[k + 2] < 200) n++; out.push("SIZE " + c.width + "x" + c.height); out.push("DARK " + n)'
	run browser --dump-dom "file://$BATS_TEST_TMPDIR/pixels-check.html"
	[[ $output == *"SIZE 1200x1600"* ]]
	dark=$(grep -o 'DARK [0-9]*' <<<"$output" | cut -d' ' -f2)
	# Text, table and plots: well over 1% of the pixels are not white.
	[ "$dark" -gt 19200 ]
}

@test "the page has the verdict table's rows, failures first" {
	run browser --dump-dom "file://$PAGE_DIR/index.html"
	[ "$status" -eq 0 ]
	[ "$(grep -o '<tr class="[a-z]*" id="row-[A-Z0-9.]*"' <<<"$output" | tr '\n' ,)" = \
		'<tr class="xfail" id="row-BUSTED",<tr class="ok" id="row-TREE01",<tr class="ok" id="row-TRIVIAL",' ]
	[[ $output == *'<td class="l verdict">FAILURE</td>'* ]]
}

@test "every image loads (none broken), at the plots' sizes" {
	cp -r "$PAGE_DIR" "$BATS_TEST_TMPDIR/page"
	PAGE_DIR=$BATS_TEST_TMPDIR/page
	with_check "$PAGE_DIR/index.html" "$PAGE_DIR/check.html" \
		'var im = document.images; for (var i = 0; i < im.length; i++) out.push("IMG " + im[i].naturalWidth + "x" + im[i].naturalHeight + " " + im[i].getAttribute("src")); out.push("IMAGES " + im.length)'
	run browser --dump-dom "file://$PAGE_DIR/check.html"
	[ "$status" -eq 0 ]
	[[ $output == *"IMAGES 13"* ]]
	[ "$(grep -c '^IMG \(800x500\|800x700\) plots/' <<<"${output//<pre id=\"check\">/$'\n'}")" -eq 13 ]
	# The check sees a broken image as one: a plot removed is 0x0.
	rm "$PAGE_DIR/plots/TREE01-timeline.png"
	run browser --dump-dom "file://$PAGE_DIR/check.html"
	[[ $output == *"IMG 0x0 plots/TREE01-timeline.png"* ]]
}
