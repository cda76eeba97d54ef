-- degenerate: triangles with collinear or repeated vertices and zero-length segments are what they cover.
SELECT gx_intersects('TRIANGLE((0 0 0, 1 1 1, 2 2 2, 0 0 0))', 'POINT(1.5 1.5 1.5)') AS collinear_tri_point_inside,
	gx_intersects('TRIANGLE((0 0 0, 1 1 1, 2 2 2, 0 0 0))', 'POINT(2.5 2.5 2.5)') AS collinear_tri_point_beyond,
	gx_intersects('TRIANGLE((0 0 0, 2 2 2, 1 1 1, 0 0 0))', 'LINESTRING(2 0 2, 0 2 0)') AS collinear_tri_crossed,
	gx_intersects('TRIANGLE((0 0 0, 2 2 2, 1 1 1, 0 0 0))', 'LINESTRING(2 0 2, 0 2 0.5)') AS collinear_tri_missed;
SELECT gx_intersects('TRIANGLE((1 2 3, 1 2 3, 1 2 3, 1 2 3))', 'POINT(1 2 3)') AS point_tri_same,
	gx_intersects('TRIANGLE((1 2 3, 1 2 3, 1 2 3, 1 2 3))', 'TRIANGLE((0 0 3, 4 0 3, 0 4 3, 0 0 3))') AS point_tri_on_face,
	gx_intersects('TRIANGLE((1 2 3, 1 2 3, 1 2 3, 1 2 3))', 'TRIANGLE((0 0 4, 4 0 4, 0 4 4, 0 0 4))') AS point_tri_off_face,
	gx_intersects('TRIANGLE((0 0 0, 0 0 0, 3 0 0, 0 0 0))', 'TRIANGLE((1 -1 -1, 1 1 -1, 1 0 1, 1 -1 -1))') AS repeated_vertex_tri_pierces;
SELECT gx_intersects('LINESTRING(1 1 0, 1 1 0)', 'TRIANGLE((0 0 0, 4 0 0, 0 4 0, 0 0 0))') AS zero_segment_on_face,
	gx_intersects('LINESTRING(1 1 1, 1 1 1)', 'TRIANGLE((0 0 0, 4 0 0, 0 4 0, 0 0 0))') AS zero_segment_above,
	gx_intersects('LINESTRING(1 1 1, 1 1 1)', 'LINESTRING(0 0 0, 2 2 2)') AS zero_segment_on_segment,
	gx_intersects('LINESTRING(1 1 1, 1 1 1, 1 1 1)', 'LINESTRING(1 1 1, 1 1 1)') AS zero_segments_same_point;
-- a degenerate triangle inside a TIN among good ones (as real meshes have at poles)
SELECT gx_intersects('TIN(((0 0 0, 0 0 0, 0 0 0, 0 0 0)), ((10 10 10, 11 10 10, 10 11 10, 10 10 10)))', 'LINESTRING(0 0 -1, 0 0 1)') AS tin_degenerate_hit,
	gx_intersects('TIN(((0 0 0, 0 0 0, 0 0 0, 0 0 0)), ((10 10 10, 11 10 10, 10 11 10, 10 10 10)))', 'LINESTRING(0 0.1 -1, 0 0.1 1)') AS tin_degenerate_miss;
