#!/usr/bin/env python3
"""How many of the CLI tests start a process: the nagi binary (--nagi), or any process at all (tools too).

    scripts/count-process-tests.py [--nagi] [-v] [FOLDER]      (default Tests/NagiCLITests)

A test counts when its body, or a helper function it calls (followed by name, through helpers calling helpers),
starts one: `NagiProcess.run`, a copy of the binary, `$NAGI` in a shell pipeline, tmux; without --nagi also
`ChildProcess`, `Pipeline` and `Tool.run` of sox, ffmpeg, bash and the like. A text heuristic, good enough to track
issue 42's "at most 60 of the CLI tests start a process"; -v lists the counted tests by file.
"""
import argparse
import os
import re
from collections import Counter

NAGI = re.compile(r'NagiProcess\.run|NagiProcess\.executableURL|playedAndRendered|NagiBinary|\$NAGI|tmux|copyItem\(at: NagiProcess')
ANY = re.compile(r'NagiProcess\.run|ChildProcess\(|Pipeline\.|Tool\.run|tmux|playedAndRendered|posix_spawn')
FUNC = re.compile(r'(?:(?:private|static|fileprivate|mutating) )*func (\w+)[^{]*\{')
# A one-line string literal: its braces ("{" in a JSON fixture) must not count when bodies are matched.
STRING = re.compile(r'"(?:\\.|[^"\\\n])*"')


def functions(source):
    """(name, is a test, body) of every top-level-in-its-type func: a test when `@Test` stands since the last one."""
    found, last = [], 0
    for match in FUNC.finditer(source):
        if match.start() < last:
            continue
        start = index = match.end() - 1
        depth = 0
        while index < len(source):
            depth += {'{': 1, '}': -1}.get(source[index], 0)
            if depth == 0:
                break
            index += 1
        before = source[last:match.start()].split('}')[-1]
        found.append((match.group(1), '@Test' in before, source[start:index + 1]))
        last = index + 1
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('folder', nargs='?', default='Tests/NagiCLITests')
    parser.add_argument('--nagi', action='store_true', help='count only tests that start the nagi binary')
    parser.add_argument('-v', action='store_true', help='list the counted tests')
    options = parser.parse_args()
    pattern = NAGI if options.nagi else ANY

    tests, helpers = [], {}
    for folder, _, names in os.walk(options.folder):
        for name in sorted(names):
            if not name.endswith('.swift'):
                continue
            with open(os.path.join(folder, name), encoding='utf-8') as file:
                source = STRING.sub(lambda m: re.sub(r'[{}]', '_', m.group(0)), file.read())
            for function, is_test, body in functions(source):
                if is_test:
                    tests.append((name, function, body))
                else:
                    helpers.setdefault(function, []).append(body)
    # `NagiProcess.run` is matched by name above; a bare `run(` would also match `NagiInProcess.run(`.
    helpers.pop('run', None)

    starting = set()

    def starts(body):
        return bool(pattern.search(body)) or any(re.search(r'\b' + re.escape(helper) + r'\(', body) for helper in starting)

    changed = True
    while changed:
        changed = False
        for helper, bodies in helpers.items():
            if helper not in starting and any(starts(body) for body in bodies):
                starting.add(helper)
                changed = True
    counted = [(name, function) for name, function, body in tests if starts(body)]
    print(f'{len(tests)} tests; {len(counted)} start {"the nagi binary" if options.nagi else "a process"}')
    if options.v:
        for name, count in Counter(name for name, _ in counted).most_common():
            print(f'{count:4} {name}: ' + ', '.join(function for file, function in counted if file == name))


if __name__ == '__main__':
    main()
