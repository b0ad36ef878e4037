#!/usr/bin/env python3
"""Builds the hex map of Leipzig 1813 (`scenarios/leipzig-1813/board.ron`) from geography.

The rulebook prints no map. This script lays a hex grid of 10 km hexes (the rulebook's scale) over
the theatre of the 1813 campaign and gives each hex its terrain, and each hexside its river or bridge,
from the latitude and longitude of the places, rivers, mountain ranges, passes and borders listed
below (read off public maps of central Europe; each point is a town or a feature the line runs
through). Run once, then correct the file by hand where a printed map says otherwise:

    python3 scripts/leipzig-map.py > scenarios/leipzig-1813/board.ron

Projection: equirectangular about 51.4 degrees north (1 degree of longitude = 69.45 km, 1 degree of
latitude = 111.2 km), the map's north-west corner at 53.05 N 10.35 E. Hexes are flat-topped in
columns 8.66 km apart, 10 km across the flats; even columns (numbered from 01) sit half a hex lower.
A hex is numbered CCRR (column, row, from 0101 at the north-west corner)."""
import math

COLS, ROWS = 56, 38
LON0, LAT0 = 10.35, 53.05
KX, KY = 69.45, 111.2
SIZE = 10 / math.sqrt(3)  # corner radius of a 10 km hex


def km(lat, lon):
    return ((lon - LON0) * KX, (LAT0 - lat) * KY)


def centre(c, r):
    return (SIZE + c * 1.5 * SIZE, 5 + r * 10 + (5 if c % 2 == 1 else 0))


def hex_at(lat, lon):
    x, y = km(lat, lon)
    best = min(((c, r) for c in range(COLS) for r in range(ROWS)),
               key=lambda h: (centre(*h)[0] - x) ** 2 + (centre(*h)[1] - y) ** 2)
    return best


def name(h):
    return f"{h[0] + 1:02}{h[1] + 1:02}"


def neighbours(c, r):
    # odd-q offset (0-based odd columns are the lower ones)
    if c % 2 == 0:
        d = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1)]
    else:
        d = [(0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)]
    for dc, dr in d:
        n = (c + dc, r + dr)
        if 0 <= n[0] < COLS and 0 <= n[1] < ROWS:
            yield n


def crosses(p, q, a, b):
    def orient(u, v, w):
        return (v[0] - u[0]) * (w[1] - u[1]) - (v[1] - u[1]) * (w[0] - u[0])
    d1, d2 = orient(a, b, p), orient(a, b, q)
    d3, d4 = orient(p, q, a), orient(p, q, b)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0)


def crossed_sides(line):
    pts = [km(*p) for p in line]
    sides = set()
    for c in range(COLS):
        for r in range(ROWS):
            for n in neighbours(c, r):
                if (c, r) >= n:
                    continue
                p, q = centre(c, r), centre(*n)
                k = sum(crosses(p, q, pts[i], pts[i + 1]) for i in range(len(pts) - 1))
                if k % 2 == 1:
                    sides.add(((c, r), n))
    return sides


def dist_to_polyline(x, y, pts):
    best = 1e9
    for (ax, ay), (bx, by) in zip(pts, pts[1:]):
        dx, dy = bx - ax, by - ay
        t = max(0, min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
        best = min(best, math.hypot(ax + t * dx - x, ay + t * dy - y))
    return best


def inside(x, y, poly):
    n, res = len(poly), False
    for i in range(n):
        (ax, ay), (bx, by) = poly[i], poly[(i + 1) % n]
        if (ay > y) != (by > y) and x < (bx - ax) * (y - ay) / (by - ay) + ax:
            res = not res
    return res


# The places the rulebook names (and a few more towns the rivers' bridges stand at).
FORTRESSES = {
    "Berlin": (52.52, 13.40), "Dresden": (51.05, 13.74), "Breslau": (51.11, 17.03),
    "Prague": (50.08, 14.42), "Magdeburg": (52.13, 11.63), "Torgau": (51.56, 13.00),
    "Wittenberg": (51.87, 12.65), "Küstrin": (52.58, 14.64), "Glogau": (51.66, 16.08),
}
CITIES = {
    "Leipzig": (51.34, 12.37), "Gotha": (50.95, 10.70), "Chemnitz": (50.83, 12.92),
    "Halle": (51.48, 11.97), "Rosslau": (51.89, 12.24), "Posen": (52.41, 16.93),
}
RIVERS = {
    "Elbe": [(50.35, 14.47), (50.53, 14.13), (50.66, 14.04), (50.78, 14.21), (50.96, 13.94),
             (51.05, 13.74), (51.16, 13.47), (51.31, 13.29), (51.56, 13.00), (51.87, 12.65),
             (51.86, 12.27), (51.86, 12.05), (51.97, 11.88), (52.13, 11.64), (52.54, 11.97),
             (52.83, 12.07), (53.10, 11.80)],
    "Saale": [(50.45, 11.40), (50.65, 11.36), (50.72, 11.33), (50.93, 11.59), (51.15, 11.81),
              (51.20, 11.97), (51.35, 11.99), (51.48, 11.97), (51.79, 11.74), (51.97, 11.88)],
    "Mulde": [(50.72, 12.49), (50.82, 12.54), (51.05, 12.80), (51.13, 12.80), (51.24, 12.72),
              (51.37, 12.74), (51.46, 12.63), (51.59, 12.59), (51.62, 12.33), (51.84, 12.25)],
    "Spree": [(51.00, 14.60), (51.18, 14.42), (51.57, 14.37), (51.76, 14.33), (51.94, 13.89),
              (52.17, 14.25), (52.36, 14.06), (52.45, 13.58), (52.52, 13.40), (52.54, 13.20)],
    "Oder": [(50.60, 17.40), (50.86, 17.47), (51.11, 17.03), (51.40, 16.43), (51.66, 16.08),
             (51.80, 15.72), (52.05, 15.10), (52.35, 14.55), (52.58, 14.64), (53.10, 14.30)],
    "Bober": [(50.78, 16.03), (50.90, 15.73), (51.10, 15.58), (51.26, 15.57), (51.62, 15.32),
              (52.05, 15.10)],
    "Katzbach": [(50.93, 15.95), (51.07, 15.92), (51.21, 16.16), (51.37, 16.35), (51.40, 16.43)],
    "Neisse": [(50.77, 15.06), (50.90, 14.81), (51.15, 14.99), (51.33, 14.96), (51.55, 14.72),
               (51.95, 14.72), (52.07, 14.75)],
}
# Towns whose bridges cross a river (the hexsides of their hex along that river are bridged).
BRIDGES = {
    "Elbe": {"Dresden": (51.05, 13.74), "Meissen": (51.16, 13.47), "Torgau": (51.56, 13.00),
             "Wittenberg": (51.87, 12.65), "Rosslau": (51.89, 12.24), "Magdeburg": (52.13, 11.63),
             "Pirna": (50.96, 13.94)},
    "Saale": {"Halle": (51.48, 11.97), "Merseburg": (51.35, 11.99), "Weissenfels": (51.20, 11.97),
              "Naumburg": (51.15, 11.81), "Jena": (50.93, 11.59)},
    "Mulde": {"Grimma": (51.24, 12.72), "Wurzen": (51.37, 12.74), "Eilenburg": (51.46, 12.63),
              "Düben": (51.59, 12.59), "Dessau": (51.84, 12.25)},
    "Spree": {"Bautzen": (51.18, 14.42), "Berlin": (52.52, 13.40), "Cottbus": (51.76, 14.33)},
    "Oder": {"Breslau": (51.11, 17.03), "Glogau": (51.66, 16.08), "Crossen": (52.05, 15.10),
             "Frankfurt": (52.35, 14.55), "Küstrin": (52.58, 14.64), "Steinau": (51.40, 16.43)},
    "Bober": {"Bunzlau": (51.26, 15.57), "Löwenberg": (51.10, 15.58), "Sagan": (51.62, 15.32)},
    "Katzbach": {"Liegnitz": (51.21, 16.16), "Goldberg": (51.07, 15.92)},
    "Neisse": {"Görlitz": (51.15, 14.99), "Guben": (51.95, 14.72), "Zittau": (50.90, 14.81)},
}
# Mountain ranges as ridge lines with their width in km.
MOUNTAINS = {
    "Erzgebirge": ([(50.25, 12.25), (50.45, 12.75), (50.55, 13.20), (50.68, 13.60), (50.76, 13.95)], 26),
    "Elbsandsteingebirge": ([(50.86, 14.08), (50.90, 14.32)], 14),
    "Lusatian and Jizera Mountains": ([(50.82, 14.60), (50.85, 15.00), (50.83, 15.30)], 18),
    "Riesengebirge": ([(50.78, 15.40), (50.73, 15.75), (50.68, 16.00)], 24),
    "Waldenburg and Owl Mountains": ([(50.72, 16.15), (50.60, 16.50), (50.45, 16.70)], 22),
    "Glatz Mountains and Jeseníky": ([(50.30, 16.50), (50.15, 16.90), (50.10, 17.30)], 28),
    "Thuringian Forest": ([(50.92, 10.35), (50.75, 10.70), (50.60, 11.00), (50.45, 11.35)], 20),
    "Harz": ([(51.80, 10.35), (51.75, 10.80), (51.65, 11.10)], 24),
    "Fichtelgebirge and Upper Palatine Forest": ([(50.05, 11.85), (49.90, 12.30), (49.60, 12.55)], 24),
    "Bohemian-Moravian Highlands": ([(49.62, 15.20), (49.70, 16.20)], 26),
}
# The roads through the mountains: the hex of each is a mountain pass.
PASSES = {
    "Nollendorf (Dresden-Teplitz)": (50.76, 13.96), "Zinnwald (Altenberg)": (50.74, 13.77),
    "Sebastiansberg (Chemnitz-Komotau)": (50.52, 13.20), "Gabel (Zittau)": (50.79, 14.75),
    "Friedland": (50.88, 15.10), "Landeshut (Schmiedeberg)": (50.72, 15.95),
    "Nachod (Glatz)": (50.42, 16.17), "Königstein (the Elbe valley)": (50.92, 14.07),
    "Oberhof (Gotha-Coburg)": (50.71, 10.73), "Eger (Asch)": (50.08, 12.35),
}
# Bohemia and Moravia (Austria in 1813): its northern border from the west edge to the east edge.
AUSTRIA = [(49.50, 12.45), (50.08, 12.15), (50.25, 12.20), (50.40, 12.80), (50.55, 13.25),
           (50.70, 13.75), (50.78, 14.00), (50.87, 14.25), (51.00, 14.47), (50.87, 14.82),
           (50.86, 15.00), (51.00, 15.25), (50.78, 15.55), (50.65, 15.95), (50.62, 16.20),
           (50.65, 16.35), (50.45, 16.25), (50.20, 16.55), (50.15, 16.90), (50.30, 17.20),
           (50.30, 17.60), (49.50, 17.60)]
# The armistice line of June 1813 (Pläswitz), from the north-west edge to the east edge: along the
# Elbe's right bank above Magdeburg, the Saxon-Prussian border of 1813, the Bober and the Katzbach,
# and south of Breslau to the east edge (Breslau, in the neutral zone, counts on the Allied side).
ARMISTICE = [(53.20, 11.60), (52.60, 11.85), (52.30, 11.95), (52.05, 12.30), (51.98, 12.60),
             (51.86, 13.10), (51.76, 13.60), (51.74, 14.10), (51.60, 14.60), (51.52, 15.00),
             (51.35, 15.55), (51.25, 16.00), (51.15, 16.40), (51.00, 16.80), (50.92, 17.50)]

ROW = {}  # (c, r) -> terrain char


def main():
    terrain = [["." for _ in range(COLS)] for _ in range(ROWS)]
    for rng, (ridge, width) in MOUNTAINS.items():
        pts = [km(*p) for p in ridge]
        for c in range(COLS):
            for r in range(ROWS):
                x, y = centre(c, r)
                if dist_to_polyline(x, y, pts) <= width / 2 + 2:
                    terrain[r][c] = "m"
    for p, ll in PASSES.items():
        c, r = hex_at(*ll)
        terrain[r][c] = "p"
    places = []
    for n, ll in FORTRESSES.items():
        c, r = hex_at(*ll)
        terrain[r][c] = "F"
        places.append((n, (c, r)))
    for n, ll in CITIES.items():
        c, r = hex_at(*ll)
        terrain[r][c] = "c"
        places.append((n, (c, r)))
    assert len({h for _, h in places}) == len(places), "two places in one hex"
    austria_poly = [km(*p) for p in AUSTRIA]
    austria = [["A" if inside(*centre(c, r), austria_poly) else "." for c in range(COLS)] for r in range(ROWS)]
    # The armistice line: hexes reached from Berlin without crossing it are on the Allied side.
    wall = crossed_sides(ARMISTICE)
    start = hex_at(*FORTRESSES["Berlin"])
    allied, todo = {start}, [start]
    while todo:
        h = todo.pop()
        for n in neighbours(*h):
            key = (h, n) if h < n else (n, h)
            if n not in allied and key not in wall:
                allied.add(n)
                todo.append(n)
    for ll in (FORTRESSES["Dresden"], FORTRESSES["Magdeburg"], CITIES["Leipzig"]):
        assert hex_at(*ll) not in allied, "the armistice line must leave the French centre"
    sides = [["N" if (c, r) in allied else "S" for c in range(COLS)] for r in range(ROWS)]
    rivers = {}
    for rv, line in RIVERS.items():
        rivers[rv] = sorted(crossed_sides(line))
    bridges = []
    for rv, towns in BRIDGES.items():
        for town, ll in towns.items():
            h = hex_at(*ll)
            own = [s for s in rivers[rv] if h in s]
            if not own:
                x, y = km(*ll)
                own = [min(rivers[rv], key=lambda s: math.hypot(
                    (centre(*s[0])[0] + centre(*s[1])[0]) / 2 - x, (centre(*s[0])[1] + centre(*s[1])[1]) / 2 - y))]
            for s in own:
                if all(s != b[2] for b in bridges):
                    bridges.append((rv, town, s))
    out = []
    w = out.append
    w("// Leipzig 1813: the map. Generated by scripts/leipzig-map.py (see its header), then open to")
    w("// correction by hand: an owner of the printed map may retype any row, river or bridge.")
    w("(")
    w('    provenance: Reconstructed("The rulebook prints no map. Hex grid of 10 km hexes (the rulebook\'s scale) laid over the 1813 theatre; terrain, rivers, bridges, the Austrian border and the armistice line placed from the real geography by scripts/leipzig-map.py."),')
    w('    derivation: "Equirectangular projection about 51.4 N (1 degree of longitude = 69.45 km, of latitude = 111.2 km), north-west corner 53.05 N 10.35 E; flat-topped hexes in columns 8.66 km apart, 10 km across the flats, even columns half a hex lower; hex CCRR = column, row from 0101 at the north-west. A place lies in the hex nearest its latitude and longitude; a hex is mountain when its centre lies within the half-width (+2 km) of a range\'s ridge line; a hexside is a river when the line between the two hexes\' centres crosses the river\'s course an odd number of times; a bridge town bridges the river hexsides of its own hex; Austria is every hex whose centre lies south of Bohemia\'s 1813 border; the armistice line splits the map along the Pläswitz demarcation of June 1813 (Breslau counted on the Allied side).",')
    w(f"    columns: {COLS},")
    w(f"    rows: {ROWS},")
    w("    // . clear, c city, F city-fortress, m mountain, p mountain pass (row 01 first)")
    w("    terrain: [")
    for row in terrain:
        w(f'        "{"".join(row)}",')
    w("    ],")
    w("    // A: Austria (Bohemia and Moravia); . elsewhere")
    w("    austria: [")
    for row in austria:
        w(f'        "{"".join(row)}",')
    w("    ],")
    w("    // The armistice line: N the Allied (north-east) side, S the French (south-west) side")
    w("    armistice: [")
    for row in sides:
        w(f'        "{"".join(row)}",')
    w("    ],")
    w("    places: [")
    for n, h in places:
        w(f'        ("{n}", "{name(h)}"),')
    w("    ],")
    w("    // Each river's hexsides, as the two hexes they separate")
    w("    rivers: [")
    for rv, sides_ in rivers.items():
        w(f'        ("{rv}", [')
        line = "            "
        for a, b in sides_:
            item = f'"{name(a)}/{name(b)}", '
            if len(line) + len(item) > 110:
                w(line.rstrip())
                line = "            "
            line += item
        w(line.rstrip())
        w("        ]),")
    w("    ],")
    w("    // Bridged river hexsides: (river, the town, the hexside)")
    w("    bridges: [")
    for rv, town, (a, b) in bridges:
        w(f'        ("{rv}", "{town}", "{name(a)}/{name(b)}"),')
    w("    ],")
    w("    // The mountain passes' names (their hexes are p above)")
    w("    passes: [")
    for p, ll in PASSES.items():
        w(f'        ("{p}", "{name(hex_at(*ll))}"),')
    w("    ],")
    w("    // The mountain ranges' names, with a hex of each, for the map's lettering")
    w("    ranges: [")
    for rng, (ridge, _) in MOUNTAINS.items():
        mid = ridge[len(ridge) // 2]
        w(f'        ("{rng}", "{name(hex_at(*mid))}"),')
    w("    ],")
    w(")")
    print("\n".join(out))


if __name__ == "__main__":
    main()
