#!/usr/bin/env bash
# test/layers.sh: the core library's folders call one way (docs/architecture.md): no file includes a header of
# a folder above its own, and no core file includes PostgreSQL. Exit 0 when that holds, 1 with the offenders.
set -uo pipefail
cd "$(dirname "$0")/.."
order=(base geom algorithm triangulate mining index solid batch wire operation construct io)
rank() { local i; for i in "${!order[@]}"; do [ "${order[$i]}" = "$1" ] && { echo "$i"; return; }; done; echo -1; }
bad=0
for f in src/core/*/*.[ch]; do
	d=$(basename "$(dirname "$f")")
	r=$(rank "$d")
	[ "$r" = -1 ] && { echo "$f: folder $d is not in the order of docs/architecture.md"; bad=1; continue; }
	for t in $(grep -o '^#include "[a-z]*/' "$f" | sed 's/#include "//;s#/##'); do
		rt=$(rank "$t")
		if [ "$rt" -gt "$r" ]; then echo "$f includes $t/ (above $d/)"; bad=1; fi
	done
	if grep -qE '^#include [<"](postgres|fmgr|utils/)' "$f"; then echo "$f includes PostgreSQL"; bad=1; fi
done
ls src/core/*.[ch] >/dev/null 2>&1 && { echo "files at the top of src/core: $(ls src/core/*.[ch])"; bad=1; }
[ "$bad" = 0 ] && echo "core layers: every include points down"
exit "$bad"
