"""Issue 34 (section postgres of bench/suite.py): the same server on SQLite and on PostgreSQL, side
by side in one sitting, alternated: school create / list / delete through the REST (milliseconds per
request, p50 and p99), and 6,000 v4 watchers of one school (hschool-load schools: frames per second
each, the server's CPU and tick). The PostgreSQL cluster is a throwaway one (scripts/pg-cluster.sh),
on this machine's loopback, so the figures are the backend's cost, not a network's. The archive's
100 simultaneous finishes are bench/archive_writes (a C++ program, both backends). Figures only.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROUNDS = 30            # create the six schools the server allows, list, delete them: this many times
WATCHERS = 6000
WATCH_SECONDS = 8
REPEATS = 2            # each backend this many times, alternated
QUICK = {"rounds": 5, "watchers": 1000, "seconds": 4, "repeats": 1}
MAX_SCHOOLS = 6


def request(port, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                 headers={"Content-Type": "application/json"} if data else {})
    started = time.perf_counter()
    with urllib.request.urlopen(req, timeout=10) as response:
        text = response.read()
    return (time.perf_counter() - started) * 1000, json.loads(text) if text else None


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else None


def clear_schools(port):
    """The shared database outlives a server: the next run starts from no school, as SQLite's does."""
    for school in request(port, "GET", "/api/schools")[1]["schools"]:
        request(port, "DELETE", f"/api/schools/{school['id']}")


def rest_round_trips(port, rounds):
    clear_schools(port)
    create, listing, delete = [], [], []
    for _ in range(rounds):
        ids = []
        for i in range(MAX_SCHOOLS):
            ms, school = request(port, "POST", "/api/schools", {"name": f"bench {i}"})
            create.append(ms)
            ids.append(school["id"])
        ms, _ = request(port, "GET", "/api/schools")
        listing.append(ms)
        for school_id in ids:
            ms, _ = request(port, "DELETE", f"/api/schools/{school_id}")
            delete.append(ms)
    summary = lambda v: {"p50_ms": statistics.median(v), "p99_ms": percentile(v, 0.99), "n": len(v)}  # noqa: E731
    return {"create": summary(create), "list": summary(listing), "delete": summary(delete)}


PROPAGATIONS = 20     # schools made on one server and paused there, timed until the other shows them
POLL_S = 0.005


def propagation(server_class, build, mods, url, count):
    """Two servers on one database: how long until B lists a school A created, and shows A's pause."""
    a = server_class(build, mods, ["--database", url])
    b = server_class(build, mods, ["--database", url])
    created, paused = [], []
    try:
        clear_schools(a.port)
        for i in range(count):  # one school at a time: the server allows six
            _, school = request(a.port, "POST", "/api/schools", {"name": f"seen {i}"})
            started = time.perf_counter()
            while not any(s["id"] == school["id"] for s in request(b.port, "GET", "/api/schools")[1]["schools"]):
                time.sleep(POLL_S)
            created.append((time.perf_counter() - started) * 1000)
            # A pause needs a v4 socket; the list on B shows the same flag B's watchers get each tick.
            pause_over_ws(a.port, school["id"])
            started = time.perf_counter()
            while next(s for s in request(b.port, "GET", "/api/schools")[1]["schools"] if s["id"] == school["id"])["running"]:
                time.sleep(POLL_S)
            paused.append((time.perf_counter() - started) * 1000)
            request(a.port, "DELETE", f"/api/schools/{school['id']}")
    finally:
        a.stop()
        b.stop()
    summary = lambda v: {"p50_ms": statistics.median(v), "max_ms": max(v), "n": len(v)} if v else None  # noqa: E731
    return {"created": summary(created), "paused": summary(paused)}


def pause_over_ws(port, school_id):
    """A v4 session on /ws/game that says Hello, opens the school and pauses it (SetRunning 0)."""
    import base64
    import socket
    import struct
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /ws/game HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(4096)

    def send(payload):
        mask = os.urandom(4)
        sock.sendall(bytes([0x82, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
    send(bytes([0x01, 4, 0]))                                   # Hello: id 1, version 4, locale 0
    send(bytes([0x03]) + struct.pack("<i", school_id))          # OpenSchool
    send(bytes([0x05, 0]))                                      # SetRunning 0
    time.sleep(0.05)
    sock.close()


def start_cluster():
    folder = tempfile.mkdtemp(prefix="hschool-bench-pg-")
    os.rmdir(folder)  # the script makes it, owned by the postgres user
    # fsync on, as a real database runs: the comparison with SQLite's fsynced writes is fair.
    url = subprocess.run([os.path.join(ROOT, "scripts", "pg-cluster.sh"), "start", folder], capture_output=True,
                         text=True, check=True, env=dict(os.environ, PG_CLUSTER_FSYNC="on")).stdout.strip()
    return folder, url


def run_postgres(server_class, run_load_on, build, mods, quick=False, threads=1):
    q = QUICK if quick else {"rounds": ROUNDS, "watchers": WATCHERS, "seconds": WATCH_SECONDS, "repeats": REPEATS}
    folder, url = start_cluster()
    runs = {"sqlite": [], "postgres": []}
    try:
        for repeat in range(q["repeats"]):
            order = ("sqlite", "postgres") if repeat % 2 == 0 else ("postgres", "sqlite")
            for backend in order:
                extra = ["--database", url] if backend == "postgres" else []
                print(f"postgres: {backend}: REST, then {q['watchers']} watchers ({repeat + 1}) ...", file=sys.stderr)
                server = server_class(build, mods, extra)
                try:
                    row = {"rest": rest_round_trips(server.port, q["rounds"])}
                finally:
                    server.stop()
                server = server_class(build, mods, extra)
                try:
                    clear_schools(server.port)
                    request(server.port, "POST", "/api/schools", {"name": "watched"})
                    row["watchers"] = run_load_on(server, build, "schools", q["watchers"], q["seconds"], threads)
                    clear_schools(server.port)
                finally:
                    server.stop()
                runs[backend].append(row)
        print("postgres: propagation between two servers ...", file=sys.stderr)
        seen = propagation(server_class, build, mods, url, 5 if quick else PROPAGATIONS)
    finally:
        subprocess.run([os.path.join(ROOT, "scripts", "pg-cluster.sh"), "stop", folder], check=False)
    archive = run_archive_writes(build, url=None)  # the program starts its own cluster
    return {"settings": q, "runs": runs, "archive": archive, "propagation": seen}


def run_archive_writes(build, url=None):
    binary = os.path.join(build, "bench", "hschool-archive-writes")
    if not os.path.exists(binary):
        return {"error": f"{binary} not built (configure with -DHSCHOOL_BENCH=ON)"}
    cmd = [os.path.join(ROOT, "scripts", "with-postgres.sh"), binary, "--json"]
    env = dict(os.environ, PG_CLUSTER_FSYNC="on")
    env.pop("HSCHOOL_TEST_DATABASE_URL", None)  # a fresh, durable cluster of its own
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
    lines = [l for l in proc.stdout.splitlines() if l.startswith("{")]
    return json.loads(lines[-1]) if lines else {"error": proc.stderr[-500:]}


def postgres_table(result):
    med = lambda rows, f: statistics.median([f(r) for r in rows]) if rows else float("nan")  # noqa: E731
    lines = [f"\nPostgreSQL beside SQLite (issue 34): medians of {result['settings']['repeats']} alternated runs; "
             f"REST = {result['settings']['rounds']} rounds of 6 creates, a list and 6 deletes"]
    for backend in ("sqlite", "postgres"):
        rows = result["runs"][backend]
        if not rows:
            continue
        rest = lambda op, k: med(rows, lambda r: r["rest"][op][k])  # noqa: E731
        w = lambda k: med(rows, lambda r: r["watchers"].get(k) or 0)  # noqa: E731
        lines.append(f"  {backend:<8} create {rest('create', 'p50_ms'):.2f}/{rest('create', 'p99_ms'):.2f} ms, "
                     f"list {rest('list', 'p50_ms'):.2f}/{rest('list', 'p99_ms'):.2f} ms, "
                     f"delete {rest('delete', 'p50_ms'):.2f}/{rest('delete', 'p99_ms'):.2f} ms (p50/p99); "
                     f"{result['settings']['watchers']} watchers: frames/s p50 {w('frames_hz_p50'):.2f} p1 {w('frames_hz_p1'):.2f}, "
                     f"server CPU {w('server_cpu_pct'):.1f} %, tick p99 {w('tick_ms_p99'):.2f} ms")
    p = result.get("propagation") or {}
    if p.get("created") and p.get("paused"):
        lines.append(f"  two servers on one database: a school made on A is listed by B after {p['created']['p50_ms']:.0f} ms "
                     f"(p50, max {p['created']['max_ms']:.0f} ms, {p['created']['n']} schools); A's pause shows on B after "
                     f"{p['paused']['p50_ms']:.0f} ms (p50, max {p['paused']['max_ms']:.0f} ms) [target within a second]")
    a = result.get("archive") or {}
    if "error" in a:
        lines.append(f"  archive: {a['error']}")
    else:
        for backend in ("sqlite", "postgres"):
            if backend in a:
                r = a[backend]
                lines.append(f"  archive, {r['matches']} finishes at once ({r['replay_bytes'] // 1024} KiB replays, {r['threads']} threads): "
                             f"{backend} {r['wall_ms']:.0f} ms in all, {r['per_save_ms_p50']:.1f} ms p50 / {r['per_save_ms_p99']:.1f} ms p99 a save")
    return "\n".join(lines)
