#!/usr/bin/env python3
"""Names the tests a Swift Testing log shows started and never ended, then what went wrong.

scripts/test.sh gives the suite a time limit; when it is reached, this says which tests were
still running (a hung test is among them), where a CI log cut short would show only its tail.
When the test process crashed instead, every test under way is unfinished, and what names the
cause (the runtime's fatal error, the signal, a failed expectation) is far up the log: the lines
that say so are printed again last, where a tail shows them.
Usage: unfinished-tests.py LOG
"""
import re
import sys

# "◇ Test name() started." and "✔ Test name() passed after …" (or "with 3 test cases passed",
# "failed", "skipped"); a parameterised test's cases ("Test case passing …") are not followed.
STARTED = re.compile(r"^\S+ Test (?!case passing )(.+?) started\.$")
# Swift Testing's failures ("✘ Test … failed", "✘ Test … recorded an issue"), the runtime's
# fatal errors and crash report, and swift-test's own word on how the test process ended.
TROUBLE = re.compile(
    r"^\S* ?✘ |Fatal error|fatal error:|Program crashed|Crashed thread|Thread \d+ crashed|"
    r"signal code|error: Exited|Precondition failed|Assertion failed|Illegal instruction|"
    r"Segmentation fault|^Aborted|^Killed"
)
# How many unfinished tests and trouble lines are printed: a tail must still reach the end.
SHOWN = 40
ENDED = re.compile(r"^\S+ Test (?!case passing )(.+?)(?: with \d+ test cases?| with \d+ tests? in \d+ suites?)? (?:passed|failed|skipped)\b")


def main(path: str) -> int:
    # Counted, not kept by name alone: tests of two suites may share a name.
    running: dict[str, list[int]] = {}
    trouble: list[tuple[int, str]] = []
    with open(path, encoding="utf-8", errors="replace") as log:
        for number, line in enumerate(log, 1):
            line = line.rstrip("\n")
            if m := STARTED.match(line):
                running.setdefault(m.group(1), []).append(number)
            elif (m := ENDED.match(line)) and running.get(m.group(1)):
                running[m.group(1)].pop(0)
            # A test's own name may hold these words: started and passing lines are not trouble.
            if TROUBLE.search(line) and not line.startswith(("◇", "✔", "↳")):
                trouble.append((number, line[:400]))
    left = sorted((number, name) for name, numbers in running.items() for number in numbers)
    if not left:
        print("unfinished-tests: every test that started also ended")
    else:
        print(f"unfinished-tests: {len(left)} started and never ended (the last {min(SHOWN, len(left))}):")
        for number, name in left[-SHOWN:]:
            print(f"  {name} (started at line {number} of {path})")
    if trouble:
        print(f"unfinished-tests: what the log says went wrong ({len(trouble)} lines, the last {min(SHOWN, len(trouble))}):")
        for number, line in trouble[-SHOWN:]:
            print(f"  {number}: {line}")
    return 1 if left or trouble else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
