#!/usr/bin/env bash
# test/affine_fraction.sh: gx_affine, gx_rotatez (about a point too), gx_translate and gx_scale against Python's
# exact rationals (fractions.Fraction, whose float() rounds once to nearest): every output coordinate must be
# the double nearest to the exact value of its expression over the input doubles, bit for bit. Random matrices
# and points of every magnitude, UTM coordinates, sums that cancel, and quarter turns (exact 0 and 1 entries).
# Runs against the cluster in PGHOST/PGPORT/PGUSER; exit status 0 when every coordinate is right.
set -uo pipefail
db=gpuexact_affine
export PGOPTIONS="-c client_min_messages=warning"
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" >/dev/null || exit 1
trap 'psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1' EXIT
psql -X -q -d $db -c "CREATE EXTENSION gpuexact" >/dev/null || exit 1

python3 - "$db" <<'PY'
import math, random, subprocess, sys
from fractions import Fraction as F

db = sys.argv[1]
rng = random.Random(20261129)

def anyd(e):
    return rng.choice([-1, 1]) * math.ldexp(1 + rng.random(), rng.randint(-e, e))

cases = []    # (sql expression giving the point, exact x, y, z as Fractions)
for k in range(600):
    kind = k % 4
    if kind == 0:
        m = [anyd(60) for _ in range(9)]; off = [anyd(60) for _ in range(3)]; p = [anyd(60) for _ in range(3)]
    elif kind == 1:
        m = [math.cos(rng.random() * 6) for _ in range(9)]; off = [rng.uniform(-1e6, 1e6) for _ in range(3)]
        p = [500000 + rng.random() * 1e4, 4500000 + rng.random() * 1e4, rng.random() * 500]
    elif kind == 2:
        # x' cancels: m0 p0 + m1 p1 nearly zero
        p = [anyd(10) for _ in range(3)]; m = [anyd(10) for _ in range(9)]
        m[1] = -(m[0] * p[0]) / p[1]; off = [0.0, anyd(5), 0.0]
    else:
        m = [float(rng.randint(-3, 3)) for _ in range(9)]; off = [rng.choice([0.1, 0.3, 1e-17]) for _ in range(3)]
        p = [rng.choice([0.1, 0.2, 0.7, 3.0]) for _ in range(3)]
    exact = [sum(F(m[3 * r + j]) * F(p[j]) for j in range(3)) + F(off[r]) for r in range(3)]
    args = ", ".join(repr(v) for v in m + off)
    cases.append(("gx_affine('POINT(%r %r %r)', %s)" % (p[0], p[1], p[2], args), exact))
for k in range(300):
    a = rng.uniform(-7, 7)
    c, s = math.cos(a), math.sin(a)
    p = [500000 + rng.random() * 1e4, 4500000 + rng.random() * 1e4, rng.random() * 300]
    o = [500000 + rng.random() * 1e4, 4500000 + rng.random() * 1e4]
    ex = F(c) * F(p[0]) - F(s) * F(p[1]) + F(o[0]) - F(c) * F(o[0]) + F(s) * F(o[1])
    ey = F(s) * F(p[0]) + F(c) * F(p[1]) + F(o[1]) - F(s) * F(o[0]) - F(c) * F(o[1])
    cases.append(("gx_rotatez('POINT(%r %r %r)', %r, 'POINT(%r %r 0)')" % (p[0], p[1], p[2], a, o[0], o[1]),
                  [ex, ey, F(p[2])]))
for q in range(-4, 5):
    p = [anyd(30), anyd(30), anyd(30)]
    cq, sq = [1, 0, -1, 0][q % 4], [0, 1, 0, -1][q % 4]
    cases.append(("gx_rotatez('POINT(%r %r %r)', %d * (pi() / 2))" % (p[0], p[1], p[2], q),
                  [F(cq) * F(p[0]) - F(sq) * F(p[1]), F(sq) * F(p[0]) + F(cq) * F(p[1]), F(p[2])]))
for k in range(100):
    p = [anyd(40) for _ in range(3)]; t = [anyd(40) for _ in range(3)]
    cases.append(("gx_translate('POINT(%r %r %r)', %r, %r, %r)" % tuple(p + t), [F(p[i]) + F(t[i]) for i in range(3)]))
    cases.append(("gx_scale('POINT(%r %r %r)', %r, %r, %r)" % tuple(p + t), [F(p[i]) * F(t[i]) for i in range(3)]))

sql = "".join("SELECT gx_astext(%s);\n" % e for e, _ in cases)
out = subprocess.run(["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d", db], input=sql,
                     capture_output=True, text=True)
if out.returncode != 0:
    print("FAILED: psql:", out.stderr.strip()); sys.exit(1)
rows = out.stdout.rstrip("\n").split("\n")
bad = 0
for (expr, exact), text in zip(cases, rows):
    got = [float(v) for v in text[len("POINT Z ("):-1].split()]
    want = [float(v) for v in exact]
    if any(g != w or math.copysign(1, g) != math.copysign(1, w) and g != 0 for g, w in zip(got, want)):
        bad += 1
        if bad <= 5:
            print("FAILED: %s = %s, exact rounded once: %r" % (expr, text, want))
if len(rows) != len(cases):
    print("FAILED: %d results for %d cases" % (len(rows), len(cases))); sys.exit(1)
print("%s: %d transformed points, %d coordinates checked against Fraction, %d wrong" %
      ("ok" if bad == 0 else "FAILED", len(cases), 3 * len(cases), bad))
sys.exit(1 if bad else 0)
PY
