"""Issue 41, point 5: the training bridge's speed (section hns-bridge of bench/suite.py).

Decisions per second, each decision `encode`d then `step`ped with watch, as the reference's own
bridge was timed on this box (50 episodes, 2,400 decisions in 4.15 s on one core: 578/s):
  one env     `hschool-hns bridge` on JSON lines, pinned to core 0 (this client on core 1);
  envs        `--envs N --framing binary` on both cores (the client's frames: one per N decisions);
and beside them, from hschool-bridge-bench (no pipes): the episode alone (simulation and driver,
every seat answering watch) on one core and on both (two processes), the same with each
decision's values and mask, and a headless certification match's ticks per second. Targets: one
env >= 5x the reference; envs >= 80 % of the episode alone on both cores. Figures, not tests.
"""
import os
import subprocess
import struct
import sys
import time

REFERENCE_DECISIONS_PER_S = 2400 / 4.15
TARGET_ONE_ENV_X = 5.0
TARGET_ENVS_SHARE = 0.80
EPISODES = 50
DECISIONS = 48
ENVS = 8
ENV_EPISODES = 25
STEP_WATCH = '{"kind":"step","decision_id":%d,"response":"{\\"intent\\":\\"watch\\"}"}\n'


def tool(build):
    return os.path.join(build, "tools", "hns", "hschool-hns")


def bench_binary(build):
    return os.path.join(build, "bench", "hschool-bridge-bench")


def pinned(core):
    return ["taskset", "-c", str(core)] if core is not None and shutil_which("taskset") else []


def shutil_which(name):
    from shutil import which
    return which(name)


def last_json(text):
    import json
    for line in reversed(text.strip().splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    return {}


def in_process(build, mode, episodes, core=0):
    out = subprocess.run(pinned(core) + [bench_binary(build), mode, str(episodes)], capture_output=True, text=True, timeout=600)
    return last_json(out.stdout)


def sim_both_cores(build, episodes):
    procs = [subprocess.Popen(pinned(c) + [bench_binary(build), "sim", str(episodes)], stdout=subprocess.PIPE, text=True) for c in (0, 1)]
    figures = [last_json(p.communicate(timeout=600)[0]) for p in procs]
    return {"decisions_per_s": sum(f.get("decisions_per_s", 0.0) for f in figures),
            "decisions_per_cpu_s": sum(f.get("decisions_per_cpu_s", 0.0) for f in figures), "runs": figures}


def json_lines_one_env(build, episodes):
    """The reference's measurement: reset, then per decision encode and step(watch), 50 episodes."""
    bridge = subprocess.Popen(pinned(0) + [tool(build), "bridge"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    if pinned(1):
        os.sched_setaffinity(0, {1})
    try:
        start = time.perf_counter()
        decisions = 0
        for e in range(episodes):
            bridge.stdin.write(('{"kind":"reset","seed":"%d","players":6}\n' % e).encode())
            bridge.stdin.flush()
            bridge.stdout.readline()
            for d in range(DECISIONS):
                bridge.stdin.write(b'{"kind":"encode"}\n' + (STEP_WATCH % d).encode())
                bridge.stdin.flush()
                bridge.stdout.readline()
                answer = bridge.stdout.readline()
                decisions += 1
            if b'"terminal"' not in answer:
                return {"error": "episode %d did not end after %d decisions" % (e, DECISIONS)}
        seconds = time.perf_counter() - start
    finally:
        os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))
        bridge.stdin.close()
        cpu = cpu_seconds_at_exit(bridge)
    return {"episodes": episodes, "decisions": decisions, "seconds": seconds, "decisions_per_s": decisions / seconds,
            "bridge_cpu_s": cpu, "decisions_per_cpu_s": decisions / cpu if cpu else 0.0}


def cpu_seconds_at_exit(process):
    """The bridge's own CPU time (user + system): on a busy box, what one core's worth of it plays."""
    _, _, usage = os.wait4(process.pid, 0)
    process.returncode = 0
    return usage.ru_utime + usage.ru_stime


def binary_envs(build, envs, episodes_per_env):
    """--envs N on both cores: reset all, then step every env with watch (index 0), resetting ended ones."""
    bridge = subprocess.Popen([tool(build), "bridge", "--envs", str(envs), "--framing", "binary", "--threads", "2"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def ask(payload):
        bridge.stdin.write(struct.pack("<I", len(payload)) + payload)
        bridge.stdin.flush()
        (length,) = struct.unpack("<I", bridge.stdout.read(4))
        body = bridge.stdout.read(length)
        if body[0] != 0:
            raise RuntimeError(body[1:].decode())
        return body

    record = 1568
    try:
        started = [0] * envs
        seeds = b"".join(struct.pack("<H", len(s)) + s for s in (b"e%d-0" % e for e in range(envs)))
        start = time.perf_counter()
        ask(struct.pack("<BH", 1, envs) + seeds)
        decisions, done = 0, 0
        step = struct.pack("<BH", 2, envs) + struct.pack("<%dh" % envs, *([0] * envs))
        while done < envs * episodes_per_env:
            body = ask(step)
            decisions += envs
            ended = [e for e in range(envs) if body[4 + e * record] == 1]
            if ended:
                done += len(ended)
                parts = []
                for e in range(envs):
                    if e in ended:
                        started[e] += 1
                        s = b"e%d-%d" % (e, started[e])
                        parts.append(struct.pack("<H", len(s)) + s)
                    else:
                        parts.append(struct.pack("<H", 0xFFFF))
                ask(struct.pack("<BH", 1, envs) + b"".join(parts))
        seconds = time.perf_counter() - start
    finally:
        bridge.stdin.close()
        cpu = cpu_seconds_at_exit(bridge)
    return {"envs": envs, "episodes": done, "decisions": decisions, "seconds": seconds, "decisions_per_s": decisions / seconds,
            "bridge_cpu_s": cpu, "decisions_per_cpu_s": decisions / cpu if cpu else 0.0}


def run_hns_bridge(build, quick):
    episodes = 10 if quick else EPISODES
    out = {"loadavg_1m_at_start": os.getloadavg()[0]}
    out["sim_one_core"] = in_process(build, "sim", episodes)
    out["session_one_core"] = in_process(build, "session", episodes)
    out["lines_one_core"] = in_process(build, "lines", episodes)
    out["match_one_core"] = in_process(build, "match", 2 if quick else 5)
    out["sim_both_cores"] = sim_both_cores(build, episodes)
    out["json_one_env"] = json_lines_one_env(build, episodes)
    out["binary_envs"] = binary_envs(build, ENVS, 5 if quick else ENV_EPISODES)
    out["loadavg_1m_at_end"] = os.getloadavg()[0]
    return out


def hns_bridge_table(r):
    g = lambda d, k: (d or {}).get(k, 0.0) or 0.0  # noqa: E731
    one = g(r.get("json_one_env"), "decisions_per_s")
    envs = g(r.get("binary_envs"), "decisions_per_s")
    both = g(r.get("sim_both_cores"), "decisions_per_s")
    rows = ["\nissue 41: the training bridge, decisions per second (each encoded, then stepped with watch)",
            f"  reference's bridge, one core: {REFERENCE_DECISIONS_PER_S:.0f}/s (2,400 decisions in 4.15 s)",
            f"  episode alone (sim + driver), one core: {g(r.get('sim_one_core'), 'decisions_per_s'):.0f}/s "
            f"({g(r.get('sim_one_core'), 'decisions_per_cpu_s'):.0f} per CPU-second); with values and mask: "
            f"{g(r.get('session_one_core'), 'decisions_per_s'):.0f}/s ({g(r.get('session_one_core'), 'decisions_per_cpu_s'):.0f}); "
            f"JSON lines without pipes: {g(r.get('lines_one_core'), 'decisions_per_s'):.0f}/s ({g(r.get('lines_one_core'), 'decisions_per_cpu_s'):.0f})",
            f"  headless certification match, one core: {g(r.get('match_one_core'), 'ticks_per_s'):.0f} ticks/s "
            f"({g(r.get('match_one_core'), 'ticks_per_cpu_s'):.0f} per CPU-second)",
            f"  hschool-hns bridge, JSON lines, one env, one core: {one:.0f}/s = {one / REFERENCE_DECISIONS_PER_S:.1f}x the reference "
            f"({g(r.get('json_one_env'), 'decisions_per_cpu_s'):.0f} per second of the bridge's own CPU) "
            f"[target >= {TARGET_ONE_ENV_X:.0f}x: {'met' if one >= TARGET_ONE_ENV_X * REFERENCE_DECISIONS_PER_S else 'NOT met'}]",
            f"  episode alone, both cores (two processes): {both:.0f}/s ({g(r.get('sim_both_cores'), 'decisions_per_cpu_s'):.0f} per CPU-second of each, summed)",
            f"  hschool-hns bridge --envs {ENVS} --framing binary, both cores: {envs:.0f}/s "
            f"({g(r.get('binary_envs'), 'decisions_per_cpu_s'):.0f} per CPU-second) = {100 * envs / both if both else 0:.0f} % "
            f"of the episode alone [target >= {100 * TARGET_ENVS_SHARE:.0f} %: {'met' if both and envs >= TARGET_ENVS_SHARE * both else 'NOT met'}]",
            f"  load average {g(r, 'loadavg_1m_at_start'):.1f} -> {g(r, 'loadavg_1m_at_end'):.1f}"]
    return "\n".join(rows)


if __name__ == "__main__":
    build = sys.argv[1] if len(sys.argv) > 1 else "build/bench"
    result = run_hns_bridge(build, "--quick" in sys.argv)
    print(hns_bridge_table(result))
