"""Issue 33, point 4: live seats beside a league (section hns-league of bench/suite.py).

The issue-12 run (hschool-load hns-seats: 100 default matches x 6 scripted /player seats at 24 Hz,
warm-up, then a window) on a fresh server, once alone and once with a league playing beside it: a
league of two built-ins (burrow vs scatter, certification, 1,000 matches: it outlasts the run) is
started through POST /api/hns/leagues just before the load, its progress read before and after,
then it is stopped. Alternated, REPEATS pairs. The figure is the live seats' frame-interval p99
(target <= 50 ms with the league) and the league matches the server played meanwhile. Figures, not
tests: tests/integration/hns/leagues_test.cpp checks the behaviour.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

from arena_v5 import last_json  # the last JSON line of a run's output

MATCHES = 100
SECONDS = 15
WARMUP_S = 7
REPEATS = 3
SLACK_S = 180
TARGET_P99_MS = 50.0
LEAGUE = {"entrants": [{"name": "burrow", "kind": "builtin:burrow"}, {"name": "scatter", "kind": "builtin:scatter"}],
          "matches": 1000, "variant": "certification", "seed": 1}


def rest(port, method, path, body=None, timeout=10):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as r:
            text = r.read().decode()
            return r.status, json.loads(text) if text else None
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(errors="replace")
    except OSError as e:
        return 0, str(e)


def played(port, league_id):
    status, body = rest(port, "GET", f"/api/hns/leagues/{league_id}")
    return body["progress"]["played"] if status == 200 else None


def run_one(server_class, build, mods, load_binary, with_league, quick):
    seconds = 6 if quick else SECONDS
    server = server_class(build, mods, ["--hns-max-matches", "200"])
    try:
        out = {"league": with_league}
        league_id = None
        if with_league:
            status, body = rest(server.port, "POST", "/api/hns/leagues", LEAGUE)
            if status != 201:
                return {"league": True, "error": f"POST /api/hns/leagues: {status} {body}"}
            league_id = body["id"]
        started = time.monotonic()
        before = played(server.port, league_id) if league_id else None
        cmd = [load_binary, "hns-seats", "--url", f"ws://127.0.0.1:{server.port}", "--server-pid", str(server.pid), "--json-only",
               "--matches", str(MATCHES), "--seconds", str(seconds), "--warmup", str(WARMUP_S)]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + WARMUP_S + SLACK_S)
        out.update(last_json(proc.stdout) or {"error": f"no JSON from {' '.join(cmd)}: {proc.stderr[-500:]}"})
        if league_id:
            after = played(server.port, league_id)
            elapsed = time.monotonic() - started
            out["league_matches"] = (after or 0) - (before or 0)
            out["league_matches_per_s"] = out["league_matches"] / elapsed if elapsed > 0 else 0.0
            status, body = rest(server.port, "GET", f"/api/hns/leagues/{league_id}")
            out["league_state"] = body.get("state") if status == 200 else status
            rest(server.port, "DELETE", f"/api/hns/leagues/{league_id}")
        out["loadavg_1m_at_end"] = os.getloadavg()[0]
        return out
    finally:
        server.stop()


# 200 certification matches of two built-ins: issue 33 point 4 asked for <= 60 s, issue 42 point 6 for <= 1.5 s.
HEADLESS = {"matches": 200, "jobs": 2, "target_s": 1.5}


def run_headless(build, quick):
    """hschool-hns league, headless: its wall time for 200 certification matches (burrow vs scatter)."""
    out = tempfile.mkdtemp(prefix="hschool-bench-league-")
    matches = 20 if quick else HEADLESS["matches"]
    cmd = [os.path.join(build, "tools", "hns", "hschool-hns"), "league", "--entrant", "burrow=builtin:burrow",
           "--entrant", "scatter=builtin:scatter", "--matches", str(matches), "--variant", "certification",
           "--jobs", str(HEADLESS["jobs"]), "--seed", "1", "--out", out]
    print(f"hns-league: headless, {matches} certification matches, --jobs {HEADLESS['jobs']} ...", file=sys.stderr)
    started = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    seconds = time.monotonic() - started
    shutil.rmtree(out, ignore_errors=True)
    return {"matches": matches, "jobs": HEADLESS["jobs"], "seconds": seconds, "exit": proc.returncode,
            "loadavg_1m": os.getloadavg()[0]}


def run_hns_league(server_class, build, mods, load_binary, quick=False):
    headless = run_headless(build, quick)
    runs = []
    for i in range(1 if quick else REPEATS):
        order = (False, True) if i % 2 == 0 else (True, False)
        for with_league in order:
            what = "with a league beside them" if with_league else "alone"
            print(f"hns-league: {MATCHES} default matches x 6 seats, {what} ({i + 1}) ...", file=sys.stderr)
            runs.append(run_one(server_class, build, mods, load_binary, with_league, quick))
    return {"runs": runs, "headless": headless}


def hns_league_table(result):
    g = lambda r, k: r.get(k, 0.0) or 0.0  # noqa: E731
    rows = ["\nissue 33: live seats beside a league (fresh server per run; 100 default matches x 6 scripted seats, 24 Hz)"]
    h = result.get("headless") or {}
    if h:
        rows.append(f"  headless: {h['matches']} certification matches of two built-ins, --jobs {h['jobs']}: {h['seconds']:.2f} s "
                    f"(exit {h['exit']}, load average {h['loadavg_1m']:.1f}) [target <= {HEADLESS['target_s']:.1f} s for 200: "
                    f"{'met' if h['exit'] == 0 and h['seconds'] <= HEADLESS['target_s'] else 'NOT met'}]")
    for r in result.get("runs", []):
        label = "with league" if r.get("league") else "alone      "
        if "error" in r:
            rows.append(f"  {label}: error {r['error']}")
            continue
        p99 = g(r, "interval_ms_p99")
        line = (f"  {label}: frame interval ms p50 {g(r, 'interval_ms_p50'):.1f} p99 {p99:.1f} p99.9 {g(r, 'interval_ms_p999'):.1f} "
                f"max {g(r, 'interval_ms_max'):.1f}; >50 ms {100 * g(r, 'share_over_50ms'):.2f} %; server CPU {g(r, 'server_cpu_pct'):.1f} %; "
                f"load average {g(r, 'loadavg_1m_at_start'):.1f} -> {g(r, 'loadavg_1m_at_end'):.1f}")
        if r.get("league"):
            line += f"; league matches {r.get('league_matches')} ({g(r, 'league_matches_per_s'):.1f}/s), {r.get('league_state')}"
            line += f" [target p99 <= {TARGET_P99_MS:.0f} ms: {'met' if 0 < p99 <= TARGET_P99_MS else 'NOT met'}]"
        rows.append(line)
    return "\n".join(rows)
