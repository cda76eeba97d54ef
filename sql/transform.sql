-- gx_transform through PROJ (expected/transform_1.out: gpuexact built without PROJ)
SELECT gx_srid(g), round(gx_xmin(g)::numeric, 6) AS x, round(gx_ymin(g)::numeric, 6) AS y, gx_zmin(g) AS z
FROM (SELECT gx_transform('SRID=4326;POINT(15 45 100)', 32633) g) s;
-- there and back: within a micrometre
SELECT abs(gx_xmin(g) - 500123.25) < 1e-6 AND abs(gx_ymin(g) - 4982950.5) < 1e-6 AS round_trip
FROM (SELECT gx_transform(gx_transform('SRID=32633;LINESTRING(500123.25 4982950.5 10,500200 4983000 20)', 4326), 32633) g) s;
-- a solid stays a solid
SELECT gx_issolid(gx_transform(gx_setsrid('BOX3D(500000 4500000 0,500010 4500020 30)'::gxbox3d::gxgeom, 32633), 32632));
SELECT gx_transform('POINT(1 2 3)', 4326);
SELECT gx_transform('SRID=4326;POINT(1 2 3)', 999999);
