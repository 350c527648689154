#!/usr/bin/env bash
# The HTML report as a person sees it: `kernel-lab report` draws tests/fixtures/bench-report.json,
# headless Chromium renders the page; the screenshot must not be blank, and the page Chromium
# built must hold one roofline point per result with a rate and an intensity, both axes, the four
# roofs and every gate. The SVG files must parse as XML. Control: a blank page's screenshot must
# be judged blank. The page, its charts and the screenshot stay in KL_REPORT_OUT.
# shellcheck source=tests/ci/lib.sh
. "$(dirname "$0")/lib.sh"
: "${KL_PROGRAM:?set KL_PROGRAM to the kernel-lab binary}"
: "${KL_REPORT_OUT:?set KL_REPORT_OUT to the directory that keeps the page and its screenshot}"
checks=$KL_SOURCE_DIR/tests/ci/report_checks.py
fixture=$KL_SOURCE_DIR/tests/fixtures/bench-report.json

chromium=${KL_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
[ -x "$chromium" ] || { echo "chromium not found: install the Debian package chromium (.ci/run does)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "python3 not found: it decodes the screenshot" >&2; exit 1; }

rm -rf "$KL_REPORT_OUT"
mkdir -p "$KL_REPORT_OUT"
page=$KL_REPORT_OUT/report.html
run_captured "$KL_PROGRAM" report "$fixture" --html "$page" --svg "$KL_REPORT_OUT/svg"
check "kernel-lab report writes the page: exit 0" equals "$status" 0 || printf '%s\n' "$out" >&2
check "...and says what it read" contains "$out" "16 results, 4 gates \(NVIDIA H100 80GB HBM3, commit fixture\)"

run_captured python3 "$checks" xml "$KL_REPORT_OUT"/svg/*.svg
check "every SVG file parses as XML" equals "$status" 0 || printf '%s\n' "$out" >&2
check "...six of them: the roofline, four ladders, one sweep" contains "$out" "^6 file\(s\) parse as XML$"

# render ARGS...: headless Chromium with a throwaway profile (root needs --no-sandbox).
render() {
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --user-data-dir="$scratch/profile" --window-size=1200,2600 "$@" 2>>"$scratch/chromium.log"
}
render --screenshot="$KL_REPORT_OUT/screenshot.png" "file://$page" >/dev/null
run_captured python3 "$checks" png "$KL_REPORT_OUT/screenshot.png"
check "the screenshot is not blank" equals "$status" 0 || { printf '%s\n' "$out" >&2; tail -20 "$scratch/chromium.log" >&2; }
printf '<!DOCTYPE html><html><body></body></html>\n' >"$scratch/blank.html"
render --screenshot="$scratch/blank.png" "file://$scratch/blank.html" >/dev/null
run_captured python3 "$checks" png "$scratch/blank.png"
check "control: a blank page's screenshot is judged blank" equals "$status" 1

dom=$KL_REPORT_OUT/dom.html
render --dump-dom "file://$page" >"$dom"
points=$(grep -o '<circle class="point"' "$dom" | wc -l)
expected=$(python3 "$checks" points "$fixture")
check "one roofline point per result with a rate and an intensity" equals "$points" "$(printf '%s\n' "$expected" | wc -l)"
while read -r key; do
  check "...a point for $key" contains "$(cat "$dom")" "<circle class=\"point\" data-key=\"$key\""
done < <(printf '%s\n' "$expected")
for roof in dram fp32 fp16_tensor int32; do
  check "the $roof roof is drawn" contains "$(cat "$dom")" "data-roof=\"$roof\""
done
check "both axes are drawn" equals "$(grep -c -e 'class="axis x"' -e 'class="axis y"' "$dom" | tr -d ' ')" \
  "$(grep -c -e 'class="axis x"' -e 'class="axis y"' "$page" | tr -d ' ')"
check "...the roofline's two axes among them" contains "$(cat "$dom")" "attained GOP/s"
check "every gate is in the table" equals "$(grep -o '<tr class="gate status-' "$dom" | wc -l)" 4
check "the GPU, commit and date head the page" contains "$(cat "$dom")" "<dd id=\"commit\">fixture</dd>"
check "the page fetches nothing" lacks "$(cat "$page")" "src=|href=|@import|url\(http|<link|<script"

echo "screenshot: $KL_REPORT_OUT/screenshot.png"
finish
