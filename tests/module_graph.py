#!/usr/bin/env python3
"""The shape of rlock's code, derived from the sources and the build, never counted by hand.

  module_graph.py cycles SRC
      Each folder under SRC (its subfolders with it) as a graph of modules: a module is a header and
      its source (foo.h, foo.cpp; foo_impl.h, its inside, with them), and A needs B when a file of A
      includes B's header. Prints every cycle and exits 1 when there is one.
  module_graph.py links LINKS TARGET FORBIDDEN...
      LINKS is the file the build writes (module_links.txt: each target and the targets it links).
      Exits 1, naming the path, when TARGET links one of FORBIDDEN, directly or through others.
  module_graph.py figures DOC ROOT LINKS [--write]
      The table of DOC (docs/architecture.md) gives each folder's lines of code and of tests and
      each target's links; checks them against ROOT's files and LINKS, or with --write rewrites them.
      A line count passes within 5% (at least 20 lines) of the code's, so that a small change does
      not make the page wrong; the links must be exact.
  module_graph.py headers SRC
      Every header a comment of SRC's sources names exists: a bare name (judge.h) anywhere under
      SRC or SRC/../include, a path (lab/run_log.h) beside the file, under SRC, SRC/../include, the
      checkout or the system's include. Prints each that does not, exit 1.
"""
import collections
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'\s*#\s*include\s+"([^"]+)\.h"')


def module_named(path):
    return path[:-len('_impl')] if path.endswith('_impl') else path


def modules_of(src, folder):
    graph = collections.defaultdict(set)
    for path, _, files in os.walk(os.path.join(src, folder)):
        for name in files:
            if not name.endswith(('.h', '.cpp')) or name.endswith('_test.cpp'):
                continue
            module = module_named(os.path.splitext(os.path.relpath(os.path.join(path, name), src))[0])
            graph[module]
            with open(os.path.join(path, name), errors='replace') as f:
                for line in f:
                    m = INCLUDE.match(line)
                    needed = module_named(m.group(1)) if m else None
                    if needed and needed.startswith(folder + '/') and needed != module:
                        graph[module].add(needed)
    return graph


def cycles_of(graph):
    """Tarjan's strongly connected components of more than one module."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def cycles(src):
    bad = 0
    for folder in sorted(os.listdir(src)):
        if not os.path.isdir(os.path.join(src, folder)):
            continue
        graph = modules_of(src, folder)
        for component in cycles_of(graph):
            bad += 1
            inside = set(component)
            edges = [f'{a} -> {b}' for a in component for b in sorted(graph[a]) if b in inside]
            print(f'{folder}: a cycle among {", ".join(component)}: {"; ".join(edges)}')
    if bad:
        return 1
    print(f'no cycle among the modules of any folder of {src}')
    return 0


def read_links(path):
    links = {}
    with open(path) as f:
        for line in f:
            target, _, rest = line.partition(':')
            links[target.strip()] = rest.split()
    return links


def path_to(links, start, goal):
    seen, queue = {start: None}, collections.deque([start])
    while queue:
        t = queue.popleft()
        if t == goal:
            path = []
            while t is not None:
                path.append(t)
                t = seen[t]
            return path[::-1]
        for u in links.get(t, ()):
            if u not in seen:
                seen[u] = t
                queue.append(u)
    return None


def check_links(links_file, target, forbidden):
    links = read_links(links_file)
    if target not in links:
        print(f'{links_file} has no target {target}')
        return 1
    bad = 0
    for goal in forbidden:
        path = path_to(links, target, goal)
        if path:
            bad += 1
            print(f'{target} links {goal}: {" -> ".join(path)}')
    if not bad:
        print(f'{target} links none of {", ".join(forbidden)}')
    return 1 if bad else 0


# The table's rows: a folder, its files of code (tests are the *_test.cpp among them).
SOURCE = ('.h', '.cpp', '.cc')
OTHER = {'models/': ('.pml',), 'clients/': ('.py', '.go', '.java', '.js', '.mjs', '.rs')}
ROW = re.compile(r'^\| `([^`]+)` \| ([^|]*) \| ([0-9,]*) ?\| ?([0-9,]*) ?\| ?([^|]*?) ?\| (.*)$')


def files_of(root, folder):
    """The files of `folder` the checkout tracks, so that what an install built there (node_modules,
    a .venv, cargo's target) is never counted; every file under it outside a git checkout."""
    listed = subprocess.run(['git', '-C', root, 'ls-files', '-z', '--', folder], capture_output=True)
    if listed.returncode == 0:
        return [os.path.join(root, name) for name in listed.stdout.decode().split('\0') if name]
    return [os.path.join(path, name) for path, _, names in os.walk(os.path.join(root, folder)) for name in names]


def lines_of(root, folder):
    code = tests = 0
    extensions = OTHER.get(folder, SOURCE)
    for path in files_of(root, folder):
        if path.endswith(extensions):
            with open(path, errors='replace') as f:
                n = sum(1 for line in f if line.strip())
            if path.endswith('_test.cpp'):
                tests += n
            else:
                code += n
    return code, tests


def linked(links, cell):
    """The targets named in the table's target cell that the build knows, and the rlock_ ones they link."""
    names = re.findall(r'`([a-z_:]+)`', cell)
    target = next((n.replace('rlock::', 'rlock_') for n in names if n.replace('rlock::', 'rlock_') in links), None)
    if target is None:
        return None
    return ', '.join(f'`{t}`' for t in sorted(t for t in links[target] if t.startswith('rlock_') and t != 'rlock_warnings'))


def near(written, counted):
    """Whether a count the page gives (`1,524`, or empty for none) is within the tolerance of `counted`."""
    value = int(written.replace(',', '')) if written else 0
    return abs(value - counted) <= max(20, counted // 20)


def figures(doc, root, links_file, write):
    links = read_links(links_file)
    with open(doc) as f:
        text = f.read().split('\n')
    wrong = []
    rewritten = 0
    for i, line in enumerate(text):
        m = ROW.match(line)
        if not m:
            continue
        folder, target, code, tests, links_cell, owns = m.groups()
        counted_code, counted_tests = lines_of(root, folder)
        new_links = linked(links, target)
        fields = [f'{counted_code:,}', f'{counted_tests:,}' if counted_tests else '',
                  new_links if new_links is not None else links_cell.strip()]
        if write and [code, tests, links_cell.strip()] != fields:
            rewritten += 1
            text[i] = f'| `{folder}` | {target} | {fields[0]} | {fields[1]} | {fields[2]} | {owns}'
        elif not near(code, counted_code) or not near(tests, counted_tests) or links_cell.strip() != fields[2]:
            wrong.append(f'{folder}: {code or "-"}/{tests or "-"} lines, links {links_cell.strip() or "-"}; '
                         f'counted {fields[0]}/{fields[1] or "-"}, links {fields[2] or "-"}')
    if write:
        with open(doc, 'w') as f:
            f.write('\n'.join(text))
        print(f'{doc}: {rewritten} rows rewritten')
        return 0
    for w in wrong:
        print(w)
    if wrong:
        print(f'{doc}: {len(wrong)} rows differ from the code; run tests/module_graph.py figures {doc} {root} '
              f'{links_file} --write')
        return 1
    print(f'{doc}: every row agrees with the code and the build')
    return 0


HEADER_NAMED = re.compile(r'(?<![\w./-])((?:[a-z_]+/)*[a-z_][a-z0-9_]*\.h)\b')


def missing_headers(src):
    """(file, line number, header) for each header a comment names that is nowhere to be found."""
    root = os.path.dirname(os.path.abspath(src))
    include = os.path.join(root, 'include')
    everywhere = set()  # every header's bare name: a comment may name one of another folder so
    for top in (src, include):
        for _, _, files in os.walk(top):
            everywhere.update(f for f in files if f.endswith('.h'))
    missing = []
    for path, _, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith(('.h', '.cpp', '.in')):
                continue
            file = os.path.join(path, name)
            with open(file, errors='replace') as f:
                for number, line in enumerate(f, 1):
                    at = line.find('//')
                    if at < 0:
                        continue
                    for header in HEADER_NAMED.findall(line[at:]):
                        if '/' not in header and header in everywhere:
                            continue
                        places = [os.path.join(path, header), os.path.join(src, header), os.path.join(include, header),
                                  os.path.join(root, header), os.path.join('/usr/include', header)]
                        if not any(os.path.isfile(p) for p in places):
                            missing.append((os.path.relpath(file, src), number, header))
    return missing


def headers(src):
    missing = missing_headers(src)
    for file, number, header in missing:
        print(f'{file}:{number}: names {header}, which is not there')
    print(f'{src}: {len(missing)} comments name a header that does not exist')
    return 1 if missing else 0


def main(argv):
    if len(argv) >= 3 and argv[1] == 'cycles':
        return cycles(argv[2])
    if len(argv) >= 5 and argv[1] == 'links':
        return check_links(argv[2], argv[3], argv[4:])
    if len(argv) == 3 and argv[1] == 'headers':
        return headers(argv[2])
    if len(argv) in (5, 6) and argv[1] == 'figures':
        return figures(argv[2], argv[3], argv[4], len(argv) == 6 and argv[5] == '--write')
    print(__doc__.strip().split('\n\n')[0])
    print('usage: module_graph.py cycles SRC | links LINKS TARGET FORBIDDEN... | figures DOC ROOT LINKS [--write] | '
          'headers SRC')
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
