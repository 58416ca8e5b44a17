#!/usr/bin/env python3
"""Fails when a target imports a module it does not declare as a direct dependency.

SwiftPM's --explicit-target-dependency-import-check only flags an import with no dependency
path at all; a module reached through another target's dependencies passes it. This check is
stricter: every `import M` at the top level of a target's Swift files must name the target
itself, one of its declared dependencies (a target or a product), or a toolchain module.
Reads the manifest with `swift package dump-package` (from standard input).
"""
import glob
import json
import os
import re
import sys

TOOLCHAIN = {"Foundation", "FoundationEssentials", "FoundationNetworking", "Dispatch", "Synchronization",
             "Testing", "XCTest", "Glibc", "Musl", "Darwin", "_Concurrency", "os"}
IMPORT = re.compile(r"^(?:@[A-Za-z_]+(?:\([^)]*\))? )*(?:public |internal |package )?import "
                    r"(?:(?:struct|class|enum|func|protocol|typealias|var|let) )?([A-Za-z0-9_]+)")

manifest = json.load(sys.stdin)
problems = []
for target in manifest["targets"]:
    if target["type"] in ("system", "binary", "plugin"):
        continue
    declared = {target["name"]}
    for dependency in target["dependencies"]:
        for kind in ("byName", "target", "product"):
            if kind in dependency:
                declared.add(dependency[kind][0])
    path = target.get("path") or ("Tests/" if target["type"] == "test" else "Sources/") + target["name"]
    for file in sorted(glob.glob(os.path.join(path, "**", "*.swift"), recursive=True)):
        with open(file, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                match = IMPORT.match(line)
                if match and match.group(1) not in declared and match.group(1) not in TOOLCHAIN:
                    problems.append(f"{file}:{number}: {target['name']} imports {match.group(1)} "
                                    "without declaring it a dependency in Package.swift")
for problem in problems:
    print(problem, file=sys.stderr)
sys.exit(1 if problems else 0)
