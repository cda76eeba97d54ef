-- data/mining_query.sql: the geologist's questions on data/mining.sql: the drilling, then assays flagged by
-- ore-body domain with grade-weighted composites per hole and domain.
\echo 'A second data set (data/mining.sql): its own collars, surveys, assays and holes, not the drillholes above.'
\echo 'Drilling: holes desurveyed by minimum curvature (gx_desurvey), surveys and assays:'
SELECT count(*) AS holes, round(sum(c.end_depth)) AS metres_drilled,
	(SELECT count(*) FROM surveys) AS surveys, (SELECT count(*) FROM assays) AS samples,
	round(max(abs(gx_length(h.geom) - c.end_depth))::numeric, 6) AS max_trace_vs_depth_m
FROM holes h JOIN collars c USING (hole_id);

\echo 'Assays flagged by ore-body domain: one query over gx_intercepts_pairs (holes against the solid ore bodies,'
\echo 'one batch), each sample cut where an intercept boundary falls inside it; grade-weighted composites per hole and domain:'
\timing on
\set QUIET on
CREATE TEMP TABLE composites AS
WITH intercepts AS (
	SELECT a_id AS hole_id, b_id AS body_id, from_m, to_m
	FROM gx_intercepts_pairs('SELECT hole_id, geom FROM holes', 'SELECT body_id, geom FROM orebodies')
), flagged AS (
	SELECT a.hole_id, i.body_id, a.grade, least(a.to_m, i.to_m) - greatest(a.from_m, i.from_m) AS metres
	FROM assays a JOIN intercepts i ON i.hole_id = a.hole_id AND i.from_m < a.to_m AND i.to_m > a.from_m
)
SELECT hole_id, body_id AS domain, count(*) AS samples, sum(metres) AS metres,
	sum(grade * metres) / sum(metres) AS grade
FROM flagged GROUP BY hole_id, body_id;
\set QUIET off
\timing off
SELECT c.name AS hole, o.name AS domain, k.samples, round(k.metres::numeric, 2) AS metres,
	round(k.grade::numeric, 3) AS composite_grade
FROM composites k JOIN collars c USING (hole_id) JOIN orebodies o ON o.body_id = k.domain
ORDER BY k.metres DESC, c.name LIMIT 12;
\echo 'Per domain: holes, metres in ore, grade-weighted grade; and the holes that start or end inside a body:'
SELECT o.name AS domain, count(*) AS holes, round(sum(k.metres)::numeric, 1) AS metres,
	round((sum(k.grade * k.metres) / sum(k.metres))::numeric, 3) AS grade,
	(SELECT count(*) FROM holes h JOIN collars c USING (hole_id)
	 WHERE gx_locate(c.collar, o.geom) = 'inside') AS collared_inside,
	(SELECT count(*) FROM holes h WHERE gx_locate(gx_locate_along(h.geom, gx_length(h.geom)), o.geom) = 'inside') AS ending_inside
FROM composites k JOIN orebodies o ON o.body_id = k.domain
GROUP BY o.body_id, o.name ORDER BY o.body_id;
