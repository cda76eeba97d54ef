-- data/demo_query.sql: the demo's question: which drill holes cut which ore bodies (exactly)?
\echo 'Dataset:'
SELECT (SELECT count(*) FROM drillholes) AS drillholes,
	(SELECT sum(gx_nsegments(geom)) FROM drillholes) AS segments,
	(SELECT count(*) FROM orebodies) AS orebodies,
	(SELECT sum(gx_ntriangles(geom)) FROM orebodies) AS triangles;
\echo 'Drill holes intersecting ore bodies, per body:'
\timing on
SELECT b.body_id, count(*) AS holes, string_agg(h.name, ' ' ORDER BY h.hole_id) AS hole_names
FROM drillholes h JOIN orebodies b ON gx_intersects(h.geom, b.geom)
GROUP BY b.body_id ORDER BY b.body_id;
\timing off
\echo 'How the exact predicate ladder decided (this session; filter_undecided are signs the fast filter left to exact arithmetic):'
SELECT * FROM gx_stats();
\echo 'How the join ran (one batch through the engine; Ran On says GPU or CPU; see the README):'
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
SELECT h.hole_id, b.body_id FROM drillholes h JOIN orebodies b ON gx_intersects(h.geom, b.geom);
