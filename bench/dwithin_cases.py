#!/usr/bin/env python3
"""bench/dwithin_cases.py: adversarial distance cases for comparing gx_dwithin with PostGIS ST_3DDWithin.

Writes "id<TAB>a (EWKT)<TAB>b (EWKT)<TAB>d<TAB>truth" lines, truth the exact answer (t/f):
  - pairs whose exact distance is exactly d (a Pythagorean offset scaled by a power of two, so every
    coordinate is a double and the distance exact), and d one ulp either side, at UTM offsets, for
    point-segment, point-triangle and segment-segment configurations;
  - general pairs (a point and a segment or a triangle in any direction, at UTM offsets, centimetre to
    metre features): d is the largest double below the exact distance (truth f) and the smallest one
    at or above it (truth t), the exact distance computed in rationals."""
import math
import random
import sys
from fractions import Fraction as F

random.seed(int(sys.argv[2]) if len(sys.argv) > 2 else 7)
n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000

# exact rational rotations about z by Pythagorean angles (cos, sin) = (a/c, b/c)
ROT = [(F(1), F(0)), (F(3, 5), F(4, 5)), (F(5, 13), F(12, 13)), (F(8, 17), F(15, 17)), (F(20, 29), F(21, 29))]
TRIPLES = [(3, 4, 5), (5, 12, 13), (8, 15, 17), (7, 24, 25), (20, 21, 29)]


def exact_double(q):
    """q as a double if it is one exactly, else None."""
    f = float(q)
    return f if F(f) == q else None


def fmt(v):
    return repr(float(v))


def nudge(x, sign):
    return math.nextafter(x, math.inf if sign > 0 else -math.inf)


def emit(out, idx, a, b, d, truth):
    out.write(f"{idx}\tSRID=32633;{a}\tSRID=32633;{b}\t{fmt(d)}\t{'t' if truth else 'f'}\n")


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def sub(a, b):
    return tuple(x - y for x, y in zip(a, b))


def bracket(d2):
    """The doubles just below and at-or-above sqrt(d2) (d2 a positive Fraction)."""
    d = math.sqrt(float(d2))
    while F(d) ** 2 >= d2:
        d = math.nextafter(d, 0)
    while F(math.nextafter(d, math.inf)) ** 2 < d2:
        d = math.nextafter(d, math.inf)
    return d, math.nextafter(d, math.inf)


def general(out, idx):
    """A random point against a random segment or triangle; the exact distance in rationals."""
    o = (random.uniform(4e5, 6e5), random.uniform(6.9e6, 7.1e6), random.uniform(-500, 500))
    size = 10 ** random.uniform(-2, 2)

    def rnd_pt():
        return tuple(float(c + random.uniform(-size, size)) for c in o)

    p = rnd_pt()
    P = tuple(F(x) for x in p)
    if random.random() < 0.5:
        a, b = rnd_pt(), rnd_pt()
        A, B = tuple(F(x) for x in a), tuple(F(x) for x in b)
        ab = sub(B, A)
        t = dot(sub(P, A), ab) / dot(ab, ab)
        t = min(max(t, F(0)), F(1))
        c = tuple(x + t * y for x, y in zip(A, ab))
        d2 = dot(sub(P, c), sub(P, c))
        bw = "LINESTRING Z (%s %s %s, %s %s %s)" % tuple(fmt(x) for x in a + b)
    else:
        a, b, c3 = rnd_pt(), rnd_pt(), rnd_pt()
        A, B, C = (tuple(F(x) for x in v) for v in (a, b, c3))
        u, v = sub(B, A), sub(C, A)
        nrm = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
        if dot(nrm, nrm) == 0:
            return 0
        # the point above the triangle's interior: its foot inside, so the distance is to the plane
        w = [random.random() for _ in range(3)]
        w = [x / sum(w) for x in w]
        foot = tuple(w[0] * x + w[1] * y + w[2] * z for x, y, z in zip(a, b, c3))
        nn = math.sqrt(float(dot(nrm, nrm)))
        h = size * random.uniform(0.05, 1)
        p = tuple(float(f + h * float(k) / nn) for f, k in zip(foot, nrm))
        P = tuple(F(x) for x in p)
        # the foot of the double point must still be inside: barycentric coordinates of its projection
        ap = sub(P, A)
        d00, d01, d11 = dot(u, u), dot(u, v), dot(v, v)
        d20, d21 = dot(ap, u), dot(ap, v)
        den = d00 * d11 - d01 * d01
        s1 = (d11 * d20 - d01 * d21) / den
        s2 = (d00 * d21 - d01 * d20) / den
        if s1 <= 0 or s2 <= 0 or s1 + s2 >= 1:
            return 0
        d2 = dot(ap, nrm) ** 2 / dot(nrm, nrm)
        bw = "TRIANGLE Z ((%s %s %s, %s %s %s, %s %s %s, %s %s %s))" % tuple(fmt(x) for x in a + b + c3 + a)
    if d2 == 0:
        return 0
    below, above = bracket(d2)
    aw = "POINT Z (%s %s %s)" % tuple(fmt(x) for x in p)
    emit(out, idx, aw, bw, below, False)
    emit(out, idx + 1, aw, bw, above, True)
    return 2


def main():
    out = sys.stdout
    idx = 0
    while idx < n // 2:
        idx += general(out, idx)
    while idx < n:
        ox = F(random.randint(400000, 600000)) + F(random.randint(0, 1023), 1024)
        oy = F(random.randint(6900000, 7100000)) + F(random.randint(0, 1023), 1024)
        oz = F(random.randint(-500, 500)) + F(random.randint(0, 255), 256)
        p, q, r = random.choice(TRIPLES)
        k = F(2) ** random.randint(-6, 4)
        c, s = random.choice(ROT)
        kind = random.choice(["pt_seg", "pt_tri", "seg_seg"])
        L = F(random.randint(1, 64))
        # local frame: u along the segment (rotated x), v perpendicular (rotated y), z up
        u = (c, s, F(0))
        v = (-s, c, F(0))

        def at(a_, b_, z_):
            return tuple(o + a_ * uu + b_ * vv + z_ * ww for o, uu, vv, ww in zip((ox, oy, oz), u, v, (0, 0, 1)))

        # the point sits at offset (p k along v, q k along z): at distance r k from the u axis line
        t = F(random.randint(-8, 8), 16) * L
        pt = at(t, p * k, q * k)
        d = r * k
        if kind == "pt_seg":
            A = at(-L, 0, 0)
            B = at(L, 0, 0)
            geoms = [("POINT Z (%s %s %s)", pt), ("LINESTRING Z (%s %s %s, %s %s %s)", A + B)]
        elif kind == "pt_tri":
            # a vertical triangle in the plane through the u axis and z... use the plane v = 0, z below: the
            # distance from pt to it is the distance to the u axis edge (pt is off the plane side)
            A = at(-L, 0, 0)
            B = at(L, 0, 0)
            C = at(0, 0, -L)
            geoms = [("POINT Z (%s %s %s)", pt), ("TRIANGLE Z ((%s %s %s, %s %s %s, %s %s %s, %s %s %s))", A + B + C + A)]
        else:
            # a segment through pt parallel to z x u: crosses closest to the u axis at pt's foot
            w = (F(0), F(0), F(1))
            A = at(-L, 0, 0)
            B = at(L, 0, 0)
            P1 = tuple(x - y for x, y in zip(pt, (vv * L for vv in (F(0), F(0), F(0)))))
            # direction perpendicular to both u and the offset (p v + q z): n = u x (p v + q z) ~ (p z' - q v')
            nvec = tuple(p * zz - q * vv for vv, zz in zip(v, w))
            P1 = tuple(a_ - L * n_ for a_, n_ in zip(pt, nvec))
            P2 = tuple(a_ + L * n_ for a_, n_ in zip(pt, nvec))
            geoms = [("LINESTRING Z (%s %s %s, %s %s %s)", P1 + P2), ("LINESTRING Z (%s %s %s, %s %s %s)", A + B)]
        coords = [exact_double(x) for _, g in geoms for x in g]
        dd = exact_double(d)
        if any(x is None for x in coords) or dd is None:
            continue
        wkts = [tmpl % tuple(fmt(x) for x in g) for tmpl, g in geoms]
        # exactly d: within
        emit(out, idx, wkts[0], wkts[1], dd, True); idx += 1
        # d one ulp smaller: not within; one ulp larger: within
        emit(out, idx, wkts[0], wkts[1], nudge(dd, -1), False); idx += 1
        emit(out, idx, wkts[0], wkts[1], nudge(dd, +1), True); idx += 1


main()
