"""The bridge's Python client (tools/hns/python/hns_bridge.py) driving whole episodes through the
real `hschool-hns bridge` (HSCHOOL_HNS_TOOL): shapes and masks, an episode's end every 48
decisions with the next one started by itself, the same episode from the same seed and actions,
and the binary framing giving what the reference's JSON-lines contract gives. Trains nothing."""

import json
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tools" / "hns" / "python"))
import hns_bridge  # noqa: E402

TOOL = os.environ.get("HSCHOOL_HNS_TOOL", "hschool-hns")


def legal_choice(rng, mask):
    return np.array([rng.choice(np.nonzero(row)[0]) for row in mask])


class HnsVecEnvTest(unittest.TestCase):
    def test_whole_episodes_end_every_48_decisions_and_start_again(self):
        rng = np.random.default_rng(7)
        with hns_bridge.HnsVecEnv(3, binary=TOOL, seed_prefix="client") as env:
            values, mask, seat = env.reset()
            self.assertEqual(values.shape, (3, hns_bridge.VALUE_COUNT))
            self.assertEqual(values.dtype, np.float32)
            self.assertEqual(mask.shape, (3, hns_bridge.CATALOG_SIZE))
            self.assertTrue(mask[:, 0].all())  # watch is always available
            self.assertEqual(seat.tolist(), [0, 0, 0])  # prep: the hiders, slot 0 first
            ends = [[] for _ in range(3)]
            for step in range(1, 2 * hns_bridge.DECISIONS_PER_EPISODE + 1):
                values, mask, seat, rewards, dones, info = env.step(legal_choice(rng, mask))
                self.assertFalse(info["rejected"].any())
                for e in np.nonzero(dones)[0]:
                    ends[e].append(step)
                    self.assertEqual(info["final_seeds"][e], "client-%d-%d" % (e, len(ends[e]) - 1))
                    self.assertEqual(info["decision"][e], 0)  # the next episode's first decision
                self.assertTrue((rewards[~dones] == 0).all())
                self.assertTrue(((seat >= 0) & (seat < 6)).all())
            self.assertEqual(ends, [[48, 96]] * 3)
            self.assertEqual(env.seeds, ["client-0-2", "client-1-2", "client-2-2"])

    def test_the_same_seed_and_actions_give_the_same_episode(self):
        def play():
            rng = np.random.default_rng(11)
            seen, scores = [], []
            with hns_bridge.HnsVecEnv(2, binary=TOOL, threads=2) as env:
                _, mask, _ = env.reset(["same", "other"])
                for _ in range(hns_bridge.DECISIONS_PER_EPISODE):
                    values, mask, seat, rewards, dones, _ = env.step(legal_choice(rng, mask))
                    seen.append(values.copy())
                    scores.append(rewards.copy())
            return np.array(seen), np.array(scores)

        first, second = play(), play()
        np.testing.assert_array_equal(first[0], second[0])
        np.testing.assert_array_equal(first[1], second[1])
        self.assertEqual(first[0].shape, (hns_bridge.DECISIONS_PER_EPISODE, 2, hns_bridge.VALUE_COUNT))

    def test_binary_frames_carry_what_the_json_lines_carry(self):
        # The teacher plays seed "0" through both framings; every decision's values, mask and the
        # final scores agree (values as float32).
        lines = subprocess.Popen([TOOL, "bridge"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

        def ask(request):
            lines.stdin.write(json.dumps(request) + "\n")
            lines.stdin.flush()
            return json.loads(lines.stdout.readline())

        try:
            ask({"kind": "reset", "seed": "0", "players": 6})
            with hns_bridge.HnsVecEnv(1, binary=TOOL) as env:
                values, mask, seat = env.reset(["0"])
                for _ in range(hns_bridge.DECISIONS_PER_EPISODE):
                    encoded = ask({"kind": "encode"})
                    np.testing.assert_array_equal(values[0], np.array(encoded["values"], dtype=np.float32))
                    self.assertEqual(mask[0].tolist(), [a is not None for a in encoded["actions"]])
                    choice = env.teacher()[0]
                    teacher = ask({"kind": "teacher"})["response"]
                    self.assertEqual(json.loads(teacher), encoded["actions"][choice])
                    answer = ask({"kind": "step", "decision_id": encoded["decision_id"], "response": teacher})
                    values, mask, seat, rewards, dones, _ = env.step([choice])
                self.assertTrue(dones[0])
                scores = answer["observation"]["scores"]
                np.testing.assert_array_equal(rewards[0], np.array([scores[str(s)] for s in range(6)], dtype=np.float32))
        finally:
            lines.stdin.close()
            lines.wait(timeout=30)
            lines.stdout.close()

    def test_an_action_outside_the_mask_is_rejected_and_the_decision_stands(self):
        with hns_bridge.HnsVecEnv(2, binary=TOOL) as env:
            values, mask, _ = env.reset()
            illegal = int(np.nonzero(~mask[0])[0][0])
            after, _, _, _, dones, info = env.step([illegal, 0])
            self.assertEqual(info["rejected"].tolist(), [True, False])
            np.testing.assert_array_equal(after[0], values[0])
            self.assertEqual(info["decision"].tolist(), [0, 1])
            self.assertFalse(dones.any())
            with self.assertRaises(hns_bridge.BridgeError):
                env.reset(["x" * 300, "fine"])  # a seed over the bridge's limit refuses the request

    def test_replays_are_written_and_verify(self):
        with tempfile.TemporaryDirectory() as folder:
            with hns_bridge.HnsVecEnv(1, binary=TOOL, replays=folder) as env:
                env.reset(["replayed"])
                for _ in range(hns_bridge.DECISIONS_PER_EPISODE):
                    env.step(env.teacher())
            files = sorted(Path(folder).iterdir())
            self.assertEqual([f.name for f in files], ["env0-episode1-seed-replayed.cowldhns"])
            check = subprocess.run([TOOL, "verify", str(files[0])], capture_output=True, text=True, timeout=60)
            self.assertEqual(check.returncode, 0, check.stdout + check.stderr)


if __name__ == "__main__":
    unittest.main()
