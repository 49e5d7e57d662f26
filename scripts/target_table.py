#!/usr/bin/env python3
"""Prints the library targets of the build as docs/design.md shows them: one row per target
(folder, target, what it holds, the ordo targets it links, the outside ones), read from every
CMakeLists.txt outside tests/ and bench/, then the same links as a Mermaid graph.

Usage: scripts/target_table.py [--check PAGE] [ROOT]
  (ROOT: the repository, by default this script's parent). With --check, exits 1 naming the first
  difference unless PAGE holds the table between <!-- targets:begin --> and <!-- targets:end -->
  and the graph between <!-- graph:begin --> and <!-- graph:end --> as printed.
"""
import pathlib
import re
import sys

args = sys.argv[1:]
check = None
if args[:1] == ['--check']:
    check, args = pathlib.Path(args[1]), args[2:]
root = pathlib.Path(args[0] if args else pathlib.Path(__file__).resolve().parent.parent)


def calls(text, name):
    """Each `name(...)` call's argument text, with the first comment block since the call before
    it that defines or sets up a target (find_package() and the like may stand between)."""
    lines = text.splitlines(keepends=True)
    target_call = re.compile(r'\s*(add_library|add_executable|target_\w+|set_target_properties|'
                             r'add_subdirectory)\(')
    for m in re.finditer(r'^[ \t]*' + name + r'\(([^)]*)\)', text, re.M):
        at = text.count('\n', 0, m.start())
        start = at - 1
        while start >= 0 and not target_call.match(lines[start]):
            start -= 1
        comment, i = [], start + 1
        while i < at and not lines[i].lstrip().startswith('#'):
            i += 1
        while i < at and lines[i].lstrip().startswith('#'):
            comment.append(lines[i])
            i += 1
        yield ''.join(comment), m.group(1)


def first_sentence(comment):
    text = ' '.join(l.strip().lstrip('#').strip() for l in comment.strip().splitlines())
    text = re.sub(r'^ordo_\w+: ', '', text)
    text = re.split(r'(?<=[a-z)\]`])\. ', text)[0].rstrip('.')
    return text or "-"


targets = {}
for cm in sorted(root.rglob('CMakeLists.txt')):
    rel = cm.parent.relative_to(root)
    if rel.parts and rel.parts[0] in ('tests', 'bench', 'build', 'examples', '.git'):
        continue
    text = cm.read_text()
    for comment, args in calls(text, 'add_library'):
        words = args.split()
        if not words or '::' in words[0]:
            continue
        targets[words[0]] = {'folder': str(rel) + '/' if str(rel) != '.' else './',
                             'holds': first_sentence(comment), 'public': [], 'private': [],
                             'outside': []}
    for _, args in calls(text, 'target_link_libraries'):
        words = args.split()
        if not words or words[0] not in targets:
            continue
        t = targets[words[0]]
        scope = 'public'
        for w in words[1:]:
            if w in ('PUBLIC', 'INTERFACE'):
                scope = 'public'
            elif w == 'PRIVATE':
                scope = 'private'
            elif w == 'ordo_warnings':
                continue
            elif w.startswith('ordo_'):
                t[scope].append(w)
            else:
                t['outside'].append(re.sub(r'::.*|\$\{|\}', '', w) or w)

out = []
out.append('| folder | target | holds | links (ordo targets; private in italics) | links (outside) |')
out.append('|---|---|---|---|---|')
for name, t in sorted(targets.items(), key=lambda kv: (kv[1]['folder'], kv[0])):
    links = ', '.join([f'`{l}`' for l in t['public']] + [f'_`{l}`_' for l in t['private']]) or '-'
    outside = ', '.join(sorted(set(t['outside']))) or '-'
    out.append(f"| `{t['folder']}` | `{name}` | {t['holds']} | {links} | {outside} |")
out.append('')
out.append('```mermaid')
out.append('flowchart BT')
for name, t in sorted(targets.items()):
    for l in t['public']:
        if l in targets:
            out.append(f'  {name} --> {l}')
    for l in t['private']:
        if l in targets:
            out.append(f'  {name} -.-> {l}')
out.append('```')

table, graph = '\n'.join(out).split('\n\n```mermaid')
graph = '```mermaid' + graph
if check is None:
    print(table + '\n\n' + graph)
    sys.exit(0)
page = check.read_text()
for name, want in (('targets', table), ('graph', graph)):
    found = re.search(r'<!-- ' + name + r':begin -->\n(.*?)\n<!-- ' + name + r':end -->', page, re.S)
    if not found:
        sys.exit(f'{check}: no <!-- {name}:begin --> ... <!-- {name}:end --> block')
    have = found.group(1).strip().splitlines()
    for i, (h, w) in enumerate(zip(have, want.strip().splitlines())):
        if h != w:
            sys.exit(f'{check}: the {name} block differs from the CMakeLists.txt files at its line {i + 1}:\n'
                     f'  page: {h}\n  now:  {w}\n(run scripts/target_table.py and paste)')
    if len(have) != len(want.strip().splitlines()):
        sys.exit(f'{check}: the {name} block has {len(have)} lines, the CMakeLists.txt files give '
                 f'{len(want.strip().splitlines())} (run scripts/target_table.py and paste)')
print(f'{check}: the target table and graph match the CMakeLists.txt files')
