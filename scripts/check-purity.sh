#!/usr/bin/env bash
# Fails when a pure module (docs/architecture.md, "Layers") could do I/O. The pure modules are listed here, once;
# Package.swift's comments and the architecture page point here. Two checks:
#   1. The package's target graph (`swift package dump-package`): a pure target depends, directly or through any
#      other target, on pure targets alone: never on TouchPosix, TouchDevice, TouchRecordingFiles, a C target
#      (CShims, CEvdev, CUdev, CSystemd, ...) or a product of another package.
#   2. The pure modules' sources: each import names a pure module, Synchronization (locks and atomics, no I/O), or
#      one function of Glibc by name from ALLOWED_LIBC (pure functions of their arguments); and no source calls
#      the standard library's own I/O (print, debugPrint, dump, readLine).
# CI runs it (.ci/run) before building. Exit status 1 and one line per finding when something is wrong.
set -euo pipefail
cd "$(dirname "$0")/.."

PURE="TouchCore TouchJSON TouchFormats TouchGestures TouchScene TouchWire TouchEngine TouchCalibration"
ALLOWED_LIBC="memchr atan2"

swift package dump-package | PURE="$PURE" ALLOWED_LIBC="$ALLOWED_LIBC" python3 -c '
import json, os, re, sys, pathlib

pure = os.environ["PURE"].split()
allowed_libc = set(os.environ["ALLOWED_LIBC"].split())
package = json.load(sys.stdin)
targets = {target["name"]: target for target in package["targets"]}
problems = []

def dependencies(target):
    for dependency in target["dependencies"]:
        kind, value = next(iter(dependency.items()))
        # byName and target name a target of this package; product names another package.
        if kind == "product":
            yield "product " + value[0]
        else:
            yield value[0]

for name in pure:
    if name not in targets:
        problems.append(f"{name}: listed as pure but not a target of Package.swift")
        continue
    # Every path from the pure target, so the message names the chain to the first impure module.
    stack = [[name]]
    seen = set()
    while stack:
        path = stack.pop()
        for dependency in dependencies(targets[path[-1]]):
            chain = path + [dependency]
            if dependency not in pure:
                problems.append(f"{name}: depends on {dependency}, which is not pure (" + " -> ".join(chain) + ")")
            elif dependency not in seen:
                seen.add(dependency)
                stack.append(chain)

import_line = re.compile(r"^\s*(?:@\w+\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+(.*?)\s*(?://.*)?$")
stdlib_io = re.compile(r"(?<![\w.])(print|debugPrint|dump|readLine)\(")
for name in pure:
    for source in sorted(pathlib.Path("Sources", name).rglob("*.swift")):
        for number, line in enumerate(source.read_text().splitlines(), 1):
            where = f"{source}:{number}"
            code = line.split("//", 1)[0]
            match = import_line.match(code)
            if match:
                words = match.group(1).split()
                if len(words) == 1 and (words[0] in pure or words[0] == "Synchronization"):
                    continue
                if len(words) == 2 and words[0] == "func" and words[1].startswith("Glibc."):
                    if words[1][len("Glibc."):] in allowed_libc:
                        continue
                problems.append(f"{where}: {name} is pure but imports {match.group(1)}")
            elif stdlib_io.search(code):
                problems.append(f"{where}: {name} is pure but calls the standard library I/O: {line.strip()}")

for problem in problems:
    print(problem)
if problems:
    sys.exit(1)
print("pure modules: " + ", ".join(pure) + ": no I/O dependency")
'
