"""Issue 31's watch stream (section hns-watch of bench/suite.py): what a viewer of a default match
with six bots receives on the contract's /global and on our browser's compact stream, side by side
in one run (hschool-load hns-watch: the first 5 s, then a steady window, then the compact stream at
1, 2, 4, 8 and 16 ticks a frame); 1,000 compact viewers of one match (hschool-load hns-spectate
--stream compact): frames per second each and the match's own tick rate, without and with them; and
the watch page in headless Chromium counting its WebSocket bytes through the DevTools protocol
(bench/hns_watch_browser.mjs), when Chromium and the built client are there. Figures, not tests.
"""
import os
import shutil
import subprocess
import sys

from arena_v5 import last_json  # the last JSON line of a run's output

WATCH_SECONDS = 30
CROWD = {"viewers": 1000, "seconds": 10, "warmup": 4}
SLACK_S = 240
TARGETS = {"steady_bytes_per_s": 250_000, "contract_over_compact": 15, "first_5s_bytes": 1_500_000,
           "viewer_frames_per_s": 20, "match_ticks_ratio": 0.95, "frames_over_ticks": 0.9}
VIEWER_CAPS = ["--hns-max-viewers-per-match", "0", "--hns-max-viewers-per-ip", "0"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_load(server_class, build, mods, load_binary, args, timeout, extra=()):
    server = server_class(build, mods, list(extra))
    try:
        cmd = [load_binary, *args, "--url", f"ws://127.0.0.1:{server.port}", "--server-pid", str(server.pid), "--json-only"]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return last_json(proc.stdout) or {"error": f"no JSON from {' '.join(cmd)}: {proc.stderr[-500:]}"}
    finally:
        server.stop()


def run_browser(build, quick):
    if not shutil.which("node") or not os.path.exists("/usr/bin/chromium") or not os.path.exists(os.path.join(ROOT, "client", "dist", "index.html")):
        print("hns-watch: no Chromium, node or built client: the browser run is skipped", file=sys.stderr)
        return None
    cmd = ["node", os.path.join(ROOT, "bench", "hns_watch_browser.mjs"), "--server", os.path.join(build, "hschool-server"),
           "--seconds", str(10 if quick else WATCH_SECONDS), "--json"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=SLACK_S)
    return last_json(proc.stdout) or {"error": proc.stderr[-500:]}


def run_hns_watch(server_class, build, mods, load_binary, quick=False):
    seconds = 10 if quick else WATCH_SECONDS
    print(f"hns-watch: contract and compact side by side, {seconds} s, then the compact stream at each speed ...", file=sys.stderr)
    out = {"side_by_side": run_load(server_class, build, mods, load_binary, ["hns-watch", "--seconds", str(seconds)], SLACK_S)}
    viewers = 200 if quick else CROWD["viewers"]
    print(f"hns-watch: {viewers} compact viewers of one match ...", file=sys.stderr)
    out["crowd"] = run_load(server_class, build, mods, load_binary,
                            ["hns-spectate", "--stream", "compact", "--spectators", str(viewers), "--threads", "2",
                             "--seconds", str(CROWD["seconds"]), "--warmup", str(CROWD["warmup"])],
                            2 * CROWD["seconds"] + CROWD["warmup"] + SLACK_S, VIEWER_CAPS)
    print("hns-watch: the watch page in Chromium ...", file=sys.stderr)
    out["browser"] = run_browser(build, quick)
    return out


def verdict(ok):
    return "met" if ok else "NOT met"


def hns_watch_table(r):
    lines = ["\nhide-and-seek watch stream (issue 31): a default match with six bots"]
    s = r.get("side_by_side") or {}
    if "compact" in s:
        c, k = s["compact"], s["contract"]
        lines.append(f"  hschool-load, one run     contract: first 5 s {k['first_5s_bytes']:>9,} B, steady {k['bytes_per_s']:>11,.0f} B/s, "
                     f"{k['frames_per_s']:.1f} frames/s")
        lines.append(f"                            compact:  first 5 s {c['first_5s_bytes']:>9,} B, steady {c['bytes_per_s']:>11,.0f} B/s, "
                     f"{c['frames_per_s']:.1f} frames/s (match {s.get('match_ticks_per_s', 0):.1f} ticks/s)")
        ratio = s.get("contract_over_compact", 0)
        lines.append(f"  [{verdict(c['bytes_per_s'] <= TARGETS['steady_bytes_per_s'])}] compact steady <= 250 KB/s: {c['bytes_per_s'] / 1000:.1f} KB/s")
        lines.append(f"  [{verdict(ratio >= TARGETS['contract_over_compact'])}] compact <= 1/15 of the contract: 1/{ratio:.0f}")
        lines.append(f"  [{verdict(c['first_5s_bytes'] <= TARGETS['first_5s_bytes'])}] first 5 s <= 1.5 MB: {c['first_5s_bytes'] / 1e6:.3f} MB")
        ticks = s.get("match_ticks_per_s", 0)
        lines.append(f"  [{verdict(ticks > 0 and c['frames_per_s'] >= TARGETS['frames_over_ticks'] * ticks)}] a frame per tick at 1x: "
                     f"{c['frames_per_s']:.1f} frames/s for {ticks:.1f} ticks/s")
        speeds = s.get("compact_by_speed", [])
        if speeds:
            base = speeds[0]["bytes_per_s"] or 1
            rows = ", ".join(f"{x['ticks_per_frame']}x {x['bytes_per_s'] / 1000:.1f} KB/s ({x['frames_per_s']:.1f} f/s)" for x in speeds)
            grew_slower = all(x["bytes_per_s"] <= x["ticks_per_frame"] * base for x in speeds)
            lines.append(f"  [{verdict(grew_slower)}] bytes grow no faster than the speed: {rows}")
    elif s:
        lines.append(f"  side by side: {s.get('error', 'no result')}")
    crowd = r.get("crowd") or {}
    if "with_spectators" in crowd:
        w, a = crowd["with_spectators"], crowd["without_spectator"]
        ratio = w.get("match_ticks_per_s", 0) / max(a.get("match_ticks_per_s", 0), 1e-9)
        lines.append(f"  {crowd['spectators']} compact viewers: slowest {w['seat_hz_min']:.2f} frames/s (p50 {w['seat_hz_p50']:.2f}), "
                     f"{w['bytes_per_s'] / 1e6:.1f} MB/s in all, server CPU {w['server_cpu_pct']:.1f} %, RSS {w['server_rss_mib']:.0f} MiB")
        lines.append(f"  [{verdict(w['seat_hz_min'] >= TARGETS['viewer_frames_per_s'])}] every viewer >= 20 frames/s: slowest {w['seat_hz_min']:.2f}")
        lines.append(f"  [{verdict(ratio >= TARGETS['match_ticks_ratio'])}] the match's tick rate unchanged: "
                     f"{a.get('match_ticks_per_s', 0):.2f} ticks/s alone, {w.get('match_ticks_per_s', 0):.2f} with them")
    elif crowd:
        lines.append(f"  crowd: {crowd.get('error', 'no result')}")
    b = r.get("browser")
    if b and "compact" in b:
        for key in ("compact", "contract"):
            x = b[key]
            lines.append(f"  Chromium {key:<8} first 5 s {x['first_5s_bytes']:>9,} B, steady {x['steady_bytes_per_s']:>11,.0f} B/s, "
                         f"{x['steady_messages_per_s']:.1f} messages/s, page frames {x['page_frames_per_s']:.1f}/s")
        c = b["compact"]
        lines.append(f"  [{verdict(c['steady_bytes_per_s'] <= TARGETS['steady_bytes_per_s'] and b['contract_over_compact'] >= TARGETS['contract_over_compact'] and c['first_5s_bytes'] <= TARGETS['first_5s_bytes'])}] "
                     f"in the browser: {c['steady_bytes_per_s'] / 1000:.1f} KB/s, 1/{b['contract_over_compact']:.0f} of the contract, "
                     f"first 5 s {c['first_5s_bytes'] / 1e6:.3f} MB")
    elif b:
        lines.append(f"  Chromium: {b.get('error', 'no result')}")
    return "\n".join(lines)
