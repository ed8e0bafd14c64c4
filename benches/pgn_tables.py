"""What `benches/clock_use.py` and `benches/surprises.py` share: reading PGN files (plain or
gzip), splitting them into games with their headers, and the command line that turns the
files into one table row per engine. Standard library only.
"""

import gzip
import re
import sys

HEADER = re.compile(r'^\[(\w+) "(.*)"\]$', re.M)


def read(path):
    """The text of a PGN file, `.gz` unpacked."""
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt') as f:
        return f.read()


def games_of(text):
    """Each game of a PGN text as (its headers, its movetext)."""
    for part in text.split('[Event ')[1:]:
        headers = dict(HEADER.findall(part))
        body = HEADER.sub('', part)
        yield headers, body


def usage_of(doc):
    """The usage line of a script's docstring: its first indented line."""
    return next(line.strip() for line in doc.splitlines() if line.startswith('    '))


def main(argv, doc, name, measure, nothing, header, row):
    """The scripts' command line: `measure` the files named in `argv`, then print `header`
    and `row(engine, its numbers)` for each engine, by name. Exit status 2 without a file
    (the usage line of `doc`), 1 for a file that cannot be read or when nothing was measured
    (`nothing` says what is missing), 0 otherwise."""
    if len(argv) < 2:
        print(usage_of(doc), file=sys.stderr)
        return 2
    try:
        acc = measure(read(p) for p in argv[1:])
    except (OSError, EOFError, UnicodeDecodeError) as e:
        print(f'{name}: {e}', file=sys.stderr)
        return 1
    if not acc:
        print(f'{name}: {nothing}', file=sys.stderr)
        return 1
    print(header)
    for engine, a in sorted(acc.items()):
        print(row(engine, a))
    return 0
