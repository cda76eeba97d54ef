-- bench/mining_tables.sql: included by bench/dwithin.sql and bench/solids.sql (psql -v dir=DIR): the mining
-- workload written by `build/bench_batch mining SCALE --copy DIR` as the tables holes and bodies (id, geom).
-- With -v empty=1 the tables are made empty (bench/load_mining.sh then loads them in parallel).
\set ON_ERROR_STOP on
CREATE EXTENSION IF NOT EXISTS gpuexact;
DROP TABLE IF EXISTS holes, bodies;
CREATE TABLE holes (id int PRIMARY KEY, geom gxgeom);
CREATE TABLE bodies (id int PRIMARY KEY, geom gxgeom);
\if :{?empty}
\else
\set a_file :dir '/a.copy'
\set b_file :dir '/b.copy'
COPY holes FROM :'a_file';
COPY bodies FROM :'b_file';
\endif
