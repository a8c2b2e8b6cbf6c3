"""Hide-and-seek as a vectorised environment, over `hschool-hns bridge --framing binary`.

Standard library and numpy only. One bridge process keeps `num_envs` episodes and steps them side
by side on its own threads; every call here is one request for all of them. Each observation is
one seat's decision: 356 float32 values, a 107-entry legal mask over the game's order catalog and
the seat (0-5) that decides. An episode ends after 48 decisions with every seat's score; the env
then starts the next one by itself (its seed is f"{seed_prefix}-{env}-{episode}"), so an episode
is reproducible from its seed and the actions sent.

    with HnsVecEnv(num_envs=8, binary="build/release/tools/hns/hschool-hns") as env:
        obs, mask, seat = env.reset()
        while training:
            actions = policy(obs, mask, seat)          # indices where mask is True
            obs, mask, seat, rewards, dones, info = env.step(actions)
"""

import struct
import subprocess

import numpy as np

CATALOG_SIZE = 107
VALUE_COUNT = 356
SEATS = 6
DECISIONS_PER_EPISODE = 48

# One environment's answer, as the bridge writes it (tools/hns/bridge_frames.hpp).
RECORD_DTYPE = np.dtype([
    ("state", "u1"), ("seat", "u1"), ("teacher", "<i2"), ("decision", "<u4"), ("episode", "<u4"),
    ("scores", "<f4", (SEATS,)), ("values", "<f4", (VALUE_COUNT,)), ("mask", "u1", (CATALOG_SIZE,)), ("pad", "u1"),
])
assert RECORD_DTYPE.itemsize == 1568

STATE_DECISION, STATE_TERMINAL, STATE_REJECTED, STATE_NO_EPISODE, STATE_FAILED = range(5)
OP_RESET, OP_STEP, OP_TEACHER, OP_OBSERVE = 1, 2, 3, 4
LEAVE_SEED = 0xFFFF
LEAVE_ACTION = -1


class BridgeError(RuntimeError):
    """The bridge refused a request, or stopped answering."""


class HnsVecEnv:
    def __init__(self, num_envs, binary="hschool-hns", threads=None, seed_prefix="hns", replays=None):
        self.num_envs = int(num_envs)
        self.seed_prefix = seed_prefix
        args = [binary, "bridge", "--envs", str(self.num_envs), "--framing", "binary"]
        if threads:
            args += ["--threads", str(threads)]
        if replays:
            args += ["--replays", str(replays)]
        self._proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self._episodes = [0] * self.num_envs
        self.seeds = [None] * self.num_envs
        self._records = None

    # -- the wire ---------------------------------------------------------------------------------
    def _request(self, payload):
        self._proc.stdin.write(struct.pack("<I", len(payload)) + payload)
        self._proc.stdin.flush()
        header = self._read(4)
        (length,) = struct.unpack("<I", header)
        body = self._read(length)
        if body[0] == 1:
            raise BridgeError(body[1:].decode("utf-8", "replace"))
        (count,) = struct.unpack_from("<H", body, 2)
        if count != self.num_envs:
            raise BridgeError("the bridge answered for %d environments" % count)
        return np.frombuffer(body, dtype=RECORD_DTYPE, count=count, offset=4).copy()

    def _read(self, n):
        data = self._proc.stdout.read(n)
        if data is None or len(data) != n:
            raise BridgeError("the bridge stopped answering (exit code %s)" % self._proc.poll())
        return data

    def _reset_payload(self, seeds):
        parts = [struct.pack("<BH", OP_RESET, self.num_envs)]
        for seed in seeds:
            if seed is None:
                parts.append(struct.pack("<H", LEAVE_SEED))
            else:
                raw = seed.encode("utf-8")
                parts.append(struct.pack("<H", len(raw)) + raw)
        return b"".join(parts)

    def _next_seed(self, env):
        seed = "%s-%d-%d" % (self.seed_prefix, env, self._episodes[env])
        self._episodes[env] += 1
        return seed

    @staticmethod
    def _unpack(records):
        return records["values"].copy(), records["mask"].astype(bool), records["seat"].astype(np.int64)

    # -- the environment --------------------------------------------------------------------------
    def reset(self, seeds=None):
        """Starts an episode in every environment; returns (values, mask, seat)."""
        if seeds is None:
            seeds = [self._next_seed(e) for e in range(self.num_envs)]
        seeds = list(seeds)
        if len(seeds) != self.num_envs:
            raise ValueError("one seed per environment")
        records = self._request(self._reset_payload(seeds))
        for e, seed in enumerate(seeds):
            if seed is not None:
                self.seeds[e] = seed
        failed = np.nonzero(records["state"] == STATE_FAILED)[0]
        if failed.size:
            raise BridgeError("environments %s could not start an episode" % failed.tolist())
        self._records = records
        return self._unpack(records)

    def step(self, actions):
        """One catalog index per environment. Returns (values, mask, seat, rewards, dones, info):
        rewards is (num_envs, 6), every seat's score where an episode ended, else zeros; where an
        episode ended the values are the next episode's first decision, and info["final_seeds"]
        names the seed of the one that ended. info["rejected"] marks actions outside the mask (the
        decision stands)."""
        actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        payload = struct.pack("<BH", OP_STEP, self.num_envs) + actions.astype("<i2").tobytes()
        records = self._request(payload)
        dones = records["state"] == STATE_TERMINAL
        rewards = np.where(dones[:, None], records["scores"], 0.0).astype(np.float32)
        info = {"rejected": records["state"] == STATE_REJECTED, "final_seeds": [None] * self.num_envs}
        if dones.any():
            seeds = [None] * self.num_envs
            for e in np.nonzero(dones)[0]:
                info["final_seeds"][e] = self.seeds[e]
                seeds[e] = self._next_seed(e)
            fresh = self._request(self._reset_payload(seeds))
            for e in np.nonzero(dones)[0]:
                self.seeds[e] = seeds[e]
                records[e] = fresh[e]
        self._records = records
        info["decision"] = records["decision"].astype(np.int64)  # each env's decision number in its episode
        values, mask, seat = self._unpack(records)
        return values, mask, seat, rewards, dones, info

    def teacher(self):
        """The burrow baseline's choice for each environment's current decision (a catalog index)."""
        records = self._request(struct.pack("<BH", OP_TEACHER, self.num_envs))
        return records["teacher"].astype(np.int64)

    def close(self):
        if self._proc.poll() is None:
            self._proc.stdin.close()
            self._proc.wait(timeout=30)
        self._proc.stdout.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
