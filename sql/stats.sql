-- stats: the counters of the predicate ladder move as expected.
SELECT gx_stats_reset();
SELECT * FROM gx_stats();
-- clear-cut: decided by the filter alone
SELECT gx_intersects('LINESTRING(1 1 -1, 1 1 1)', 'TRIANGLE((0 0 0, 4 0 0, 0 4 0, 0 0 0))');
SELECT counter, value > 0 AS moved FROM gx_stats() ORDER BY counter;
-- an exact zero at UTM coordinates (point on a tilted plane): the filter fails, expansions decide
SELECT gx_stats_reset();
SELECT gx_intersects('TRIANGLE((500000 7000000 0, 500001 7000000 1, 500000 7000001 0, 500000 7000000 0))',
	'LINESTRING(500000.3 7000000.25 10, 500000.3 7000000.25 0.29999999998835847)');
SELECT counter, value > 0 AS moved FROM gx_stats() ORDER BY counter;
-- coordinates near the overflow threshold: expansions cannot hold them, GMP decides
SELECT gx_stats_reset();
SELECT gx_intersects('TRIANGLE((0 0 0, 1e300 0 0, 0 1e300 0, 0 0 0))', 'LINESTRING(1e299 1e299 -1e299, 1e299 1e299 1e299)');
SELECT counter, value > 0 AS moved FROM gx_stats() ORDER BY counter;
