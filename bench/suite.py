#!/usr/bin/env python3
"""The benchmark suite behind `make bench`: microbenchmarks, the socket floor, start-up time and a
bounded load suite against fresh servers on free loopback ports. Writes results.json and prints
every figure beside its target. Figures only: nothing here fails on timing."""
import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

HEALTH_POLL_S = 0.002          # start-up is measured to a few ms
HEALTH_LIMIT_S = 10            # a server that is not healthy by then is broken, not slow
STOP_GRACE_S = 8               # SIGTERM, then SIGKILL after this
LOAD_SLACK_S = 90              # ramp and teardown on top of warm-up + window
MICRO_MIN_TIME = "0.2"         # seconds per microbenchmark: enough for stable means, bounded total
FLOOR_SECONDS = 3
FLOOR_SMALL = {"pairs": 2000, "bytes": 17}   # a Clock (15 B) in a 2-byte WebSocket header
FLOOR_LARGE = {"pairs": 500, "bytes": 9216}  # ~9 KB: an arena snapshot of ~440 entities

# (scenario, clients, seconds): the full suite stays under five minutes on two cores.
FULL_RUNS = [
    ("schools", 100, 5), ("schools", 500, 5), ("schools", 1000, 8), ("schools", 2000, 8), ("schools", 6000, 8),
    ("schools", 10000, 6),  # past the floor's ceiling (~8,000 on two cores with the load generator): where it breaks
    ("arena", 100, 5), ("arena", 200, 8), ("arena", 500, 8),
    ("idle", 100, 3), ("idle", 1000, 3), ("idle", 10000, 3),
]
QUICK_RUNS = [("schools", 1000, 4), ("arena", 200, 4), ("idle", 1000, 2)]

TARGETS = {
    "schools_hz": 20, "arena_hz": 20, "delivered_share": 0.99, "schools_tick_p99_ms": 5.0,
    "arena_tick_p99_ms": 1.0, "cpu_per_frame_vs_floor": 1.3, "rtt_p99_ms": 5.0,
    "idle_rss_per_client_bytes": 16 * 1024, "health_ms": 200.0,
}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_status(port, path, timeout=0.5):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=timeout) as r:
            return r.status
    except Exception:
        return 0


class Server:
    """A fresh hschool-server on a free port with a temporary database."""

    def __init__(self, build, mods):
        self.dir = tempfile.TemporaryDirectory(prefix="hschool-bench-")
        self.port = free_port()
        self.log = open(os.path.join(self.dir.name, "server.log"), "w")
        cmd = [os.path.join(build, "hschool-server"), "--address", "127.0.0.1", "--port", str(self.port),
               "--data", os.path.join(self.dir.name, "bench.db"), "--mods", mods, "--log-level", "warn"]
        started = time.monotonic()
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT)
        self.health_ms = None
        while time.monotonic() - started < HEALTH_LIMIT_S and self.proc.poll() is None:
            if http_status(self.port, "/health") == 200:
                self.health_ms = 1000 * (time.monotonic() - started)
                break
            time.sleep(HEALTH_POLL_S)
        if self.health_ms is None:
            self.stop()
            raise RuntimeError(f"server did not become healthy; log in {self.log.name}")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(STOP_GRACE_S)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        self.dir.cleanup()


def run_micro(build):
    out = os.path.join(build, "micro.json")
    subprocess.run([os.path.join(build, "bench", "hschool-micro"), f"--benchmark_min_time={MICRO_MIN_TIME}",
                    "--benchmark_format=console", f"--benchmark_out={out}", "--benchmark_out_format=json"],
                   check=True, stdout=sys.stderr)
    with open(out) as f:
        data = json.load(f)
    rows = {}
    for b in data["benchmarks"]:
        scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3}[b.get("time_unit", "ns")]
        row = {"cpu_us": b["cpu_time"] * scale, "real_us": b["real_time"] * scale}
        for k in ("frame_bytes", "entities", "players", "ns_per_outbox"):
            if k in b:
                row[k] = b[k]
        rows[b["name"]] = row
    return rows


def run_floor(build, pairs, size):
    out = subprocess.run([os.path.join(build, "bench", "hschool-floor"), "--pairs", str(pairs), "--bytes", str(size),
                          "--seconds", str(FLOOR_SECONDS)], check=True, capture_output=True, text=True, timeout=60)
    return json.loads(out.stdout.strip().splitlines()[-1])


def run_load(build, mods, scenario, clients, seconds, threads):
    server = Server(build, mods)
    try:
        cmd = [os.path.join(build, "tools", "load", "hschool-load"), scenario, "--url", f"ws://127.0.0.1:{server.port}",
               "--clients", str(clients), "--seconds", str(seconds), "--server-pid", str(server.proc.pid),
               "--threads", str(threads), "--json-only"]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + LOAD_SLACK_S)
        lines = [l for l in out.stdout.splitlines() if l.startswith("{")]
        result = json.loads(lines[-1]) if lines else {"scenario": scenario, "clients": clients, "error": out.stderr[-500:]}
        result["health_ms"] = server.health_ms
        return result
    finally:
        server.stop()


def verdict(ok):
    return "met" if ok else "NOT met"


def targets_table(results):
    """(target, figure, verdict) rows; a missing run is reported, not guessed."""
    rows = []
    floor_small = results["floor"]["small"]["send_cpu_us_per_frame"]
    floor_large = results["floor"]["large"]["send_cpu_us_per_frame"]
    by = {(r["scenario"], r["clients"]): r for r in results["load"]}

    def add(name, figure, ok):
        rows.append({"target": name, "figure": figure, "verdict": verdict(ok) if ok is not None else "not run"})

    s = by.get(("schools", 6000))
    if s:
        add("schools 6000 watchers at 20 Hz, every client >= 99 % of clocks",
            f"{s['connected']} connected, {s['clients_at_99pct']} at >=99 %, p1 {s['frames_hz_p1']:.2f} Hz, "
            f"expected {s['expected_hz']:.0f} Hz", s["connected"] == 6000 and s["clients_at_99pct"] == 6000
            and s["expected_hz"] == TARGETS["schools_hz"])
        add("schools 6000: server tick p99 <= 5 ms", (f"p99 {s['tick_ms_p99']:.3f} ms, {100 * s['tick_share_le_5ms']:.2f} % <= 5 ms" if "tick_ms_p99" in s
             else "not measured (/metrics did not answer)"),
            s.get("tick_ms_p99", 1e9) <= TARGETS["schools_tick_p99_ms"])
        ratio = s.get("server_cpu_us_per_frame", 0) / floor_small
        add("schools 6000: server CPU per delivered frame <= 1.3 x floor (17 B)",
            f"{s.get('server_cpu_us_per_frame', 0):.2f} us / {floor_small:.2f} us = {ratio:.2f} x", ratio <= TARGETS["cpu_per_frame_vs_floor"])
    else:
        add("schools 6000 watchers", "-", None)
    a = by.get(("arena", 500))
    if a:
        add("arena 500 players at 20 Hz, >= 99 % snapshots (every client)",
            f"{a['connected']} connected, {a['clients_at_99pct']} at >=99 %, delivered {100 * a['delivered_share']:.2f} %",
            a["connected"] == 500 and a["clients_at_99pct"] == 500 and a["expected_hz"] == TARGETS["arena_hz"])
        micro = results["micro"].get("arena_step_and_encode/500", {}).get("cpu_us")
        # Measured inside the loaded server (hschool_arena_simulate_seconds); the whole wake-up,
        # which also drains 750 input commands and hands the frame to the network threads, beside it.
        add("arena 500: simulate-and-encode p99 <= 1 ms (in the server, under load)",
            f"p99 {a.get('sim_ms_p99', float('nan')):.3f} ms, {100 * a.get('sim_share_le_1ms', 0):.2f} % <= 1 ms; "
            f"whole wake-up p99 {a.get('tick_ms_p99', float('nan')):.3f} ms; "
            f"micro step+capture+encode {micro if micro is not None else float('nan'):.1f} us",
            a.get("sim_ms_p99", 1e9) <= TARGETS["arena_tick_p99_ms"])
        ratio = a.get("server_cpu_us_per_frame", 0) / floor_large
        # Each snapshot sent comes with 1.5 inputs received (30 Hz in, 20 Hz out): the kernel alone
        # charges a send of 9 KB plus 1.5 receives of a small frame per delivered snapshot.
        protocol_floor = floor_large + 1.5 * results["floor"]["small"]["recv_cpu_us_per_frame"]
        add("arena 500: server CPU per delivered frame <= 1.3 x floor (9 KB)",
            f"{a.get('server_cpu_us_per_frame', 0):.2f} us / {floor_large:.2f} us = {ratio:.2f} x; "
            f"against send + 1.5 input receives ({protocol_floor:.2f} us): "
            f"{a.get('server_cpu_us_per_frame', 0) / protocol_floor:.2f} x", ratio <= TARGETS["cpu_per_frame_vs_floor"])
    else:
        add("arena 500 players", "-", None)
    a2 = by.get(("arena", 200))
    if a2:
        add("Ping->Pong p99 <= 5 ms with 200 arena players",
            f"p50 {a2['rtt_ms_p50']:.3f} ms, p99 {a2['rtt_ms_p99']:.3f} ms, max {a2['rtt_ms_max']:.3f} ms",
            a2["pongs"] > 0 and a2["rtt_ms_p99"] <= TARGETS["rtt_p99_ms"])
    else:
        add("Ping->Pong with 200 arena players", "-", None)
    i = by.get(("idle", 10000))
    if i:
        per = i.get("server_rss_per_client_bytes", 1e12)
        add("<= 16 KiB server RSS per idle connection at 10000", f"{i['connected']} connected, {per / 1024:.2f} KiB each",
            i["connected"] == 10000 and per <= TARGETS["idle_rss_per_client_bytes"])
    else:
        add("idle 10000", "-", None)
    health = [r["health_ms"] for r in results["load"] if r.get("health_ms") is not None] + results["startup_ms"]
    add("/health 200 within 200 ms of launch", f"max {max(health):.1f} ms over {len(health)} launches, median "
        f"{sorted(health)[len(health) // 2]:.1f} ms", max(health) <= TARGETS["health_ms"])
    return rows


def scaling_tables(results):
    floors = {"schools": results["floor"]["small"]["send_cpu_us_per_frame"], "idle": None,
              "arena": results["floor"]["large"]["send_cpu_us_per_frame"]}
    lines = []
    for scenario in ("schools", "arena", "idle"):
        runs = sorted((r for r in results["load"] if r["scenario"] == scenario), key=lambda r: r["clients"])
        if not runs:
            continue
        lines.append(f"\n{scenario}: scaling")
        lines.append(f"  {'N':>6} {'conn':>6} {'fail':>5} {'CPU %':>7} {'RSS MiB':>8} {'deliv/s':>9} {'Hz p50':>7} {'Hz p1':>7} "
                     f"{'gaps':>6} {'tick p99':>9} {'rtt p99':>8} {'us/frame':>9} {'x floor':>8} {'load %':>7}")
        for r in runs:
            per = r.get("server_cpu_us_per_frame", 0)
            ratio = per / floors[scenario] if floors[scenario] and per else 0
            lines.append(f"  {r['clients']:>6} {r.get('connected', 0):>6} {r.get('failed', 0):>5} {r.get('server_cpu_pct', 0):>7.1f} "
                         f"{r.get('server_rss_kib', 0) / 1024:>8.1f} {r.get('delivered_hz_total', 0):>9.0f} "
                         f"{r.get('frames_hz_p50', 0):>7.2f} {r.get('frames_hz_p1', 0):>7.2f} {r.get('tick_gaps', 0):>6} "
                         f"{r.get('tick_ms_p99', 0):>8.3f}m {r.get('rtt_ms_p99', 0):>7.2f}m {per:>9.2f} {ratio:>8.2f} {r.get('load_cpu_pct', 0):>7.1f}")
    return "\n".join(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--build", default="build/bench")
    p.add_argument("--mods", default="mods")
    p.add_argument("--out", default=None)
    p.add_argument("--quick", action="store_true", help="one short run per scenario")
    p.add_argument("--skip-micro", action="store_true")
    p.add_argument("--threads", type=int, default=1, help="hschool-load threads")
    p.add_argument("--only", default=None, help="comma-separated scenario:clients pairs to run, e.g. schools:6000,arena:200")
    args = p.parse_args()
    out = args.out or os.path.join(args.build, "results.json")
    started = time.monotonic()
    results = {"host": {"cpus": os.cpu_count(), "uname": " ".join(os.uname())}, "targets": TARGETS}

    results["micro"] = {} if args.skip_micro else run_micro(args.build)
    print("floor ...", file=sys.stderr)
    results["floor"] = {"small": run_floor(args.build, FLOOR_SMALL["pairs"], FLOOR_SMALL["bytes"]),
                        "large": run_floor(args.build, FLOOR_LARGE["pairs"], FLOOR_LARGE["bytes"])}
    startup = []
    for _ in range(3):
        server = Server(args.build, args.mods)
        startup.append(server.health_ms)
        server.stop()
    results["startup_ms"] = startup

    runs = QUICK_RUNS if args.quick else FULL_RUNS
    if args.only:
        wanted = {(s, int(n)) for s, n in (x.split(":") for x in args.only.split(","))}
        runs = [r for r in FULL_RUNS if (r[0], r[1]) in wanted] or [(s, n, 8) for s, n in wanted]
    results["load"] = []
    for scenario, clients, seconds in runs:
        print(f"load {scenario} {clients} clients {seconds} s ...", file=sys.stderr)
        results["load"].append(run_load(args.build, args.mods, scenario, clients, seconds, args.threads))
    results["targets_table"] = targets_table(results)
    results["elapsed_s"] = time.monotonic() - started
    with open(out, "w") as f:
        json.dump(results, f, indent=1)

    print("\nmicrobenchmarks (CPU per iteration)")
    for name, row in results["micro"].items():
        print(f"  {name:<44} {row['cpu_us']:>12.3f} us")
    fs, fl = results["floor"]["small"], results["floor"]["large"]
    print(f"\nfloor: {fs['frame_bytes']} B send {fs['send_cpu_us_per_frame']:.3f} us, recv {fs['recv_cpu_us_per_frame']:.3f} us per frame; "
          f"{fl['frame_bytes']} B send {fl['send_cpu_us_per_frame']:.3f} us, recv {fl['recv_cpu_us_per_frame']:.3f} us per frame")
    print(f"start-up to /health 200: {', '.join(f'{x:.1f}' for x in startup)} ms")
    print(scaling_tables(results))
    print("\ntargets")
    for row in results["targets_table"]:
        print(f"  [{row['verdict']:>7}] {row['target']}\n            {row['figure']}")
    print(f"\nwrote {out} in {results['elapsed_s']:.0f} s")


if __name__ == "__main__":
    main()
