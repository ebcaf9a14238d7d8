"""Writes the seed corpus of each fuzz target (fuzz/seeds/<target>/) from the repository's own test data:
the recorded streams in core/tests/fixtures and the contract cases in core/tests/contract. Run by
scripts/fuzz.sh; the seeds are generated, not committed."""

import json
import os
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
fixtures = os.path.join(root, "core", "tests", "fixtures")
contract = os.path.join(root, "core", "tests", "contract")
out = os.path.join(root, "fuzz", "seeds")


def write(target, name, data):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


# The Content-Type index each fixture's framing wants in the report target (see fuzz/src/lib.rs).
CT = {".sse": 0, ".ndjson": 2, ".txt": 4}

for name in sorted(os.listdir(fixtures)):
    path = os.path.join(fixtures, name)
    ext = os.path.splitext(name)[1]
    if ext not in CT:
        continue
    body = open(path, "rb").read()[:16384]
    for i, seed in enumerate([b"\x01\x02\x03\x04", b"\x05\x06\x07\x08"]):
        write("wire", f"{name}.{i}", bytes([CT[ext] // 2 + (i * 0x40)]) + seed + body)
        # Content type, status 200, complete; plain, then bursty with headers and probes.
        flags = [0, 0x20 | 0x04 | 0x10][i]
        write("report", f"{name}.{i}", bytes([CT[ext], 0, 0, flags]) + seed + body)
    for n, line in enumerate(body.splitlines()):
        line = line.strip()
        if line.startswith(b"data:"):
            line = line[5:].strip()
        if line.startswith(b"{"):
            write("dialects", f"{name}.{n}", bytes([n % 10]) + line)

write("dialects", "models", b"\x00" + json.dumps({"object": "list", "data": [{"id": f"m-{i}"} for i in range(20)]}).encode())

for name in sorted(os.listdir(os.path.join(contract, "golden"))):
    golden = open(os.path.join(contract, "golden", name), "rb").read()
    write("import", f"report-{name}", golden)
    try:
        case = json.load(open(os.path.join(contract, "inputs", name)))
    except (OSError, ValueError):
        continue
    if case.get("kind") == "report":
        # A one-run export: the case's trace and the report the code made from it.
        export = {"streamscope_export": 1, "config": None, "report": json.loads(golden),
                  "runs": [{"side": "A", "trace": case["trace"]}]}
        write("import", f"export-{name}", json.dumps(export).encode())

print(f"seeds written to {out}", file=sys.stderr)
