#!/usr/bin/env python3
"""Ratio upper bound / exact compare of ArcPGrowthBenchmark, with 99.9 % intervals, from JMH JSON files.

Usage: python3 bench/scripts/arcp_ratio_intervals.py FILE.json...  (one JMH run per file, both params in it)

For each file: both scores with JMH's 99.9 % interval, the flushes and compares per allocation (secondary
results), the ratio of the means, and two 99.9 % intervals for it:
- "from the score intervals": [lower(upper) / upper(exact), upper(upper) / lower(exact)], which holds whenever
  both score intervals hold (so at least 99.8 % joint coverage, in practice more);
- "Fieller": the set of r with (m_u - r m_e)^2 <= t^2 (se_u^2 + r^2 se_e^2), the measured iterations of the two
  scores treated as independent samples, t the two-sided 99.9 % Student quantile at n - 1 degrees of freedom
  that JMH used for its score error (recovered as error / (sd / sqrt(n)); both scores must have the same n).
The iterations come from one fork each, so neither interval covers variation between JVMs.
"""
import json
import math
import sys


def summarize(path):
    runs = {}
    for entry in json.load(open(path)):
        runs[str(entry.get("params", {}).get("exactCompare"))] = entry
    if set(runs) != {"false", "true"}:
        sys.exit(f"FILE {path}: must hold ArcPGrowthBenchmark's exactCompare=false and exactCompare=true, "
                 f"had exactCompare values {sorted(runs)}")
    threads = runs["false"]["threads"]
    stats = {}
    for key, entry in runs.items():
        pm = entry["primaryMetric"]
        raw = [x for fork in pm["rawData"] for x in fork]
        mean = sum(raw) / len(raw)
        sd = math.sqrt(sum((x - mean) ** 2 for x in raw) / (len(raw) - 1))
        sec = entry["secondaryMetrics"]
        allocations = sec["allocations"]["score"]
        stats[key] = dict(mean=mean, se=sd / math.sqrt(len(raw)), n=len(raw), ci=pm["scoreConfidence"],
                          score=pm["score"], error=pm["scoreError"],
                          flushed=sec["bucketsFlushed"]["score"] / allocations,
                          compares=sec["compareCalls"]["score"] / allocations)
        print(f"{path} t={threads} exactCompare={key}: {pm['score']:.1f} ± {pm['scoreError']:.1f} ns/op "
              f"[{pm['scoreConfidence'][0]:.1f}..{pm['scoreConfidence'][1]:.1f}], n={len(raw)}, "
              f"buckets flushed/allocation {stats[key]['flushed']:.3f}, compares/allocation "
              f"{stats[key]['compares']:.3f}")
    u, e = stats["false"], stats["true"]
    ratio = u["score"] / e["score"]
    lo_ci, hi_ci = u["ci"][0] / e["ci"][1], u["ci"][1] / e["ci"][0]
    if u["n"] != e["n"]:
        sys.exit(f"FILE {path}: both scores must have the same iteration count, had {u['n']} and {e['n']}")
    q = u["error"] / u["se"]
    a = e["mean"] ** 2 - q ** 2 * e["se"] ** 2
    b = -2 * u["mean"] * e["mean"]
    c = u["mean"] ** 2 - q ** 2 * u["se"] ** 2
    disc = b * b - 4 * a * c
    if a <= 0 or disc < 0:
        fieller = "unbounded (the exact compare's mean is not distinguishable from 0)"
    else:
        fieller = f"[{(-b - math.sqrt(disc)) / (2 * a):.3f}..{(-b + math.sqrt(disc)) / (2 * a):.3f}]"
    print(f"{path} t={threads} upper/exact {ratio:.3f}, 99.9 % from the score intervals "
          f"[{lo_ci:.3f}..{hi_ci:.3f}], Fieller 99.9 % {fieller} (t={q:.3f})")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: arcp_ratio_intervals.py FILE.json...")
    for f in sys.argv[1:]:
        summarize(f)
