-- bench/mining_tables.sql: included by bench/dwithin.sql and bench/solids.sql (psql -v dir=DIR): the mining
-- workload written by `build/bench_batch mining SCALE --copy DIR` as the tables holes and bodies (id, geom).
\set ON_ERROR_STOP on
CREATE EXTENSION IF NOT EXISTS gpuexact;
DROP TABLE IF EXISTS holes, bodies;
CREATE TABLE holes (id int PRIMARY KEY, geom gxgeom);
CREATE TABLE bodies (id int PRIMARY KEY, geom gxgeom);
\set a_file :dir '/a.copy'
\set b_file :dir '/b.copy'
COPY holes FROM :'a_file';
COPY bodies FROM :'b_file';
