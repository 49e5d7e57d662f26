#!/usr/bin/env python3
"""Prints the library targets of the build as docs/design.md shows them: one row per target
(folder, target, what it holds, the ordo targets it links, the outside ones), read from every
CMakeLists.txt outside tests/ and bench/, then the same links as a Mermaid graph.

Usage: scripts/target_table.py [ROOT]   (ROOT: the repository, by default this script's parent)
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)


def calls(text, name):
    """Each `name(...)` call's argument text, with the comment lines just above it."""
    for m in re.finditer(r'((?:^[ \t]*#[^\n]*\n)*)^[ \t]*' + name + r'\(([^)]*)\)', text, re.M):
        yield m.group(1), m.group(2)


def first_sentence(comment):
    text = ' '.join(l.strip().lstrip('#').strip() for l in comment.strip().splitlines())
    text = re.split(r'(?<=[a-z)\]])\. ', text)[0].rstrip('.')
    return text or '-'


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

print('| folder | target | holds | links (ordo targets; private in italics) | links (outside) |')
print('|---|---|---|---|---|')
for name, t in sorted(targets.items(), key=lambda kv: (kv[1]['folder'], kv[0])):
    links = ', '.join([f'`{l}`' for l in t['public']] + [f'_`{l}`_' for l in t['private']]) or '-'
    outside = ', '.join(sorted(set(t['outside']))) or '-'
    print(f"| `{t['folder']}` | `{name}` | {t['holds']} | {links} | {outside} |")
print()
print('```mermaid')
print('flowchart BT')
for name, t in sorted(targets.items()):
    for l in t['public']:
        if l in targets:
            print(f'  {name} --> {l}')
    for l in t['private']:
        if l in targets:
            print(f'  {name} -.-> {l}')
print('```')
