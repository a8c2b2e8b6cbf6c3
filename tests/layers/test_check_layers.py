"""scripts/check-layers.py against planted violations (issue 32): each wrong direction the rules
forbid is reported with its file and line, the repository itself passes, and bad rules are refused.
Run by `make check-layers`: python3 -m unittest discover -s tests/layers"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "check-layers.py")
RULES = os.path.join(ROOT, "src", "layers.txt")


def run(root, *extra):
    return subprocess.run([sys.executable, SCRIPT, "--root", root, *extra], capture_output=True, text=True)


class PlantedTree(unittest.TestCase):
    """A small tree under the repository's own rules, with one header in each layer."""

    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="hschool-layers-")
        os.makedirs(os.path.join(self.root, "src"))
        shutil.copy(RULES, os.path.join(self.root, "src", "layers.txt"))
        for header in ["util/expected.hpp", "protocol/bytes.hpp", "protocol/v1.hpp", "sim/hns/sim.hpp", "net/outbox.hpp",
                       "server/game_loop.hpp", "server/arena/arena_service.hpp", "server/hns/hub.hpp", "store/school_store.hpp"]:
            self.write("src/" + header, "#pragma once\n")

    def tearDown(self):
        shutil.rmtree(self.root)

    def write(self, path, text):
        full = os.path.join(self.root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(text)

    def test_the_planted_tree_passes_before_anything_is_planted(self):
        result = run(self.root)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)

    def assert_caught(self, path, line, text, *expected):
        self.write(path, text)
        result = run(self.root)
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertIn(f"{path}:{line}:", result.stdout)
        for e in expected:
            self.assertIn(e, result.stdout)

    def test_a_sim_file_including_a_server_header(self):
        self.assert_caught("src/sim/hns/rules.cpp", 3, '#include "sim/hns/sim.hpp"\n\n#include "server/game_loop.hpp"\n',
                           "src/sim may not include server/game_loop.hpp (src/server)")

    def test_the_transport_including_a_game(self):
        self.assert_caught("src/net/ws_session.cpp", 2, '#include "net/outbox.hpp"\n#include "server/hns/hub.hpp"\n',
                           "src/net may not include server/hns/hub.hpp (src/server/hns)")

    def test_the_transport_including_a_game_protocol(self):
        self.assert_caught("src/net/ws_frame.cpp", 2, '#include "protocol/bytes.hpp"\n#include "protocol/v1.hpp"\n',
                           "src/net may not include protocol/v1.hpp")

    def test_one_game_including_another(self):
        self.assert_caught("src/server/hns/hub.cpp", 1, '#include "server/arena/arena_service.hpp"\n',
                           "src/server/hns may not include server/arena/arena_service.hpp (src/server/arena)")

    def test_a_game_including_the_composition(self):
        self.assert_caught("src/server/arena/arena_service.cpp", 1, '#include "server/game_loop.hpp"\n',
                           "src/server/arena may not include server/game_loop.hpp (src/server)")

    def test_a_tool_including_the_server(self):
        self.assert_caught("tools/hns/main.cpp", 1, '#include "server/hns/hub.hpp"\n', "tools/hns may not include")

    def test_the_composition_enters_a_game_by_its_front_door(self):
        self.write("src/server/hns/live/live_match.hpp", "#pragma once\n")
        self.assert_caught("src/server/server.cpp", 1, '#include "server/hns/live/live_match.hpp"\n',
                           "src/server may not include server/hns/live/live_match.hpp (src/server/hns/live)")

    def test_a_room_including_its_game_s_front_door(self):
        self.write("src/server/hns/game.hpp", "#pragma once\n")
        self.assert_caught("src/server/hns/live/live_match.cpp", 1, '#include "server/hns/game.hpp"\n',
                           "src/server/hns/live may not include server/hns/game.hpp (src/server/hns)")

    def test_a_file_in_no_layer_is_reported(self):
        self.assert_caught("src/newthing/a.cpp", 1, '#include "util/expected.hpp"\n', "belongs to no layer")

    def test_an_include_beside_the_file_resolves_to_its_real_layer(self):
        self.assert_caught("src/store/x.cpp", 1, '#include "../server/game_loop.hpp"\n', "src/store may not include")

    def test_the_composition_and_the_allowed_directions_pass(self):
        self.write("src/server/server.cpp", '#include "server/hns/hub.hpp"\n#include "server/arena/arena_service.hpp"\n#include "net/outbox.hpp"\n')
        self.write("src/net/ws_frame.cpp", '#include "protocol/bytes.hpp"\n#include <boost/asio.hpp>\n')
        result = run(self.root)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)

    def test_rules_naming_an_unknown_layer_are_refused(self):
        with open(os.path.join(self.root, "src", "layers.txt"), "a", encoding="utf-8") as f:
            f.write("src/extra: src/nowhere\n")
        result = run(self.root)
        self.assertEqual(result.returncode, 2)
        self.assertIn("src/nowhere", result.stderr)


class TheRepository(unittest.TestCase):
    def test_every_include_of_the_repository_follows_its_rules(self):
        result = run(ROOT)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)


if __name__ == "__main__":
    unittest.main()
