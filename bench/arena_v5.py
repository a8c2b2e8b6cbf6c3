"""Arena v1 against v5 on the same world and bots (section arena-v5 of bench/suite.py; issue 23).

For each player count both protocols run back to back, each against a fresh server with the default
world (1600 x 900, 12 obstacles): hschool-load arena bots (always moving in one of 8 directions,
changing about once a second); v5 bots send one Input per tick and apply every Frame to a replica,
chain-checked. WARMUP_S first, because spawns cluster and a window then holds most of the field;
then a WINDOW_S window. v5 alone at V5_ALONE players (a v1 snapshot cannot hold them). Figures, not
tests: tests/sim/arena/v5_delta_test.cpp and tests/integration/arena check the behaviour.
"""
import json
import os
import subprocess
import sys
import time

PLAYERS = (400, 800, 1600)
V5_ALONE = 5000
WARMUP_S = 20
WINDOW_S = 10
QUICK = {"players": (400,), "alone": 1600, "warmup": 3, "window": 4}
ALONE_REPLICA_EVERY = 10
SLACK_S = 120  # ramp and teardown on top of warm-up + window
TARGET_PLAYERS = 1600
TARGET_BYTES_SHARE = 0.15   # v5 bytes per client <= 15 % of v1's at 1,600
TARGET_CPU_RATIO = 0.6      # v5 server CPU <= 0.6 x v1's at 1,600
TARGET_MIN_HZ = 19          # every v5 client at >= 19 frames/s at 5,000
KEYS = ("connected", "failed", "frames_hz_p50", "frames_hz_p1", "frames_hz_min", "clients_at_99pct", "chain_errors",
        "clients_with_gaps", "bytes_per_client_s_p50", "server_cpu_pct", "server_rss_kib", "server_hwm_kib", "tick_ms_p99",
        "sim_ms_p99", "rtt_ms_p50", "rtt_ms_p99", "load_cpu_pct", "error")


def last_json(text):
    for line in reversed(text.splitlines()):
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                break
    return None


def run_one(server_factory, build, mods, load, protocol, players, warmup, window, threads, replica_every=1):
    server = server_factory(build, mods)
    try:
        cmd = [load, "arena", "--url", f"ws://127.0.0.1:{server.port}", "--clients", str(players), "--seconds", str(window),
               "--warmup", str(warmup), "--server-pid", str(server.pid), "--threads", str(threads), "--json-only",
               "--protocol", str(protocol)] + (["--replica-every", str(replica_every)] if protocol == 5 else [])
        loadavg = os.getloadavg()[0]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=warmup + window + SLACK_S)
        result = last_json(out.stdout) or {"error": out.stderr[-500:]}
    finally:
        server.stop()
    row = {k: result.get(k) for k in KEYS}
    row.update({"protocol": protocol, "players": players, "loadavg_1m": loadavg, "threads": threads,
                "replica_every": replica_every if protocol == 5 else None})
    return row


def run_arena_v5(server_factory, build, mods, load, quick=False, threads=1):
    q = QUICK if quick else {"players": PLAYERS, "alone": V5_ALONE, "warmup": WARMUP_S, "window": WINDOW_S}
    rows = []
    for players in q["players"]:
        for protocol in (1, 5):
            print(f"arena-v5: protocol {protocol}, {players} players ...", file=sys.stderr)
            rows.append(run_one(server_factory, build, mods, load, protocol, players, q["warmup"], q["window"], threads))
    # 5,000 bots each applying ~900 updates per Frame would take more CPU than the server: every
    # bot checks the chain, one in ALONE_REPLICA_EVERY applies the Frames too.
    print(f"arena-v5: protocol 5 alone, {q['alone']} players ...", file=sys.stderr)
    rows.append(run_one(server_factory, build, mods, load, 5, q["alone"], q["warmup"], q["window"], threads, ALONE_REPLICA_EVERY))
    return {"settings": {"warmup_s": q["warmup"], "window_s": q["window"]}, "rows": rows, "targets": targets(rows, q["alone"])}


def targets(rows, alone):
    by = {(r["protocol"], r["players"]): r for r in rows}
    out = []
    v1, v5 = by.get((1, TARGET_PLAYERS)), by.get((5, TARGET_PLAYERS))
    if v1 and v5 and v1.get("bytes_per_client_s_p50") and v1.get("server_cpu_pct"):
        share = (v5.get("bytes_per_client_s_p50") or 0) / v1["bytes_per_client_s_p50"]
        ratio = (v5.get("server_cpu_pct") or 0) / v1["server_cpu_pct"]
        out.append({"target": f"{TARGET_PLAYERS} players: v5 bytes per client <= {TARGET_BYTES_SHARE:.0%} of v1's",
                    "figure": f"{share:.1%}", "met": share <= TARGET_BYTES_SHARE})
        out.append({"target": f"{TARGET_PLAYERS} players: v5 server CPU <= {TARGET_CPU_RATIO} x v1's",
                    "figure": f"{v5.get('server_cpu_pct') or 0:.1f} % / {v1['server_cpu_pct']:.1f} % = {ratio:.2f} x",
                    "met": ratio <= TARGET_CPU_RATIO})
    a = by.get((5, alone))
    if a:
        ok = a.get("connected") == alone and (a.get("frames_hz_min") or 0) >= TARGET_MIN_HZ and not a.get("chain_errors")
        out.append({"target": f"{alone} v5 players, every client >= {TARGET_MIN_HZ} frames/s",
                    "figure": f"{a.get('connected')} connected, slowest {a.get('frames_hz_min') or 0:.2f} Hz, "
                              f"p1 {a.get('frames_hz_p1') or 0:.2f} Hz, chain errors {a.get('chain_errors')}", "met": ok})
    return out


def fmt(value, spec=".1f"):
    return "-" if value is None else format(value, spec)


def arena_v5_table(result):
    s = result["settings"]
    lines = ["", f"arena-v5: v1 and v5 back to back, default world, {s['warmup_s']} s warm-up, {s['window_s']} s window",
             "  players  v   bytes/client/s  server CPU %  tick p99 ms  RTT p50/p99 ms   Hz p50/min  at 99 %  chain  RSS MiB  load CPU %  load avg"]
    for r in result["rows"]:
        rss = r.get("server_rss_kib")
        lines.append(f"  {r['players']:>7}  {r['protocol']}{'*' if (r.get('replica_every') or 1) > 1 else ' '} {fmt(r.get('bytes_per_client_s_p50'), ',.0f'):>15}  "
                     f"{fmt(r.get('server_cpu_pct')):>12}  {fmt(r.get('tick_ms_p99'), '.2f'):>11}  "
                     f"{fmt(r.get('rtt_ms_p50'), '.2f'):>6}/{fmt(r.get('rtt_ms_p99'), '.1f'):<7}  "
                     f"{fmt(r.get('frames_hz_p50'), '.2f'):>5}/{fmt(r.get('frames_hz_min'), '.2f'):<5}  "
                     f"{fmt(r.get('clients_at_99pct'), 'd') if r.get('clients_at_99pct') is not None else '-':>7}  "
                     f"{fmt(r.get('chain_errors'), 'd') if r.get('chain_errors') is not None else '-':>5}  "
                     f"{fmt(rss and rss / 1024):>7}  {fmt(r.get('load_cpu_pct')):>10}  {r['loadavg_1m']:>8.2f}"
                     + (f"  error: {r['error'][:120]}" if r.get("error") else ""))
    if any((r.get("replica_every") or 1) > 1 for r in result["rows"]):
        lines.append(f"  * every bot checks the chain; one in {ALONE_REPLICA_EVERY} also applies each Frame to a replica")
    for t in result["targets"]:
        lines.append(f"  [{'met' if t['met'] else 'NOT met':>7}] {t['target']}: {t['figure']}")
    return "\n".join(lines)
