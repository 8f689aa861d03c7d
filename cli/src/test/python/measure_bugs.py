#!/usr/bin/env python3
"""Measures which traces catch each planted port bug of arcport.py.

For every trace TRACE_DIR/NAME.ops with an expected output EXPECTED_DIR/NAME.jsonl (written by
`java -jar cli/target/arc.jar conform TRACE --headers -o NAME.jsonl`), it runs the clean port and then the port with
each bug of arcport.BUGS switched on, and compares the port's lines with the expected ones by value, as `arc verify`
does (the header's `trace` path aside). A bug is caught by a trace with headers when some line differs or the port
fails; caught in the plain output when a line differs with the `headers` lists left out of both (the plain output is
the --headers output without those lists and with "headers": false in line 1, which both sides share here).

Usage: measure_bugs.py TRACE_DIR EXPECTED_DIR [NAME...]    (prints one TSV row per bug: bug, headers, plain)
"""

import io
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import arcport  # noqa: E402


def parsed(lines):
    out = [json.loads(line) for line in lines]
    out[0].pop("trace", None)
    return out


def first_divergence(expected, actual_text):
    """@return (first line differing with headers, first line differing without them), None where none."""
    actual = actual_text.splitlines()
    with_h = without_h = None
    for i in range(max(len(expected), len(actual))):
        if i >= len(expected) or i >= len(actual):
            return with_h or i + 1, without_h or i + 1
        a = json.loads(actual[i])
        if i == 0:
            a.pop("trace", None)
        e = expected[i]
        if e != a:
            with_h = with_h or i + 1
            if {k: v for k, v in e.items() if k != "headers"} != {k: v for k, v in a.items() if k != "headers"}:
                return with_h, i + 1
    return with_h, without_h


def run_port(trace, bug):
    arcport._active_bug = bug
    out = io.StringIO()
    try:
        arcport.run(trace, out, True)
    except Exception as e:  # a planted bug may crash the port: its output ends early
        out.write(json.dumps({"port_error": repr(e)}) + "\n")
    return out.getvalue()


def main(argv):
    trace_dir, expected_dir = argv[0], argv[1]
    names = argv[2:] or sorted(f[:-6] for f in os.listdir(expected_dir) if f.endswith(".jsonl"))
    caught = {b: ([], []) for b in [None] + list(arcport.BUGS)}
    for name in names:
        with open(os.path.join(expected_dir, name + ".jsonl"), encoding="utf-8") as f:
            expected = parsed(f.read().splitlines())
        trace = os.path.join(trace_dir, name + ".ops")
        for b in caught:
            with_h, without_h = first_divergence(expected, run_port(trace, b))
            if with_h:
                caught[b][0].append("%s@%d" % (name, with_h))
            if without_h:
                caught[b][1].append("%s@%d" % (name, without_h))
    print("bug\ttraces catching it with --headers (trace@first divergent line)\tplain output")
    for b, (with_h, without_h) in caught.items():
        print("%s\t%d: %s\t%d: %s" % (b or "(clean port)", len(with_h), " ".join(with_h), len(without_h),
                                     " ".join(without_h)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
