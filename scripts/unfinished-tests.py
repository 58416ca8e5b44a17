#!/usr/bin/env python3
"""Names the tests a Swift Testing log shows started and never ended.

scripts/test.sh gives the suite a time limit; when it is reached, this says which tests were
still running (a hung test is among them), where a CI log cut short would show only its tail.
Usage: unfinished-tests.py LOG
"""
import re
import sys

# "◇ Test name() started." and "✔ Test name() passed after …" (or "with 3 test cases passed",
# "failed", "skipped"); a parameterised test's cases ("Test case passing …") are not followed.
STARTED = re.compile(r"^\S+ Test (?!case passing )(.+?) started\.$")
ENDED = re.compile(r"^\S+ Test (?!case passing )(.+?)(?: with \d+ test cases?)? (?:passed|failed|skipped)\b")


def main(path: str) -> int:
    # Counted, not kept by name alone: tests of two suites may share a name.
    running: dict[str, list[int]] = {}
    with open(path, encoding="utf-8", errors="replace") as log:
        for number, line in enumerate(log, 1):
            line = line.rstrip("\n")
            if m := STARTED.match(line):
                running.setdefault(m.group(1), []).append(number)
            elif (m := ENDED.match(line)) and running.get(m.group(1)):
                running[m.group(1)].pop(0)
    left = sorted((number, name) for name, numbers in running.items() for number in numbers)
    if not left:
        print("unfinished-tests: every test that started also ended")
        return 0
    print(f"unfinished-tests: {len(left)} started and never ended:")
    for number, name in left:
        print(f"  {name} (started at line {number} of {path})")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
