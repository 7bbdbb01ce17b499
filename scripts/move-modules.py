#!/usr/bin/env python3
"""Move files per map.txt (old new per line) with git mv and rewrite every relative
import specifier in the tracked TS/JS files so it points at the same module afterwards."""
import os, re, subprocess, sys
root = os.getcwd()
mp = {}
for line in open(sys.argv[1]):
    if line.strip():
        a, b = line.split()
        mp[a] = b
files = subprocess.check_output(['git', 'ls-files'], text=True).split()
files = [f for f in files if re.search(r'\.(ts|tsx|mts|mjs|js)$', f) and not f.startswith('node_modules')]
spec_re = re.compile(r"""((?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|\brequire\(\s*|vi\.mock\(\s*|new URL\(\s*)(['"]))(\.{1,2}/[^'"]*)(\2)""")
def resolve_target(fdir, spec):
    p = os.path.normpath(os.path.join(fdir, spec))
    cands = []
    if p.endswith('.js'): cands.append(p[:-3] + '.ts')
    cands += [p, p + '.ts', os.path.join(p, 'index.ts')]
    for c in cands:
        if os.path.isfile(os.path.join(root, c)) or c in mp: return c
    return None
changed = 0
newtext = {}
for f in files:
    src = open(f, encoding='utf-8').read()
    nf = mp.get(f, f)
    fdir, nfdir = os.path.dirname(f), os.path.dirname(nf)
    def repl(m):
        spec = m.group(3)
        t = resolve_target(fdir, spec)
        if t is None:
            return m.group(0)
        nt = mp.get(t, t)
        if nt == t and nf == f: return m.group(0)
        # keep the specifier's style: .js for .ts, directory import for index.ts
        p = os.path.normpath(os.path.join(fdir, spec))
        if t.endswith('/index.ts') and not p.endswith('index.js') and not p.endswith('index.ts') and not p.endswith('index'):
            tgt = os.path.dirname(nt)
        elif spec.endswith('.js') and nt.endswith('.ts'): tgt = nt[:-3] + '.js'
        elif spec.endswith('.ts'): tgt = nt
        elif not os.path.splitext(spec)[1] and nt.endswith('.ts'): tgt = nt[:-3]
        else: tgt = nt
        r = os.path.relpath(tgt, nfdir)
        if not r.startswith('.'): r = './' + r
        return m.group(1) + r + m.group(4)
    out = spec_re.sub(repl, src)
    if out != src:
        newtext[f] = out
for a, b in mp.items():
    os.makedirs(os.path.dirname(b), exist_ok=True)
    subprocess.check_call(['git', 'mv', a, b])
for f, t in newtext.items():
    open(mp.get(f, f), 'w', encoding='utf-8').write(t)
    changed += 1
print('moved', len(mp), 'rewrote', changed)
