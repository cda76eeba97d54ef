-- bench/time_three.sql: the query in psql variable q run once to warm up, then timed three times (\ir'd by
-- the bench scripts after \set q '...').
:q;
\timing on
:q;
:q;
:q;
\timing off
