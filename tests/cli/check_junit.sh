#!/bin/sh
# cli.junit: kvcheck check --junit FILE writes well-formed JUnit XML (read
# back with python3's xml module), one test case per pair with the right
# failures and errors, the mismatch and the fix in the failure, and file
# names that need escaping (& < > " ' and a control character) kept whole.
# Skips (77) without python3.
set -u
kvcheck=$1
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: cli.junit skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=fixtures/pairs
odd="$tmp/a&b<c>\"d'e$(printf '\001')f.json"
cp $P/glm52-b300-hisparse-mtp/prefill.json "$odd"
"$kvcheck" check -q --junit "$tmp/junit.xml" --pairs \
  "$odd" $P/glm52-b300-hisparse-mtp/decode.json \
  $P/glm52-b300-hisparse-mtp-fixed/prefill.json $P/glm52-b300-hisparse-mtp-fixed/decode.json \
  fixtures/bad/malformed.json $P/hopper-fp8/decode.json >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 3 ] || { echo "FAIL: exit code $rc, expected 3 (a pair could not be checked)"; cat "$tmp/err"; exit 1; }
python3 - "$tmp/junit.xml" "$odd" <<'PY'
import sys
import xml.etree.ElementTree as ET

path, odd = sys.argv[1], sys.argv[2]
root = ET.parse(path).getroot()  # raises on XML that is not well-formed
def check(cond, what):
    if not cond:
        sys.exit("FAIL: " + what)
check(root.tag == "testsuites", "root is <testsuites>")
check((root.get("tests"), root.get("failures"), root.get("errors")) == ("3", "1", "1"), "counts on <testsuites>")
cases = root.findall("./testsuite/testcase")
check(len(cases) == 3, "one <testcase> per pair")
want = odd.replace("\x01", "\\x01") + " -> fixtures/pairs/glm52-b300-hisparse-mtp/decode.json"
check(cases[0].get("name") == want, "the odd file name kept whole: %r" % cases[0].get("name"))
f = cases[0].find("failure")
check(f is not None and f.get("type") == "incompatible", "pair 1 fails")
check("INCOMPATIBLE: prefill writes fp8_raw (576 B/token)" in f.get("message"), "verdict in the message")
check("Fix: add to the prefill launch command: --dsa-prefill-backend" in f.get("message"), "fix in the message")
check("layout               fp8_raw                  fp8_flashmla             DIFFERENT" in f.text, "mismatch table in the text")
check(cases[1].find("failure") is None and cases[1].find("error") is None, "pair 2 passes")
e = cases[2].find("error")
check(e is not None and e.get("type") == "KVC_ERR_CONFIG" and "malformed JSON" in e.get("message"), "pair 3 is an error")
print("junit: 3 test cases, well-formed, escaped, counts right")
PY
