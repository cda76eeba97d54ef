-- contains: gx_contains(a, b) / gx_within(b, a): b lies in the closed point set of a (a solid's volume),
-- exactly; agreement with gx_locate and gx_intercepts; blocks (boxes) by exact volumes; the batched join
-- and index searches.
CREATE TEMP TABLE cube AS SELECT gx_makesolid('POLYHEDRALSURFACE Z (((0 0 0,0 1 0,1 1 0,1 0 0,0 0 0)),((0 0 1,1 0 1,1 1 1,0 1 1,0 0 1)),((0 0 0,1 0 0,1 0 1,0 0 1,0 0 0)),((0 1 0,0 1 1,1 1 1,1 1 0,0 1 0)),((0 0 0,0 0 1,0 1 1,0 1 0,0 0 0)),((1 0 0,1 1 0,1 1 1,1 0 1,1 0 0)))') AS g;
-- points: inside, on a face, on an edge, 1 ulp out
SELECT gx_contains(g, 'POINT(0.5 0.5 0.5)') AS inside, gx_contains(g, 'POINT(1 0.5 0.5)') AS on_face,
	gx_contains(g, 'POINT(1 1 0.5)') AS on_edge, gx_contains(g, 'POINT(1.0000000000000002 0.5 0.5)') AS ulp_out,
	gx_contains(g, 'MULTIPOINT(0.5 0.5 0.5, 2 2 2)') AS one_out FROM cube;
-- segments: the diagonal, the diagonal 1 ulp long, along a face, along an edge, through the inside from
-- face to face, a polyline with a vertex on the surface leaving it
SELECT gx_contains(g, 'LINESTRING(0 0 0, 1 1 1)') AS diagonal,
	gx_contains(g, 'LINESTRING(0 0 0, 1 1 1.0000000000000002)') AS ulp_long,
	gx_within('LINESTRING(0 0 0.5, 1 0 0.5)', g) AS along_face,
	gx_within('LINESTRING(0 0 0, 0 0 1)', g) AS along_edge,
	gx_within('LINESTRING(0.5 0 0.5, 0.5 1 0.5)', g) AS face_to_face,
	gx_within('LINESTRING(0.5 0.5 0.5, 0.5 0.5 1, 0.5 0.5 1.5)', g) AS leaves FROM cube;
-- a segment is contained iff its intercept is the whole segment
WITH s AS (SELECT k, format('LINESTRING(%s %s %s, %s %s %s)', (k % 3) * 0.5, (k / 3 % 3) * 0.5, (k / 9 % 3) * 0.5,
		(k / 27 % 3) * 0.5, (k / 81 % 3) * 0.5, 1.5 - (k % 4) * 0.5)::gxgeom AS line FROM generate_series(0, 242) k)
SELECT count(*) AS segments, count(*) FILTER (WHERE gx_contains(g, line)) AS contained,
	count(*) FILTER (WHERE gx_contains(g, line) IS DISTINCT FROM coalesce((SELECT count(*) = 1 AND min(from_m) = 0 AND max(to_m) = gx_length(line)
		FROM gx_intercepts(line, g)), false)) AS disagreeing
FROM s, cube;
-- triangles: inside, a vertex out, in one triangle of a face, an edge along a face and the rest inside;
-- one lying on a face across two of its triangles
SELECT gx_contains(g, 'TRIANGLE((0.1 0.1 0.1,0.9 0.1 0.1,0.1 0.9 0.1,0.1 0.1 0.1))') AS inside,
	gx_contains(g, 'TRIANGLE((0.1 0.1 0.1,0.9 0.1 0.1,0.1 0.9 1.1,0.1 0.1 0.1))') AS vertex_out,
	gx_contains(g, 'TRIANGLE((0.3 0.1 0,0.4 0.1 0,0.4 0.2 0,0.3 0.1 0))') AS on_face,
	gx_contains(g, 'TRIANGLE((0.1 0.1 0,0.9 0.1 0,0.5 0.5 0.5,0.1 0.1 0))') AS edge_on_face,
	gx_contains(g, 'TRIANGLE((0 0 0,1 0 0,1 1 1,0 0 0))') AS edges_on_faces FROM cube;
SELECT gx_contains(g, 'TRIANGLE((0 0 0,1 0 0,0 1 0,0 0 0))') FROM cube;
-- a slab with a square hole through it: a triangle lying on its top face over several of the face's
-- triangles is contained; one whose inside spans the hole, its edges on the face, is not (the surface touches
-- its inside along the hole's rim without crossing it)
CREATE TEMP TABLE ring AS SELECT gx_makesolid('POLYHEDRALSURFACE Z (((0 0 1,6 0 1,6 6 1,0 6 1,0 0 1),(1 1 1,1 2 1,2 2 1,2 1 1,1 1 1)),
	((0 0 0,0 6 0,6 6 0,6 0 0,0 0 0),(1 1 0,2 1 0,2 2 0,1 2 0,1 1 0)),
	((0 0 0,6 0 0,6 0 1,0 0 1,0 0 0)),((6 0 0,6 6 0,6 6 1,6 0 1,6 0 0)),((6 6 0,0 6 0,0 6 1,6 6 1,6 6 0)),((0 6 0,0 0 0,0 0 1,0 6 1,0 6 0)),
	((1 1 0,1 1 1,2 1 1,2 1 0,1 1 0)),((2 1 0,2 1 1,2 2 1,2 2 0,2 1 0)),((2 2 0,2 2 1,1 2 1,1 2 0,2 2 0)),((1 2 0,1 2 1,1 1 1,1 1 0,1 2 0)))') AS g;
SELECT gx_contains(g, 'TRIANGLE((3 0 1,6 0 1,6 3 1,3 0 1))') AS beside_hole,
	gx_contains(g, 'TRIANGLE((0 0 1,6 0 1,0 6 1,0 0 1))') AS over_hole,
	gx_contains(g, 'TRIANGLE((0 0 0.5,6 0 0.5,0 6 0.5,0 0 0.5))') AS through_hole FROM ring;
-- solids: a small cube inside, the same cube; a cube around a cavity is not inside the hollow body
CREATE TEMP TABLE hollow AS SELECT gx_makesolid('POLYHEDRALSURFACE Z (((0 0 0,0 4 0,4 4 0,4 0 0,0 0 0)),((0 0 4,4 0 4,4 4 4,0 4 4,0 0 4)),((0 0 0,4 0 0,4 0 4,0 0 4,0 0 0)),((0 4 0,0 4 4,4 4 4,4 4 0,0 4 0)),((0 0 0,0 0 4,0 4 4,0 4 0,0 0 0)),((4 0 0,4 4 0,4 4 4,4 0 4,4 0 0)),
	((1.5 1.5 1.5,2.5 1.5 1.5,2.5 2.5 1.5,1.5 2.5 1.5,1.5 1.5 1.5)),((1.5 1.5 2.5,1.5 2.5 2.5,2.5 2.5 2.5,2.5 1.5 2.5,1.5 1.5 2.5)),((1.5 1.5 1.5,1.5 1.5 2.5,2.5 1.5 2.5,2.5 1.5 1.5,1.5 1.5 1.5)),((1.5 2.5 1.5,2.5 2.5 1.5,2.5 2.5 2.5,1.5 2.5 2.5,1.5 2.5 1.5)),((1.5 1.5 1.5,1.5 2.5 1.5,1.5 2.5 2.5,1.5 1.5 2.5,1.5 1.5 1.5)),((2.5 1.5 1.5,2.5 1.5 2.5,2.5 2.5 2.5,2.5 2.5 1.5,2.5 1.5 1.5)))') AS g;
CREATE FUNCTION pg_temp.box_solid(x0 float8, y0 float8, z0 float8, x1 float8, y1 float8, z1 float8) RETURNS gxgeom
	LANGUAGE sql AS $$ SELECT gx_makesolid(format('POLYHEDRALSURFACE Z (((%1$s %2$s %3$s,%1$s %5$s %3$s,%4$s %5$s %3$s,%4$s %2$s %3$s,%1$s %2$s %3$s)),((%1$s %2$s %6$s,%4$s %2$s %6$s,%4$s %5$s %6$s,%1$s %5$s %6$s,%1$s %2$s %6$s)),((%1$s %2$s %3$s,%4$s %2$s %3$s,%4$s %2$s %6$s,%1$s %2$s %6$s,%1$s %2$s %3$s)),((%1$s %5$s %3$s,%1$s %5$s %6$s,%4$s %5$s %6$s,%4$s %5$s %3$s,%1$s %5$s %3$s)),((%1$s %2$s %3$s,%1$s %2$s %6$s,%1$s %5$s %6$s,%1$s %5$s %3$s,%1$s %2$s %3$s)),((%4$s %2$s %3$s,%4$s %5$s %3$s,%4$s %5$s %6$s,%4$s %2$s %6$s,%4$s %2$s %3$s)))',
		x0, y0, z0, x1, y1, z1)::gxgeom) $$;
-- a triangle whose edges stay in the wall while the cavity crosses its inside is not in the hollow body;
-- blocks sharing faces with the body's surface: one at a corner is in it; the body's own box holds the
-- cavity and the block filling the cavity is the cavity: neither is in it
SELECT gx_contains(g, 'TRIANGLE((0.5 0.5 2,3.5 0.5 2,2 3.9 2,0.5 0.5 2))') AS across_cavity,
	gx_contains(g, 'TRIANGLE((0.5 0.5 1,3.5 0.5 1,2 3.9 1,0.5 0.5 1))') AS below_cavity FROM hollow;
SELECT gx_contains(h.g, pg_temp.box_solid(0, 0, 0, 1, 1, 1)) AS corner_block,
	gx_contains(h.g, pg_temp.box_solid(0, 0, 0, 4, 4, 4)) AS whole_box,
	gx_contains(h.g, pg_temp.box_solid(1.5, 1.5, 1.5, 2.5, 2.5, 2.5)) AS filling_cavity FROM hollow h;
SELECT gx_contains(h.g, pg_temp.box_solid(0.5, 0.5, 0.5, 1, 1, 1)) AS small_in_wall,
	gx_contains(h.g, pg_temp.box_solid(1, 1, 1, 3, 3, 3)) AS around_cavity,
	gx_contains(h.g, pg_temp.box_solid(0.5, 0.5, 0.5, 1, 1, 4.5)) AS poking_out,
	gx_contains(c.g, pg_temp.box_solid(0.25, 0.25, 0.25, 0.75, 0.75, 0.75)) AS in_cube
FROM hollow h, cube c;
-- blocks: exact volumes; the whole cube, 1 ulp larger, one inside, one around the cavity, flat ones
SELECT gx_contains(g, 'BOX3D(0 0 0,1 1 1)'::gxbox3d) AS whole,
	gx_contains(g, 'BOX3D(0 0 0,1 1 1.0000000000000002)'::gxbox3d) AS ulp_larger,
	gx_within('BOX3D(0.25 0.25 0.25,0.75 0.75 0.75)'::gxbox3d, g) AS inside,
	gx_contains(g, 'BOX3D(0.5 0.5 0.5,0.5 0.5 1)'::gxbox3d) AS segment,
	gx_contains(g, 'BOX3D(0.5 0.5 0.5,0.5 0.5 0.5)'::gxbox3d) AS point,
	gx_contains(g, 'BOX3D(0.2 0.2 0.5,0.8 0.8 0.5)'::gxbox3d) AS rectangle FROM cube;
SELECT gx_contains(g, 'BOX3D(1 1 1,3 3 3)'::gxbox3d) AS around_cavity, gx_contains(g, 'BOX3D(0 0 0,1 1 1)'::gxbox3d) AS in_wall FROM hollow;
SELECT gx_contains('LINESTRING(0 0 0, 5 0 0)', 'BOX3D(1 0 0,2 1 1)'::gxbox3d) AS no_volume_in_a_line;
-- flat boxes in lines and surfaces: a segment on a line, one beyond its end, a rectangle on a surface, one past its edge
SELECT gx_contains('LINESTRING(0 0 0, 5 0 0)', 'BOX3D(1 0 0,2 0 0)'::gxbox3d) AS on_line,
	gx_contains('LINESTRING(0 0 0, 5 0 0)', 'BOX3D(4 0 0,6 0 0)'::gxbox3d) AS past_end,
	gx_contains('TIN Z (((0 0 0,2 0 0,2 2 0,0 0 0)),((0 0 0,2 2 0,0 2 0,0 0 0)))', 'BOX3D(0.5 0.5 0,2 2 0)'::gxbox3d) AS on_surface,
	gx_contains('TIN Z (((0 0 0,2 0 0,2 2 0,0 0 0)),((0 0 0,2 2 0,0 2 0,0 0 0)))', 'BOX3D(0.5 0.5 0,2.5 2 0)'::gxbox3d) AS past_edge;
-- lines and surfaces: pieces covered by several elements, gaps, points
SELECT gx_contains('LINESTRING(0 0 0, 2 0 0, 2 2 0)', 'LINESTRING(0.5 0 0, 2 0 0, 2 1 0)') AS sub_line,
	gx_contains('MULTILINESTRING((0 0 0, 1 0 0),(1 0 0, 2 0 0))', 'LINESTRING(0 0 0,2 0 0)') AS two_pieces,
	gx_contains('MULTILINESTRING((0 0 0, 1 0 0),(1.5 0 0, 2 0 0))', 'LINESTRING(0 0 0,2 0 0)') AS gap,
	gx_contains('LINESTRING(0 0 0, 2 0 0)', 'POINT(1 0 0)') AS point_on,
	gx_contains('LINESTRING(0 0 0, 3 3 3)', 'POINT(1 1 1.0000000000000002)') AS point_off,
	gx_contains('TIN Z (((0 0 0,2 0 0,2 2 0,0 0 0)),((0 0 0,2 2 0,0 2 0,0 0 0)))', 'LINESTRING(0 1 0, 2 1 0)') AS across_two,
	gx_contains('TIN Z (((0 0 0,2 0 0,2 2 0,0 0 0)),((0 0 0,2 2 0,0 2 0,0 0 0)))', 'TRIANGLE((0 0 0,2 0 0,2 2 0,0 0 0))') AS one_triangle,
	gx_contains('TIN Z (((0 0 0,2 0 0,2 2 0,0 0 0)),((0 0 0,2 2 0,0 2 0,0 0 0)))', 'LINESTRING(0 1 0, 2 1 1e-300)') AS off_plane;
-- a triangle that several triangles cover together; the same with a hole (its edges still covered), and the hole filled
SELECT gx_contains('TIN Z (((0 0 0,2 0 0,2 2 0,0 0 0)),((0 0 0,2 2 0,0 2 0,0 0 0)))', 'TRIANGLE((0 0 0,2 0 0,0 2 0,0 0 0))') AS two_cover,
	gx_contains('TIN Z (((0 0 0,4 0 0,2 1 0,0 0 0)),((0 0 0,2 1 0,1 1 0,0 0 0)),((4 0 0,0 4 0,1 2 0,4 0 0)),((4 0 0,1 2 0,2 1 0,4 0 0)),((0 4 0,0 0 0,1 1 0,0 4 0)),((0 4 0,1 1 0,1 2 0,0 4 0)))',
		'TRIANGLE((0 0 0,4 0 0,0 4 0,0 0 0))') AS ring_around_hole,
	gx_contains('TIN Z (((0 0 0,4 0 0,2 1 0,0 0 0)),((0 0 0,2 1 0,1 1 0,0 0 0)),((4 0 0,0 4 0,1 2 0,4 0 0)),((4 0 0,1 2 0,2 1 0,4 0 0)),((0 4 0,0 0 0,1 1 0,0 4 0)),((0 4 0,1 1 0,1 2 0,0 4 0)),((1 1 0,2 1 0,1 2 0,1 1 0)))',
		'TRIANGLE((0 0 0,4 0 0,0 4 0,0 0 0))') AS hole_filled;
-- EMPTY contains nothing and lies in nothing; SRIDs as everywhere
SELECT gx_contains('POINT EMPTY', 'POINT EMPTY'), gx_contains('POINT(0 0 0)', 'POINT EMPTY'), gx_contains('POINT EMPTY', 'POINT(0 0 0)');
SELECT gx_contains('SRID=32633;POINT(0 0 0)', 'SRID=4326;POINT(0 0 0)');
-- the batched join: holes inside bodies, against the per-pair answer
CREATE TEMP TABLE bodies AS SELECT k AS id, pg_temp.box_solid(k * 10, 0, 0, k * 10 + 4, 4, 4) AS geom FROM generate_series(0, 4) k;
CREATE TEMP TABLE holes AS SELECT k AS id, format('LINESTRING(%s 2 %s, %s 2 %s)', k * 0.5, k % 5, k * 0.5 + 1, k % 5 + 0.5)::gxgeom AS geom
	FROM generate_series(0, 99) k;
SET enable_nestloop = off; SET enable_hashjoin = off; SET enable_mergejoin = off;
EXPLAIN (COSTS OFF) SELECT h.id, b.id FROM holes h JOIN bodies b ON gx_within(h.geom, b.geom);
CREATE TEMP TABLE batched AS SELECT h.id AS h, b.id AS b FROM holes h JOIN bodies b ON gx_within(h.geom, b.geom);
RESET enable_nestloop; RESET enable_hashjoin; RESET enable_mergejoin;
SET gpuexact.enable_join = off;
CREATE TEMP TABLE per_pair AS SELECT h.id AS h, b.id AS b FROM holes h, bodies b WHERE gx_contains(b.geom, h.geom);
RESET gpuexact.enable_join;
SELECT (SELECT count(*) FROM batched) AS batched, (SELECT count(*) FROM per_pair) AS per_pair,
	(SELECT count(*) FROM (TABLE batched EXCEPT TABLE per_pair) d) + (SELECT count(*) FROM (TABLE per_pair EXCEPT TABLE batched) d) AS differing;
-- index searches: the container's box contains the other's (~), the contained one's lies within (@)
CREATE INDEX ON holes USING gist (geom);
CREATE INDEX ON bodies USING gist (geom);
ANALYZE holes; ANALYZE bodies;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM holes WHERE gx_within(geom, (SELECT geom FROM bodies WHERE id = 0));
EXPLAIN (COSTS OFF) SELECT id FROM bodies WHERE gx_contains(geom, 'POINT(12 2 2)');
SELECT id FROM holes WHERE gx_within(geom, (SELECT geom FROM bodies WHERE id = 0)) ORDER BY id;
SELECT id FROM bodies WHERE gx_contains(geom, 'POINT(12 2 2)');
RESET enable_seqscan;
