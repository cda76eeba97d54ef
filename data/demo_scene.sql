-- data/demo_scene.sql: the demo's answer as one 3D scene, a query for tools/gx-export (demo.sh saves it as
-- demo.glb and demo.html): the ore bodies of data/demo.sql, translucent gold, the pit shell of data/demo_pit.sql,
-- translucent grey, with the ore inside it (table ore_in_pit) in purple, and the holes of data/mining.sql
-- coloured by their assays' grade, each run of consecutive samples of one grade class a piece of the trace
-- (gx_line_substring; the last sample ends at the hole's depth, which its trace's length meets to 0.2 mm, so
-- is cut at that length). Columns: the geometry, its colour, its label in the page's legend.
WITH classed AS (
	SELECT hole_id, from_m, to_m, CASE WHEN grade >= 2 THEN 2 WHEN grade >= 0.5 THEN 1 ELSE 0 END AS class
	FROM assays
), runs AS (
	-- a new run where the class changes down the hole
	SELECT hole_id, class, from_m, to_m,
		count(*) FILTER (WHERE class IS DISTINCT FROM previous) OVER (PARTITION BY hole_id ORDER BY from_m) AS run
	FROM (SELECT *, lag(class) OVER (PARTITION BY hole_id ORDER BY from_m) AS previous FROM classed) c
)
SELECT geom, ARRAY[0.9, 0.7, 0.1, 0.6] AS colour, 'ore body' AS label FROM orebodies
UNION ALL
SELECT geom, ARRAY[0.55, 0.55, 0.6, 0.25], 'pit shell' FROM pit
UNION ALL
SELECT geom, ARRAY[0.6, 0.2, 0.8], 'ore inside the pit' FROM ore_in_pit WHERE volume > 0
UNION ALL
SELECT gx_line_substring(h.geom, min(r.from_m), least(max(r.to_m), gx_length(h.geom))),
	CASE r.class WHEN 2 THEN ARRAY[0.85, 0.1, 0.1] WHEN 1 THEN ARRAY[0.2, 0.75, 0.3] ELSE ARRAY[0.2, 0.4, 0.9] END,
	CASE r.class WHEN 2 THEN 'grade >= 2 g/t' WHEN 1 THEN 'grade 0.5 to 2 g/t' ELSE 'grade < 0.5 g/t' END
FROM runs r JOIN holes h USING (hole_id)
GROUP BY h.hole_id, h.geom, r.run, r.class
