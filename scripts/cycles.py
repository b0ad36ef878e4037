#!/usr/bin/env python3
"""Import cycles between the modules of src/ (issue 31): `scripts/cycles.py . [glob]`.

A module is a file. An edge is a path the file's code names (`crate::`, `super::`, `self::`, a
child module's `name::`), resolved through re-exports to the module that defines the name; a
facade's own `pub use` lines and comments are not edges; with `glob`, `use super::*` is one.
Tests (`#[cfg(test)] mod tests`) are left out. Prints the cycles (strongly connected components).
"""
import re,glob,sys,os
root=sys.argv[1]; GLOB=len(sys.argv)>2; src=root+'/src/'
mods={}
for p in glob.glob(src+'**/*.rs',recursive=True):
    rel=p[len(src):-3].split('/')
    if rel[-1] in ('mod','lib','main'): rel=rel[:-1]
    mods[tuple(rel)]=p
def resolve(cur, path, depth=0):
    r=resolve0(cur,path)
    if r is None or depth>5: return r
    # a name re-exported by the module the path reaches resolves where it is defined
    full=path.split('::')
    name=full[-1]
    if (r,name) in reexp and r!=cur:
        base,m=reexp[(r,name)]
        r2=resolve(m,base+'::'+name,depth+1)
        if r2 is not None: return r2
    return r
def resolve0(cur, path):
    parts=path.split('::')
    if parts[0]=='crate': base=[]; parts=parts[1:]
    elif parts[0]=='super':
        base=list(cur)
        # cur is module of the file; super goes up
        while parts and parts[0]=='super': base=base[:-1]; parts=parts[1:]
    elif parts[0]=='self': base=list(cur); parts=parts[1:]
    else: return None
    full=base+parts
    for k in range(len(full),-1,-1):
        if tuple(full[:k]) in mods: return tuple(full[:k])
edges={m:set() for m in mods}
reexp={}
for m,p in mods.items():
    t=open(p).read()
    for path,group,single in re.findall(r'^pub use ((?:crate|super|self|\w+)(?:::\w+)*)::(?:\{([^}]*)\}|(\w+));',t,re.M):
        base=path if path.split('::')[0] in ('crate','super','self') else 'self::'+path
        names=[x.strip() for x in group.split(',')] if group else [single]
        for n in names:
            n=n.split(' as ')[-1].strip()
            if n and n!='self':
                reexp[(m,n)]=(base,m)
for m,p in mods.items():
    s=open(p).read()
    s=s.split('#[cfg(test)]\nmod tests')[0]
    s=re.sub(r'(?m)^\s*//.*$','',s)
    # a facade's re-exports are not its own uses: callers resolve through them to the definer
    s=re.sub(r'(?m)^pub use [^;]*;','',s)
    # expand use groups roughly: take prefix before {
    if GLOB:
        for g in re.findall(r'^use ((?:super|crate|self)(?:::\w+)*)::\*;',s,re.M):
            r=resolve(m,g)
            if r and r!=m: edges[m].add(r)
    kids=set(re.findall(r'^\s*(?:pub(?:\([^)]*\))? )?mod (\w+);',s,re.M))
    for k in kids:
        for _ in re.findall(r'(?<![:\w])%s::\w'%k, s):
            r=resolve(m,'self::'+k)
            if r and r!=m: edges[m].add(r)
    for ref in re.findall(r'\b((?:crate|super|self)(?:::(?:super|\w+))+)(::\{([^;]*?)\})?',s):
        base=ref[0]
        targets=[base]
        if ref[2]:
            for item in re.split(r'[,\s]+',ref[2]):
                item=item.strip('{} ')
                if item and item!='self': targets.append(base+'::'+item.split('::')[0])
        for t in targets:
            r=resolve(m,t)
            if r is not None and r!=m and not (len(r)<len(m) and m[:len(r)]==r and False): edges[m].add(r)
# drop edges to ancestors (mod.rs re-exports) ? keep all
sys.setrecursionlimit(10000)
idx={};low={};st=[];on=set();sccs=[];c=[0]
def tarjan(v):
    idx[v]=low[v]=c[0];c[0]+=1;st.append(v);on.add(v)
    for w in edges[v]:
        if w not in idx: tarjan(w); low[v]=min(low[v],low[w])
        elif w in on: low[v]=min(low[v],idx[w])
    if low[v]==idx[v]:
        comp=[]
        while True:
            w=st.pop();on.discard(w);comp.append(w)
            if w==v: break
        if len(comp)>1: sccs.append(comp)
for v in mods:
    if v not in idx: tarjan(v)
print(len(sccs),'cycles')
for comp in sorted(sccs,key=len,reverse=True):
    print(len(comp), ' '.join('::'.join(x) or 'crate' for x in sorted(comp))[:600])
