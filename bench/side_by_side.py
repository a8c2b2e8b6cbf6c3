"""Issue 32: the same load against two builds of the server in one sitting, alternated round by
round so a busier minute hurts both alike: arena v1 and v5 at 1,600 players, and 100 live
hide-and-seek matches (6 scripted seats each, 24 Hz). One load generator (the current build's)
drives both servers. `python3 bench/suite.py --build B --baseline-build OLD --sections side-by-side`.
"""
import statistics
import sys

import arena_v5

ARENA_PLAYERS = 1600
ARENA_WARMUP_S = 20
ARENA_WINDOW_S = 10
HNS_MATCHES = 100
HNS_SECONDS = 15
HNS_WARMUP_S = 7
HNS_SLACK_S = 120
ROUNDS = 2          # each build twice per scenario, alternated
QUICK = {"players": 200, "warmup": 5, "window": 5, "matches": 10, "seconds": 6, "rounds": 1}
# The figures compared, each with the direction that is better.
ARENA_FIGURES = (("server_cpu_pct", "lower"), ("tick_ms_p99", "lower"), ("frames_hz_p1", "higher"), ("server_rss_kib", "lower"))
HNS_FIGURES = (("server_cpu_pct", "lower"), ("interval_ms_p99", "lower"), ("match_ticks_per_s_p50", "higher"),
               ("server_rss_mib", "lower"))


def _arena(server_factory, build, mods, load, protocol, q):
    return arena_v5.run_one(server_factory, build, mods, load, protocol, q["players"], q["warmup"], q["window"], 1)


def _hns(run_hns_tool, build, mods, load, q):
    args = ["--matches", str(q["matches"]), "--seconds", str(q["seconds"]), "--warmup", str(HNS_WARMUP_S)]
    return run_hns_tool(build, mods, "hns-seats", args, q["seconds"] + HNS_WARMUP_S + HNS_SLACK_S, load=load)


def run_side_by_side(server_factory, run_hns_tool, build, baseline, mods, load, quick=False):
    q = QUICK if quick else {"players": ARENA_PLAYERS, "warmup": ARENA_WARMUP_S, "window": ARENA_WINDOW_S,
                             "matches": HNS_MATCHES, "seconds": HNS_SECONDS, "rounds": ROUNDS}
    runs = {"arena-v1": {"current": [], "baseline": []}, "arena-v5": {"current": [], "baseline": []},
            "hns-live": {"current": [], "baseline": []}}
    for round_index in range(q["rounds"]):
        # Alternate which build goes first, so neither always meets the warmer (or busier) machine.
        order = (("baseline", baseline), ("current", build)) if round_index % 2 == 0 else (("current", build), ("baseline", baseline))
        for name, tree in order:
            for protocol in (1, 5):
                print(f"side-by-side: {name} arena v{protocol}, {q['players']} players (round {round_index + 1}) ...", file=sys.stderr)
                runs[f"arena-v{protocol}"][name].append(_arena(server_factory, tree, mods, load, protocol, q))
            print(f"side-by-side: {name} hns-live, {q['matches']} matches (round {round_index + 1}) ...", file=sys.stderr)
            runs["hns-live"][name].append(_hns(run_hns_tool, tree, mods, load, q))
    return {"settings": q, "baseline": baseline, "current": build, "runs": runs}


def _median(rows, key):
    values = [r.get(key) for r in rows if isinstance(r.get(key), (int, float))]
    return statistics.median(values) if values else None


def side_by_side_table(result):
    lines = [f"\nside by side (issue 32): {result['current']} against {result['baseline']}, medians of "
             f"{result['settings']['rounds']} alternated runs each; ratio = current / baseline"]
    for scenario, figures in (("arena-v1", ARENA_FIGURES), ("arena-v5", ARENA_FIGURES), ("hns-live", HNS_FIGURES)):
        pair = result["runs"][scenario]
        cells = []
        for key, better in figures:
            now, before = _median(pair["current"], key), _median(pair["baseline"], key)
            if now is None or before is None:
                cells.append(f"{key} n/a")
                continue
            ratio = now / before if before else float("nan")
            cells.append(f"{key} {before:.2f} -> {now:.2f} ({ratio:.3f}x, {better} is better)")
        lines.append(f"  {scenario}: " + "; ".join(cells))
    return "\n".join(lines)
