"""Issue 19's attacks with an honest match beside them (section hns-attacks of bench/suite.py).

Each attack of the issue's table runs from 127.0.0.3 (the hschool-load ones from 127.0.0.1) against a
fresh server with its shipped budgets for
ATTACK_SECONDS while one honest match (six scripted /player seats, hschool-load hns-seats) plays and a
prober from another address (127.0.0.2) asks /healthz every PROBE_INTERVAL_S. A row gives the honest
seats' frame-interval p50/p99, /healthz p50/p99/max, how the server answered the attacker and the
server's RSS high-water mark; the "quiet" row is the same without an attacker. Figures, not tests:
the tests (tests/integration/abuse, tests/integration/hns_abuse) check the behaviour.
"""
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time

ATTACK_SECONDS = 12
WARMUP_S = 2
PROBE_INTERVAL_S = 0.05
PROBE_SOURCE = "127.0.0.2"  # still this machine, another client address
ATTACK_SOURCE = "127.0.0.3"  # the attacker's own address: the honest match (127.0.0.1) is not its neighbour
REPLY_TIMEOUT_S = 5
HALF_SENT_SOCKETS = 3000
HEAVY_WALLS = 256
ATTACKS = ("quiet", "kicks", "restarts", "heavy-creates", "half-sent", "replay-viewers", "fast-mode")


def http(port, method, target, body=b"", source=ATTACK_SOURCE, timeout=REPLY_TIMEOUT_S):
    """One request on its own connection; (status, seconds) or (0, seconds) when it failed."""
    start = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout,
                                      source_address=(source, 0) if source else None) as s:
            head = f"{method} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            if method == "POST":
                head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            s.sendall(head.encode() + b"\r\n" + body)
            data = b""
            while b"\r\n" not in data:
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
            while s.recv(65536):
                pass
        status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else 0
    except (OSError, ValueError, IndexError):
        status = 0
    return status, time.monotonic() - start


def exchange(port, request, source=None):
    """Sends a whole request on a new connection and reads until the server closes it."""
    with socket.create_connection(("127.0.0.1", port), timeout=REPLY_TIMEOUT_S,
                                  source_address=(source, 0) if source else None) as s:
        s.sendall(request)
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return data
            data += chunk


def created_match(port, config=b'{"variant":"certification"}'):
    try:
        data = exchange(port, b"POST /api/hns/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                              b"Content-Type: application/json\r\nContent-Length: " + str(len(config)).encode() + b"\r\n\r\n" + config,
                        ATTACK_SOURCE)
        return json.loads(data.split(b"\r\n\r\n", 1)[1]).get("id", "")
    except (OSError, ValueError, IndexError, AttributeError):
        return ""


class Tally:
    """What the server answered the attacker, by status (0: no answer, or the tool's own count)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.by_status = {}

    def add(self, status, n=1):
        with self.lock:
            self.by_status[status] = self.by_status.get(status, 0) + n


def attack_kicks(port, stop, tally, _ctx):
    match = created_match(port)
    i = 0
    while not stop.is_set():
        tally.add(http(port, "POST", f"/control/kick?match={match}&identity=name{i}")[0])
        i += 1


def attack_restarts(port, stop, tally, _ctx):
    match = created_match(port, b'{"variant":"certification","bots":6}')
    burst = b"".join(b"POST /control/restart?match=" + match.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n"
                     for _ in range(3000))
    while not stop.is_set():
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=REPLY_TIMEOUT_S, source_address=(ATTACK_SOURCE, 0)) as s:
                s.sendall(burst)
                data = b""
                deadline = time.monotonic() + REPLY_TIMEOUT_S
                while data.count(b"HTTP/1.1 ") < 3000 and time.monotonic() < deadline and not stop.is_set():
                    chunk = s.recv(1 << 20)
                    if not chunk:
                        break
                    data += chunk
            for status in (b"202", b"429"):
                tally.add(int(status), data.count(b"HTTP/1.1 " + status))
        except OSError:
            tally.add(0)


def attack_heavy_creates(port, stop, tally, ctx):
    with open(os.path.join(ctx["root"], "src/sim/hns/rooms/room_warren.json")) as f:
        room = json.load(f)
    room["walls"] = [[0, 0, 720, 400]] * HEAVY_WALLS
    body = json.dumps({"config": {"mapSpec": room}}).encode()

    def one():
        while not stop.is_set():
            tally.add(http(port, "POST", "/api/hns/matches", body)[0])

    threads = [threading.Thread(target=one) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def attack_half_sent(port, stop, tally, _ctx):
    held = []
    for _ in range(HALF_SENT_SOCKETS):
        if stop.is_set():
            break
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=REPLY_TIMEOUT_S, source_address=(ATTACK_SOURCE, 0))
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            held.append(s)
        except OSError:
            tally.add(0)
    tally.add("held", len(held))
    stop.wait()
    refused = 0
    for s in held:
        try:
            s.settimeout(0.01)
            if s.recv(64).startswith(b"HTTP/1.1 503"):
                refused += 1
        except OSError:
            pass
        s.close()
    tally.add(503, refused)


def attack_tool(mode, args):
    """An hschool-load mode as the attacker, from 127.0.0.1 like the others, run again until the end."""

    def run(port, stop, tally, ctx):
        while not stop.is_set():
            cmd = [ctx["load"], mode, "--url", f"ws://127.0.0.1:{port}", "--json-only"] + args
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=ATTACK_SECONDS + 180)
            tally.add("runs")
            for line in reversed(proc.stdout.splitlines()):
                if line.startswith("{"):
                    result = json.loads(line)
                    for key in ("opened", "failed", "closed_by_server"):
                        if key in result:
                            tally.add(key, int(result[key]))
                    break
    return run


def replay_frames_flowing(port):
    """The replay attack is on once the server sends replay frames (its match must be played first)."""
    try:
        data = exchange(port, b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        for line in data.decode("utf-8", "replace").splitlines():
            if line.startswith('hschool_hns_frame_bytes_total{stream="replay"}'):
                return float(line.split()[-1]) > 0
    except (OSError, ValueError):
        pass
    return False


ATTACKERS = {
    "kicks": attack_kicks,
    "restarts": attack_restarts,
    "heavy-creates": attack_heavy_creates,
    "half-sent": attack_half_sent,
    # 64 viewers from one address pressing e then b: the per-address cap admits 8.
    "replay-viewers": attack_tool("hns-replay", ["--viewers", "64", "--threads", "1", "--seconds", str(ATTACK_SECONDS + WARMUP_S + 5)]),
    # six seats answering every frame with 0x85 at once, one certification match after another:
    # the tick ceiling holds each match.
    "fast-mode": attack_tool("hns-fast", ["--timeout", "120"]),
}
# Attacks that need time to get going: the honest match starts once this says they are on.
READY = {"replay-viewers": replay_frames_flowing}
READY_LIMIT_S = 120


def hwm_mib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def percentile(values, p):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def run_one(attack, server_factory, build, mods, root, load):
    server = server_factory(build, mods, [], shipped_limits=True)
    stop = threading.Event()
    tally = Tally()
    probes = []
    try:
        ctx = {"root": root, "load": load}
        attacker = None
        if attack in ATTACKERS:
            attacker = threading.Thread(target=ATTACKERS[attack], args=(server.port, stop, tally, ctx))
            attacker.start()
            time.sleep(1)  # the attack is under way before the honest match starts
            ready = READY.get(attack)
            deadline = time.monotonic() + READY_LIMIT_S
            while ready and not ready(server.port) and time.monotonic() < deadline:
                time.sleep(0.5)

        def probe():
            while not stop.is_set():
                status, seconds = http(server.port, "GET", "/healthz", source=PROBE_SOURCE)
                probes.append((status, seconds * 1000))
                time.sleep(PROBE_INTERVAL_S)

        prober = threading.Thread(target=probe)
        prober.start()
        honest = subprocess.run([load, "hns-seats", "--url", f"ws://127.0.0.1:{server.port}", "--matches", "1",
                                 "--seconds", str(ATTACK_SECONDS), "--warmup", str(WARMUP_S), "--json-only"],
                                capture_output=True, text=True, timeout=ATTACK_SECONDS + WARMUP_S + 120)
        seats = {}
        for line in reversed(honest.stdout.splitlines()):
            if line.startswith("{"):
                seats = json.loads(line)
                break
        stop.set()
        prober.join()
        if attacker:
            attacker.join(timeout=ATTACK_SECONDS + 200)
        ok = [ms for status, ms in probes if status == 200]
        return {
            "attack": attack,
            "seat_interval_ms_p50": seats.get("interval_ms_p50"), "seat_interval_ms_p99": seats.get("interval_ms_p99"),
            "seat_hz_min": seats.get("seat_hz_min"), "seats_closed": seats.get("closed_by_server"),
            "healthz_ms_p50": percentile(ok, 0.5), "healthz_ms_p99": percentile(ok, 0.99), "healthz_ms_max": max(ok) if ok else None,
            "healthz_failed": sum(1 for status, _ in probes if status != 200), "healthz_probes": len(probes),
            "attacker_answers": {str(k): v for k, v in sorted(tally.by_status.items(), key=lambda kv: str(kv[0]))},
            "server_hwm_mib": hwm_mib(server.pid), "loadavg_1m": os.getloadavg()[0],
        }
    finally:
        stop.set()
        server.stop()


def run_hns_attacks(server_factory, build, mods, load, quick=False):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    rows = []
    for attack in (("quiet", "kicks") if quick else ATTACKS):
        print(f"hns-attacks: {attack}, one honest match beside it, {ATTACK_SECONDS} s ...", file=sys.stderr)
        rows.append(run_one(attack, server_factory, build, mods, root, load))
    return rows


def fmt(value, spec=".1f"):
    return "-" if value is None else format(value, spec)


def hns_attacks_table(rows):
    lines = ["", "hns-attacks: each attack beside one honest match (6 seats) and a /healthz prober from 127.0.0.2",
             "  attack          seat ms p50/p99  seat Hz min  closed  /healthz ms p50/p99/max  failed  RSS HWM MiB  load  attacker got"]
    for r in rows:
        lines.append(f"  {r['attack']:<15} {fmt(r['seat_interval_ms_p50']):>6}/{fmt(r['seat_interval_ms_p99']):<7} "
                     f"{fmt(r['seat_hz_min']):>10}  {fmt(r['seats_closed'], 'd') if r['seats_closed'] is not None else '-':>6}  "
                     f"{fmt(r['healthz_ms_p50'], '.2f'):>6}/{fmt(r['healthz_ms_p99'], '.2f')}/{fmt(r['healthz_ms_max'], '.2f'):<8}"
                     f"{r['healthz_failed']:>7}  {fmt(r['server_hwm_mib']):>11}  {r['loadavg_1m']:>4.1f}  {r['attacker_answers']}")
    return "\n".join(lines)
