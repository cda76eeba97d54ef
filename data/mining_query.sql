-- data/mining_query.sql: the geologist's questions on data/mining.sql: the drilling, then assays flagged by
-- ore-body domain with grade-weighted composites per hole and domain.
\echo 'Drilling: holes desurveyed by minimum curvature (gx_desurvey), surveys and assays:'
SELECT count(*) AS holes, round(sum(c.end_depth)) AS metres_drilled,
	(SELECT count(*) FROM surveys) AS surveys, (SELECT count(*) FROM assays) AS samples,
	round(max(abs(gx_length(h.geom) - c.end_depth))::numeric, 6) AS max_trace_vs_depth_m
FROM holes h JOIN collars c USING (hole_id);

-- ============================================================================================================
-- DOMAIN FLAGGING: to be written with gx_intercepts_pairs (issue 9):
--   intercepts of holes (SELECT hole_id, geom FROM holes) with ore bodies (SELECT body_id, geom FROM orebodies),
--   each assay interval [from_m, to_m] flagged with the body whose intercept contains it (or split where an
--   intercept boundary falls inside a sample), then per hole and domain the grade-weighted composite
--   sum(grade * metres) / sum(metres). Lengths along holes.geom are downhole depths (see data/mining.sql).
-- ============================================================================================================
