-- data/mining.sql: the geologist's side of the demo (loaded after data/demo.sql): drill-hole collars, downhole
-- surveys and assay intervals, as exported by drilling databases, and the table holes: each hole's trace
-- desurveyed by minimum curvature (gx_desurvey). Deterministic; UTM zone 33N (SRID 32633), z = elevation.
--   225 surface holes on the grid of data/demo.sql, 180 to 450 m long, dipping 62 to 81 degrees and flattening
--   as they go (gentle curvature, about 1 degree per 30 m): 19 end inside an ore body, most miss them all;
--   6 underground holes collared inside bodies 0, 2 and 4 (from each, one drilled upward, one downward) start
--   inside. Holes and bodies meet in 69 (hole, body) pairs.
-- Convention: azimuth in degrees clockwise from grid north, dip in degrees, negative downward.

CREATE TABLE collars (hole_id int PRIMARY KEY, name text NOT NULL, collar gxgeom NOT NULL, end_depth float8 NOT NULL);
CREATE TABLE surveys (hole_id int REFERENCES collars, depth float8, azimuth float8 NOT NULL, dip float8 NOT NULL,
	PRIMARY KEY (hole_id, depth));
CREATE TABLE assays (hole_id int REFERENCES collars, from_m float8, to_m float8 NOT NULL, grade float8 NOT NULL,
	PRIMARY KEY (hole_id, from_m), CHECK (from_m < to_m));

-- Surface holes: collars on a gently rolling topography, surveys every 30 m to the end of the hole.
INSERT INTO collars
SELECT 100 * gx + gy, format('DH-%s-%s', gx, gy),
	format('SRID=32633;POINT Z (%s %s %s)', x, y, round((8 * sin(x / 170) + 6 * cos(y / 130))::numeric, 2))::gxgeom,
	180 + 30 * ((7 * gx + 11 * gy) % 10)
FROM generate_series(0, 14) gx, generate_series(0, 14) gy,
	LATERAL (SELECT round((499850 + 60 * gx + 7 * sin(gy * 1.7))::numeric, 2)::float8 AS x,
		round((6999800 + 60 * gy + 5 * cos(gx * 2.3))::numeric, 2)::float8 AS y) c;

INSERT INTO surveys
SELECT c.hole_id, 30 * k,
	round((20 * gx + 7 * gy + 1.6 * k + 0.7 * sin(1.3 * k + gx))::numeric, 1),
	round((-(62 + (gx + gy) % 20) + 0.6 * k + 0.4 * cos(0.9 * k + gy))::numeric, 1)
FROM collars c, LATERAL (SELECT c.hole_id / 100 AS gx, c.hole_id % 100 AS gy) g,
	generate_series(0, (c.end_depth / 30)::int) k;

-- Underground holes: collared at the centre of an ore body's extent, 150 m, one pair per body 0, 2 and 4.
INSERT INTO collars
SELECT 9000 + 2 * (b.body_id / 2) + j, format('UG-%s-%s', b.body_id, j),
	format('SRID=32633;POINT Z (%s %s %s)', round(((gx_xmin(b.geom) + gx_xmax(b.geom)) / 2)::numeric, 2),
		round(((gx_ymin(b.geom) + gx_ymax(b.geom)) / 2)::numeric, 2),
		round(((gx_zmin(b.geom) + gx_zmax(b.geom)) / 2)::numeric, 2))::gxgeom, 150
FROM orebodies b, generate_series(0, 1) j
WHERE b.body_id IN (0, 2, 4);

INSERT INTO surveys
SELECT c.hole_id, 50 * k, 45 + 120 * j + 70 * (b / 2) + 1.5 * k, CASE j WHEN 0 THEN 35 - 2 * k ELSE -10 - 1.5 * k END
FROM collars c, LATERAL (SELECT (c.hole_id - 9000) % 2 AS j, (c.hole_id - 9000) / 2 * 2 AS b) h,
	generate_series(0, 3) k
WHERE c.hole_id >= 9000;

-- The traces: one LINESTRING Z per hole, a vertex at every survey and a point every 5 m on the arcs between
-- them, so that lengths along the trace (gx_locate_along, intercepts) match downhole depths to 0.2 mm or better:
-- a chord of the arc is shorter than it, by depth * 5^2 / (24 R^2) over a hole whose arcs have radius R.
CREATE TABLE holes (hole_id int PRIMARY KEY REFERENCES collars, name text NOT NULL, geom gxgeom NOT NULL);
INSERT INTO holes
SELECT c.hole_id, c.name, gx_desurvey(c.collar, array_agg(s.depth ORDER BY s.depth),
	array_agg(s.azimuth ORDER BY s.depth), array_agg(s.dip ORDER BY s.depth), step_m => 5)
FROM collars c JOIN surveys s USING (hole_id)
GROUP BY c.hole_id, c.name, c.collar;

-- Assays: 1 m samples in even holes, 2 m in odd ones, from below the unsampled cover (0 to 9 m) to the end of the
-- hole. The grade (g/t) falls off with the scaled distance e of the sample's midpoint from the nearest body's
-- centre (its extent's semi-axes as unit), about 2-6 g/t inside, 0.05-0.2 g/t background, with deterministic noise:
-- correlated with the ore bodies, not defined by them, as in real data.
INSERT INTO assays
WITH bodies AS MATERIALIZED (
	SELECT (gx_xmin(geom) + gx_xmax(geom)) / 2 AS cx, (gx_ymin(geom) + gx_ymax(geom)) / 2 AS cy,
		(gx_zmin(geom) + gx_zmax(geom)) / 2 AS cz, (gx_xmax(geom) - gx_xmin(geom)) / 2 AS ax,
		(gx_ymax(geom) - gx_ymin(geom)) / 2 AS ay, (gx_zmax(geom) - gx_zmin(geom)) / 2 AS az
	FROM orebodies
), samples AS (
	SELECT h.hole_id, f AS from_m, least(f + len, c.end_depth) AS to_m,
		gx_locate_along(h.geom, least(f + len / 2, gx_length(h.geom))) AS mid
	FROM holes h JOIN collars c USING (hole_id),
		LATERAL (SELECT 1 + h.hole_id % 2 AS len, CASE WHEN h.hole_id < 9000 THEN 3 * (h.hole_id % 4) ELSE 0 END AS cover) s,
		LATERAL generate_series(0, ((c.end_depth - cover) / len)::int - 1) k,
		LATERAL (SELECT (cover + k * len)::float8 AS f) ff
), scored AS (
	SELECT s.hole_id, s.from_m, s.to_m,
		(SELECT min(sqrt(((gx_xmin(s.mid) - cx) / ax) ^ 2 + ((gx_ymin(s.mid) - cy) / ay) ^ 2 + ((gx_zmin(s.mid) - cz) / az) ^ 2))
			FROM bodies) AS e,
		s.hole_id * 12.9898 + s.from_m * 78.233 AS seed
	FROM samples s
), noise AS (
	SELECT hole_id, from_m, to_m, e, abs(sin(seed) * 43758.5453) AS r1, abs(cos(seed) * 24634.6345) AS r2 FROM scored
)
SELECT hole_id, from_m, to_m,
	round((0.05 + 0.15 * (r2 - floor(r2)) + 4.5 * exp(-least(2.5 * e ^ 4, 700)) * (0.5 + (r1 - floor(r1))))::numeric, 3)::float8
FROM noise;

ANALYZE collars;
ANALYZE surveys;
ANALYZE assays;
ANALYZE holes;
