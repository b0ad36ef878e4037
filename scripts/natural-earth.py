#!/usr/bin/env python3
"""Converts Natural Earth's 1:50m land (public domain), as packaged in the npm package
`world-atlas` 2.0.2 (`land-50m.json`, TopoJSON), into the coastline of Victory & Glory's map:
the land polygons that reach into Europe's box, simplified, clipped to a margin around it, as
RON lists of (longitude, latitude) pairs. Run once:

    npm pack world-atlas@2.0.2 && tar xzf world-atlas-2.0.2.tgz
    python3 scripts/natural-earth.py package/land-50m.json > coast.ron

and paste the output into scenarios/victory-and-glory/map.ron (`land:`)."""
import json, sys

BOX = (-16.0, 25.0, 42.0, 68.0)  # west, south, east, north: the map's extent with a margin
TOLERANCE = 0.06  # degrees: Douglas-Peucker simplification
MIN_AREA = 0.15  # square degrees: smaller islands are dropped

def decode(topo):
    sx, sy = topo["transform"]["scale"]
    tx, ty = topo["transform"]["translate"]
    arcs = []
    for arc in topo["arcs"]:
        x = y = 0
        pts = []
        for dx, dy in arc:
            x += dx
            y += dy
            pts.append((x * sx + tx, y * sy + ty))
        arcs.append(pts)
    return arcs

def ring(arcs, indices):
    pts = []
    for i in indices:
        a = arcs[i] if i >= 0 else list(reversed(arcs[~i]))
        pts.extend(a if not pts else a[1:])
    return pts

def simplify(pts, tol):
    if len(pts) < 3:
        return pts
    keep = [False] * len(pts)
    keep[0] = keep[-1] = True
    stack = [(0, len(pts) - 1)]
    while stack:
        i, j = stack.pop()
        (x1, y1), (x2, y2) = pts[i], pts[j]
        dx, dy = x2 - x1, y2 - y1
        norm = (dx * dx + dy * dy) ** 0.5 or 1e-12
        best, k = -1.0, -1
        for m in range(i + 1, j):
            x0, y0 = pts[m]
            d = abs(dy * x0 - dx * y0 + x2 * y1 - y2 * x1) / norm
            if d > best:
                best, k = d, m
        if best > tol:
            keep[k] = True
            stack += [(i, k), (k, j)]
    return [p for p, k in zip(pts, keep) if k]

def simplify_ring(pts, tol):
    # A closed ring starts and ends on one point: split it at the point farthest from there.
    x0, y0 = pts[0]
    k = max(range(len(pts)), key=lambda m: (pts[m][0] - x0) ** 2 + (pts[m][1] - y0) ** 2)
    return simplify(pts[: k + 1], tol) + simplify(pts[k:], tol)[1:]

def area(pts):
    return abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]))) / 2

def main():
    topo = json.load(open(sys.argv[1]))
    arcs = decode(topo)
    w, s, e, n = BOX
    out = []
    for geom in topo["objects"]["land"]["geometries"]:
        polys = geom["arcs"] if geom["type"] == "MultiPolygon" else [geom["arcs"]]
        for poly in polys:
            outer = ring(arcs, poly[0])
            if not any(w <= x <= e and s <= y <= n for x, y in outer):
                continue
            # Clamping to the box clips the polygon for filling: what lies beyond the margin is
            # outside the map anyway.
            clamped = [(min(max(x, w), e), min(max(y, s), n)) for x, y in outer]
            pts = simplify_ring(clamped, TOLERANCE)
            dedup = [p for i, p in enumerate(pts) if i == 0 or p != pts[i - 1]]
            if len(dedup) >= 4 and area(dedup) >= MIN_AREA:
                out.append(dedup)
    print("    land: [")
    for r in out:
        print("        [" + ", ".join(f"({x:.2f}, {y:.2f})" for x, y in r) + "],")
    print("    ],")
    print(f"// {len(out)} polygons, {sum(len(r) for r in out)} points", file=sys.stderr)

main()
