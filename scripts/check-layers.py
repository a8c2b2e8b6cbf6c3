#!/usr/bin/env python3
"""Checks that every #include "..." under src/ and tools/ goes in an allowed direction.

The directions are written once, in src/layers.txt: each line names a layer (a folder below the
repository, or a single file) and what it may include besides itself. A file belongs to the longest
layer that contains it; so does an included header. Naming a layer allows its own files only, not
those of the layers inside it: each of those is named on its own. Angle-bracket includes (the standard library,
Boost, Debian's -dev packages) are not ours and are not checked.

Usage: scripts/check-layers.py [--root DIR] [--rules FILE]
Prints one line per include that breaks a rule, as FILE:LINE: ..., and exits 1; prints a summary and
exits 0 when there is none. Exits 2 when the rules cannot be read.
"""
import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SCANNED = ("src", "tools")
SOURCE_ENDINGS = (".hpp", ".cpp", ".h", ".cc")


def parse_rules(path):
    """{layer: set(allowed layers or files)}; a layer is a path relative to the root."""
    rules = {}
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            if ":" not in line:
                raise ValueError(f"{path}:{number}: expected 'layer: allowed ...'")
            layer, allowed = line.split(":", 1)
            layer = layer.strip().rstrip("/")
            if layer in rules:
                raise ValueError(f"{path}:{number}: layer {layer} is listed twice")
            rules[layer] = {a.rstrip("/") for a in allowed.split()}
    for layer, allowed in rules.items():
        for a in allowed:
            if a not in rules and not any(a.startswith(l + "/") for l in rules):
                raise ValueError(f"{path}: {layer} allows {a}, which is no layer nor inside one")
    return rules


def layer_of(path, rules):
    """The longest layer containing path (a path relative to the root), or None."""
    best = None
    for layer in rules:
        if path == layer or path.startswith(layer + "/"):
            if best is None or len(layer) > len(best):
                best = layer
    return best


def allowed(file_layer, target, rules):
    target_layer = layer_of(target, rules)
    if target_layer is None:
        return True, None  # not one of ours (a test helper, a generated file): nothing to say
    if target_layer == file_layer:
        return True, target_layer
    for a in rules[file_layer]:
        # A layer named opens its own files, not the layers inside it (a game's rooms stay behind
        # its front door); a file, or a folder that is no layer, opens just that.
        if target == a or target_layer == a or (a not in rules and target.startswith(a + "/")):
            return True, target_layer
    return False, target_layer


def resolve(include, including_file, root):
    """The included file's path relative to the root: src/ first, then tools/ (our include roots), then beside the file."""
    for base in (os.path.join(root, "src"), os.path.join(root, "tools"), os.path.dirname(os.path.join(root, including_file))):
        candidate = os.path.normpath(os.path.join(base, include))
        if os.path.exists(candidate):
            return os.path.relpath(candidate, root)
    return os.path.normpath(os.path.join("src", include))  # as the compiler would look for it first


def check(root, rules):
    problems, files, includes = [], 0, 0
    for scanned in SCANNED:
        for folder, _, names in os.walk(os.path.join(root, scanned)):
            for name in sorted(names):
                if not name.endswith(SOURCE_ENDINGS):
                    continue
                path = os.path.relpath(os.path.join(folder, name), root)
                file_layer = layer_of(path, rules)
                if file_layer is None:
                    problems.append(f"{path}:1: belongs to no layer of the rules: add it to src/layers.txt")
                    continue
                files += 1
                with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        includes += 1
                        target = resolve(m.group(1), path, root)
                        ok, target_layer = allowed(file_layer, target, rules)
                        if not ok:
                            problems.append(f"{path}:{number}: {file_layer} may not include {m.group(1)} ({target_layer}); "
                                            f"{file_layer} may include: {', '.join(sorted(rules[file_layer])) or 'nothing but itself'}")
    return problems, files, includes


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--root", default=os.path.dirname(here))
    p.add_argument("--rules", default=None, help="default: ROOT/src/layers.txt")
    args = p.parse_args()
    rules_path = args.rules or os.path.join(args.root, "src", "layers.txt")
    try:
        rules = parse_rules(rules_path)
    except (OSError, ValueError) as e:
        print(f"check-layers: {e}", file=sys.stderr)
        return 2
    problems, files, includes = check(args.root, rules)
    for problem in problems:
        print(problem)
    if problems:
        print(f"check-layers: {len(problems)} include(s) against the rules in {os.path.relpath(rules_path, args.root)}", file=sys.stderr)
        return 1
    print(f"check-layers: {includes} includes in {files} files follow {os.path.relpath(rules_path, args.root)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
