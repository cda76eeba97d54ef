#!/usr/bin/env bash
# test/oracle/run.sh: the booleans' volumes against CGAL's corefinement with exact constructions, and their solids
# checked by CGAL (test/oracle/cgal_boolean.cpp), where CGAL's headers are (apt-get install libcgal-dev); else one
# SKIPPED line.
# Exits with the oracle's status (0 when skipped).
set -u
cd "$(dirname "$0")/../.."
if [ ! -f /usr/include/CGAL/Polygon_mesh_processing/corefinement.h ]; then
	echo "SKIPPED: test/oracle/run.sh: CGAL's headers are not installed (libcgal-dev)"
	exit 0
fi
make -s build/cgal_boolean || exit 1
build/cgal_boolean
